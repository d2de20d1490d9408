package dev.schemabrain.mcp.args;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class InputSchemaTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static String inputSchema(String declaration) throws Exception {
        return JSON.writeValueAsString(ArgSchema.parse(declaration).toStrictSchema());
    }

    @Test
    void theSeedSchemaRendersAsCompactJsonSchema() throws Exception {
        String expected = """
                {"type":"object","properties":{\
                "q":{"type":"string","minLength":3,"maxLength":64},\
                "limit":{"type":"integer","minimum":1,"maximum":100},\
                "tags":{"type":"array","items":{"type":"string","minLength":2}},\
                "scores":{"type":"array","items":{"type":"number","minimum":0,"maximum":1}},\
                "mode":{"type":"string","enum":["fast","accurate"]}},\
                "required":["q"],"additionalProperties":false}""";
        assertEquals(expected, inputSchema(SeedSchemas.DIRECT));
        assertEquals(expected, inputSchema(SeedSchemas.JSON_SCHEMA_LIKE));
    }

    @Test
    void arraysCarryElementConstraintsInItems() throws Exception {
        assertEquals("""
                {"type":"object","properties":{"levels":{"type":"array","items":{"type":"integer","enum":[1,2,3]}}},\
                "additionalProperties":false}""", inputSchema(SeedSchemas.LEVELS));
        assertEquals("""
                {"type":"object","properties":{\
                "names":{"type":"array","items":{"type":"string","minLength":1,"maxLength":20}},\
                "thresholds":{"type":"array","items":{"type":"number","minimum":0.1,"maximum":0.9}}},\
                "required":["names"],"additionalProperties":false}""", inputSchema(SeedSchemas.IS_ARRAY));
    }

    @Test
    void descriptionsAndDefaultsAreCarriedOver() throws Exception {
        assertEquals("""
                {"type":"object","properties":{\
                "q":{"type":"string","description":"Primary search query string.","minLength":3},\
                "limit":{"type":"integer","description":"Rows.","maximum":100,"default":20},\
                "kinds":{"type":"array","description":"Object kinds.","items":{"type":"string","enum":["table","view"]},"default":["table"]}},\
                "required":["q"],"additionalProperties":false}""", inputSchema("""
                {"q": {"type": "string", "required": true, "minLength": 3, "description": "Primary search query string."},
                 "limit": {"type": "integer", "maximum": 100, "default": 20.0, "description": "Rows."},
                 "kinds": {"type": "array", "items": {"type": "string", "enum": ["table", "view"]}, "default": ["table"],
                           "description": "Object kinds."}}"""));
    }

    @Test
    void enumTypesFollowTheValues() throws Exception {
        assertEquals("""
                {"type":"object","properties":{\
                "ints":{"type":"integer","enum":[1,2],"default":2},\
                "nums":{"type":"number","enum":[1,2.5]},\
                "strs":{"type":"string","enum":["a","1"]},\
                "bools":{"type":"boolean","enum":[true]}},\
                "additionalProperties":false}""", inputSchema("""
                {"ints": {"type": "enum", "enum": [1, 2], "default": 2},
                 "nums": {"type": "enum", "enum": [1, 2.5]},
                 "strs": {"enum": ["a", 1]},
                 "bools": {"type": "boolean", "enum": [true]}}"""));
    }

    @Test
    void noArgumentsIsAnEmptyObject() throws Exception {
        assertEquals("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
                JSON.writeValueAsString(ArgSchema.empty().toStrictSchema()));
    }

    @Test
    void eachCallGivesAFreshMap() {
        ArgSchema schema = ArgSchema.parse(SeedSchemas.DIRECT);
        schema.toStrictSchema().put("type", "changed");
        assertEquals("object", schema.toStrictSchema().get("type"));
    }

    /*
     * Checking against the 2020-12 meta-schema itself needs a validator library the build doesn't have
     * (the MCP SDK brings one and checks every inputSchema at build()). This test holds the output to
     * the rules of that meta-schema that our keywords can break; the full check was run once by hand
     * with networknt json-schema-validator 2.0.4.
     */
    @Test
    void outputKeepsTheJsonSchemaRulesForItsKeywords() {
        for (String declaration : List.of(SeedSchemas.DIRECT, SeedSchemas.LEVELS, SeedSchemas.IS_ARRAY, NestedArgsTest.FILTERS,
                "{\"e\": {\"type\": \"enum\", \"enum\": [1, 2.5], \"default\": 1}, \"d\": {\"type\": \"boolean\", \"description\": \"x\"}}")) {
            checkObject(ArgSchema.parse(declaration).toStrictSchema());
        }
    }

    /** The root, or a declared object at any depth: the same strict shape. */
    private static void checkObject(Map<?, ?> object) {
        assertEquals("object", object.get("type"));
        assertEquals(false, object.get("additionalProperties"));
        Map<?, ?> properties = (Map<?, ?>) object.get("properties");
        if (object.containsKey("required")) {
            List<?> required = (List<?>) object.get("required");
            assertEquals(required.size(), new HashSet<>(required).size(), "required items are unique");
            assertTrue(properties.keySet().containsAll(required));
        }
        properties.values().forEach(p -> checkSubschema((Map<?, ?>) p));
    }

    private static final Set<String> TYPES = Set.of("string", "integer", "number", "boolean", "array");

    private static void checkSubschema(Map<?, ?> schema) {
        if ("object".equals(schema.get("type"))) {
            checkObject(schema);
            return;
        }
        schema.forEach((key, value) -> {
            switch ((String) key) {
                case "type" -> assertTrue(TYPES.contains(value), "type " + value);
                case "description" -> assertTrue(value instanceof String);
                case "minLength", "maxLength" -> assertTrue(value instanceof Integer i && i >= 0, key + " " + value);
                case "minimum", "maximum" -> assertTrue(value instanceof Long || value instanceof Double, key + " " + value);
                case "enum" -> assertTrue(value instanceof List<?> l && !l.isEmpty());
                case "items" -> checkSubschema((Map<?, ?>) value);
                case "maxItems" -> assertTrue(value instanceof Integer i && i >= 0, key + " " + value);
                case "anyOf" -> {
                    assertTrue(value instanceof List<?> l && !l.isEmpty());
                    ((List<?>) value).forEach(v -> checkSubschema((Map<?, ?>) v));
                }
                case "default" -> assertTrue(value != null);
                default -> fail("unexpected keyword " + key);
            }
        });
    }

    @Test
    void thePublishedFormLeavesOutWhatTheValidatorEnforcesItself() throws Exception {
        ArgSchema schema = ArgSchema.parse("""
                {"type": "object", "properties": {
                  "q": {"type": "string", "minLength": 3, "maxLength": 64, "description": "Query."},
                  "tags": {"type": "array", "maxItems": 4, "items": {"type": "string", "minLength": 2}},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}},
                 "required": ["q"]}""");
        assertEquals("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"description\":\"Query.\"},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"limit\":{\"type\":\"integer\","
                + "\"minimum\":1,\"maximum\":100,\"default\":10}},\"required\":[\"q\"]}", JSON.writeValueAsString(schema.toInputSchema()));
        // ...and the validator still holds every limit the published form left out.
        assertEquals("argument 'q' string length must be >= 3", schema.validate(Map.of("q", "ab")).firstMessage());
    }
}
