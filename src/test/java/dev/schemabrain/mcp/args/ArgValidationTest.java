package dev.schemabrain.mcp.args;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgValidationTest {

    static final ArgSchema SEED = ArgSchema.parse(SeedSchemas.DIRECT);

    /** Arguments in the given order, valid q unless overridden; null values allowed. */
    static Map<String, Object> call(Object... pairs) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("q", "abc");
        for (int i = 0; i < pairs.length; i += 2) {
            args.put((String) pairs[i], pairs[i + 1]);
        }
        return args;
    }

    static void accepts(ArgSchema schema, Map<String, Object> args) {
        Validation v = schema.validate(args);
        assertTrue(v.isValid(), () -> "expected valid but got " + v.violations());
    }

    static void rejects(ArgSchema schema, Map<String, Object> args, String message) {
        Validation v = schema.validate(args);
        assertFalse(v.isValid());
        assertEquals(List.of(message), v.violations());
        assertEquals(message, v.firstMessage());
    }

    @Test
    void qIsARequiredStringOf3To64Characters() {
        rejects(SEED, Map.of(), "missing required argument 'q'");
        rejects(SEED, call("q", "ab"), "argument 'q' string length must be >= 3");
        rejects(SEED, call("q", "x".repeat(65)), "argument 'q' string length must be <= 64");
        rejects(SEED, call("q", 123), "argument 'q' must be a string");
        accepts(SEED, call("q", "abc"));
        accepts(SEED, call("q", "x".repeat(64)));
        accepts(SEED, call("q", "😀😀😀"));   // lengths count characters (code points), as JSON Schema does
    }

    @Test
    void limitIsAnIntegerFrom1To100() {
        rejects(SEED, call("limit", 0), "argument 'limit' value must be >= 1");
        rejects(SEED, call("limit", 101), "argument 'limit' value must be <= 100");
        rejects(SEED, call("limit", "2"), "argument 'limit' must be an integer");
        rejects(SEED, call("limit", 2.5), "argument 'limit' must be an integer");
        rejects(SEED, call("limit", true), "argument 'limit' must be an integer");
        accepts(SEED, call("limit", 1));
        accepts(SEED, call("limit", 100));
        accepts(SEED, call("limit", 2.0));
        accepts(SEED, call("limit", 50L));
        accepts(SEED, call("limit", new BigDecimal("20.000")));
        accepts(SEED, call("limit", BigInteger.TEN));
    }

    @Test
    void tagsIsAnArrayOfStringsOfAtLeast2Characters() {
        rejects(SEED, call("tags", "ab"), "argument 'tags' must be an array");
        rejects(SEED, call("tags", List.of("ok", "x")), "argument 'tags' string length must be >= 2");
        rejects(SEED, call("tags", List.of("ok", 7)), "argument 'tags' must be a string");
        rejects(SEED, call("tags", Arrays.asList("ok", null)), "argument 'tags' must be a string");
        accepts(SEED, call("tags", List.of("ok", "fine")));
        accepts(SEED, call("tags", List.of()));
    }

    @Test
    void scoresIsAnArrayOfNumbersFrom0To1() {
        rejects(SEED, call("scores", 0.5), "argument 'scores' must be an array");
        rejects(SEED, call("scores", List.of(0.5, 1.5)), "argument 'scores' value must be <= 1");
        rejects(SEED, call("scores", List.of(-0.1)), "argument 'scores' value must be >= 0");
        rejects(SEED, call("scores", List.of("0.5")), "argument 'scores' must be a number");
        accepts(SEED, call("scores", List.of(0, 1, 0.25, 1.0)));
    }

    @Test
    void modeIsOneOfFastOrAccurate() {
        rejects(SEED, call("mode", "slow"), "argument 'mode' must be one of the enum values: fast, accurate");
        rejects(SEED, call("mode", List.of("fast")), "argument 'mode' must be one of the enum values: fast, accurate");
        accepts(SEED, call("mode", "fast"));
        accepts(SEED, call("mode", "accurate"));
    }

    @Test
    void enumValuesCompareByStringForm() {
        ArgSchema numbers = ArgSchema.parse("{\"level\": {\"type\": \"enum\", \"enum\": [1, 2, 0.5]}}");
        accepts(numbers, Map.of("level", 1));
        accepts(numbers, Map.of("level", 1.0));
        accepts(numbers, Map.of("level", "2"));
        accepts(numbers, Map.of("level", 0.50));
        rejects(numbers, Map.of("level", 3), "argument 'level' must be one of the enum values: 1, 2, 0.5");
    }

    @Test
    void arrayLevelEnumChecksEachElement() {
        ArgSchema levels = ArgSchema.parse(SeedSchemas.LEVELS);
        accepts(levels, Map.of("levels", List.of(1, 3, 2.0)));
        rejects(levels, Map.of("levels", List.of(1, 4)), "argument 'levels' must be one of the enum values: 1, 2, 3");
        rejects(levels, Map.of("levels", List.of("1")), "argument 'levels' must be an integer");
    }

    @Test
    void itemsEnumChecksEachElement() {
        ArgSchema kinds = ArgSchema.parse("""
                {"properties": {"kinds": {"type": "array", "items": {"type": "string", "enum": ["table", "view"]}}}}""");
        accepts(kinds, Map.of("kinds", List.of("view", "table")));
        rejects(kinds, Map.of("kinds", List.of("view", "index")), "argument 'kinds' must be one of the enum values: table, view");
    }

    @Test
    void isArrayWithFloatChecksEachElement() {
        ArgSchema schema = ArgSchema.parse(SeedSchemas.IS_ARRAY);
        accepts(schema, Map.of("names", List.of("a"), "thresholds", List.of(0.1, 0.5, 0.9)));
        rejects(schema, Map.of("names", List.of("a"), "thresholds", List.of(0.05)), "argument 'thresholds' value must be >= 0.1");
        rejects(schema, Map.of("names", List.of("a"), "thresholds", List.of(0.95)), "argument 'thresholds' value must be <= 0.9");
        rejects(schema, Map.of("names", List.of("")), "argument 'names' string length must be >= 1");
        rejects(schema, Map.of("names", List.of("x".repeat(21))), "argument 'names' string length must be <= 20");
    }

    @Test
    void booleansAreOnlyTrueOrFalse() {
        ArgSchema schema = ArgSchema.parse("{\"flag\": {\"type\": \"boolean\"}}");
        accepts(schema, Map.of("flag", false));
        rejects(schema, Map.of("flag", "true"), "argument 'flag' must be a boolean");
        rejects(schema, Map.of("flag", 1), "argument 'flag' must be a boolean");
    }

    @Test
    void unknownArgumentsAreRejected() {
        Validation v = SEED.validate(call("x", 1));
        assertEquals(List.of("unknown argument 'x'"), v.violations());
        assertEquals(List.of("x"), v.unknownArguments());
        // Even a null-valued unknown argument: strictness is about names.
        assertEquals(List.of("unknown argument 'y'"), SEED.validate(call("y", null)).violations());
        assertEquals(List.of("unknown argument 'q'"), ArgSchema.empty().validate(Map.of("q", "abc")).violations());
    }

    @Test
    void nullMeansAbsent() {
        accepts(SEED, call("limit", null, "tags", null));
        rejects(SEED, call("q", null), "missing required argument 'q'");
        rejects(SEED, null, "missing required argument 'q'");
        accepts(ArgSchema.empty(), null);
    }

    @Test
    void violationsComeInDeclaredOrderThenUnknownsInCallerOrderCappedAtFive() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("zeta", 1);
        args.put("mode", "slow");
        args.put("alpha", 2);
        args.put("limit", 0);
        args.put("tags", "x");
        args.put("omega", 3);
        Validation v = SEED.validate(args);
        assertEquals(List.of(
                "missing required argument 'q'",
                "argument 'limit' value must be >= 1",
                "argument 'tags' must be an array",
                "argument 'mode' must be one of the enum values: fast, accurate",
                "unknown argument 'zeta'"), v.violations());
        assertEquals(List.of("zeta", "alpha", "omega"), v.unknownArguments());   // all of them, beyond the cap
        assertEquals(String.join("; ", v.violations()), v.message());
    }

    @Test
    void aHugeValueIsNeverEchoed() {
        String huge = "y".repeat(1_000_000);
        for (Map<String, Object> args : List.of(call("q", huge), call("mode", huge), call("tags", List.of("ok", huge + "z")),
                call("limit", huge), call("scores", List.of(huge)))) {
            Validation v = SEED.validate(args);
            if (args.containsKey("tags")) {   // tags has no max length: that one is valid
                assertTrue(v.isValid());
                continue;
            }
            assertTrue(v.message().length() < 300, v.message().length() + " characters");
            assertFalse(v.message().contains("yyyyyyyy"), v.message());
        }
    }

    @Test
    void aHugeUnknownNameIsCut() {
        String huge = "n".repeat(1_000_000);
        Validation v = SEED.validate(call(huge, 1));
        String message = v.firstMessage();
        assertTrue(message.length() < 300, message.length() + " characters");
        assertEquals("unknown argument '" + "n".repeat(64) + "…'", message);
        assertEquals(List.of(huge), v.unknownArguments());
    }

    @Test
    void controlCharactersInANameDoNotReachTheMessage() {
        Map<String, Object> args = new HashMap<>(call());
        args.put("bad\nname\u0000", 1);
        assertEquals("unknown argument 'bad?name?'", SEED.validate(args).firstMessage());
    }

    @Test
    void integersAcceptZeroFractionDoublesOnly() {
        ArgSchema n = ArgSchema.parse("{\"n\": {\"type\": \"integer\"}}");
        assertEquals(2, n.validate(Map.of("n", 2.0)).arguments().integer("n"));
        rejects(n, Map.of("n", 2.5), "argument 'n' must be an integer");
        rejects(n, Map.of("n", "2"), "argument 'n' must be an integer");
        rejects(n, Map.of("n", Double.NaN), "argument 'n' must be an integer");
        rejects(n, Map.of("n", 1e30), "argument 'n' must be an integer");   // beyond 64 bits
    }

    @Test
    void theCallersMapMayBeMutableAndIsCopied() {
        List<Object> tags = new ArrayList<>(List.of("ab"));
        Map<String, Object> args = call("tags", tags);
        Arguments a = SEED.validate(args).arguments();
        tags.add("cd");
        args.put("limit", 5);
        assertEquals(List.of("ab"), a.stringList("tags"));
        assertFalse(a.has("limit"));
        assertThrows(UnsupportedOperationException.class, () -> a.raw().put("limit", 1));
    }

    @Test
    void asksForTheWrongHalfOfAValidationAreProgrammingErrors() {
        Validation invalid = SEED.validate(Map.of());
        assertThrows(IllegalStateException.class, invalid::arguments);
        Validation valid = SEED.validate(call());
        assertThrows(IllegalStateException.class, valid::firstMessage);
        assertThrows(IllegalStateException.class, valid::message);
        assertTrue(valid.violations().isEmpty() && valid.unknownArguments().isEmpty());
    }
}
