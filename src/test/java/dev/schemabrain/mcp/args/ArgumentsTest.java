package dev.schemabrain.mcp.args;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgumentsTest {

    static final ArgSchema SCHEMA = ArgSchema.parse("""
            {
              "q":      { "type": "string", "required": true },
              "limit":  { "type": "integer", "minimum": 1, "maximum": 100, "default": 20 },
              "ratio":  { "type": "number", "default": 0.5 },
              "exact":  { "type": "boolean", "default": false },
              "mode":   { "type": "enum", "enum": ["fast", "accurate"], "default": "fast" },
              "level":  { "type": "enum", "enum": [1, 2] },
              "kinds":  { "type": "string", "isArray": true, "default": ["table"] },
              "ids":    { "type": "integer", "isArray": true },
              "note":   { "type": "string" },
              "count":  { "type": "integer" }
            }
            """);

    static Arguments valid(Map<String, Object> args) {
        return SCHEMA.validate(args).arguments();
    }

    @Test
    void defaultsApplyWhenAnArgumentIsAbsent() {
        Arguments a = valid(Map.of("q", "orders"));
        assertEquals(Optional.of("orders"), a.string("q"));
        assertEquals(20, a.integer("limit"));
        assertEquals(0.5, a.number("ratio"));
        assertFalse(a.bool("exact"));
        assertEquals(Optional.of("fast"), a.string("mode"));
        assertEquals(List.of("table"), a.stringList("kinds"));
        assertEquals(List.of(), a.integerList("ids"));
        assertEquals(Optional.empty(), a.string("note"));
        assertFalse(a.has("limit"));   // a default is not something the caller said
        assertEquals(Map.of("q", "orders"), a.raw());
    }

    @Test
    void givenValuesWinOverDefaults() {
        Arguments a = valid(Map.of("q", "orders", "limit", 5.0, "ratio", 2, "exact", true, "mode", "accurate",
                "level", 2.0, "kinds", List.of("view"), "ids", List.of(3, 4.0)));
        assertEquals(5, a.integer("limit"));
        assertEquals(5L, a.longInteger("limit"));
        assertEquals(2.0, a.number("ratio"));
        assertEquals(5.0, a.number("limit"));   // an integer reads fine as a number
        assertTrue(a.bool("exact"));
        assertEquals(Optional.of("accurate"), a.string("mode"));
        assertEquals(Optional.of("2"), a.string("level"));   // an enum reads in its string form
        assertEquals(List.of("view"), a.stringList("kinds"));
        assertEquals(List.of(3L, 4L), a.integerList("ids"));
        assertEquals(List.of(3.0, 4.0), a.numberList("ids"));
        assertTrue(a.has("limit"));
    }

    @Test
    void absentWithoutDefaultIsAnErrorForPrimitiveReads() {
        Arguments a = valid(Map.of("q", "orders"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.integer("count"));
        assertEquals("argument 'count' was not given and has no default; check has() first or declare a default", e.getMessage());
    }

    @Test
    void readingAnUndeclaredOrMistypedArgumentIsAProgrammingError() {
        Arguments a = valid(Map.of("q", "orders"));
        assertEquals("no argument 'query' is declared",
                assertThrows(IllegalArgumentException.class, () -> a.string("query")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.has("query"));
        assertEquals("argument 'q' is declared as string, not read as integer",
                assertThrows(IllegalArgumentException.class, () -> a.integer("q")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.string("kinds"));
        assertThrows(IllegalArgumentException.class, () -> a.stringList("q"));
    }

    @Test
    void anIntegerBeyondIntIsReadAsLong() {
        Arguments a = valid(Map.of("q", "orders", "count", 5_000_000_000L));
        assertEquals(5_000_000_000L, a.longInteger("count"));
        assertThrows(IllegalStateException.class, () -> a.integer("count"));
    }

    @Test
    void toStringShowsNamesNotValues() {
        assertEquals("Arguments[q]", valid(Map.of("q", "secret")).toString());
    }
}
