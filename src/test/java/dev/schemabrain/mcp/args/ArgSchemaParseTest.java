package dev.schemabrain.mcp.args;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgSchemaParseTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSeedsTwoExampleShapesParseToEqualSchemas() {
        ArgSchema direct = ArgSchema.parse(SeedSchemas.DIRECT);
        ArgSchema jsonSchemaLike = ArgSchema.parse(SeedSchemas.JSON_SCHEMA_LIKE);
        assertEquals(direct, jsonSchemaLike);
        assertEquals(direct.hashCode(), jsonSchemaLike.hashCode());
        assertEquals(List.of("q", "limit", "tags", "scores", "mode"), List.copyOf(direct.args().keySet()));

        assertEquals(new ArgSpec("q", ArgType.STRING, true, null, false, 3, 64, null, null, List.of(), null, null, Map.of()), direct.spec("q"));
        assertEquals(new ArgSpec("limit", ArgType.INTEGER, false, null, false, null, null,
                BigDecimal.ONE, BigDecimal.valueOf(100), List.of(), null, null, Map.of()), direct.spec("limit"));
        assertEquals(new ArgSpec("tags", ArgType.STRING, false, null, true, 2, null, null, null, List.of(), null, null, Map.of()), direct.spec("tags"));
        assertEquals(new ArgSpec("scores", ArgType.NUMBER, false, null, true, null, null,
                BigDecimal.ZERO, BigDecimal.ONE, List.of(), null, null, Map.of()), direct.spec("scores"));
        assertEquals(new ArgSpec("mode", ArgType.ENUM, false, null, false, null, null, null, null,
                List.of("fast", "accurate"), null, null, Map.of()), direct.spec("mode"));
    }

    @Test
    void parsingADecodedMapGivesTheSameSchemaAsParsingTheString() throws Exception {
        Map<String, Object> decoded = JSON.readValue(SeedSchemas.DIRECT, new TypeReference<>() { });
        assertEquals(ArgSchema.parse(SeedSchemas.DIRECT), ArgSchema.parse(decoded));
    }

    @Test
    void orderIsPartOfEquality() {
        ArgSchema ab = ArgSchema.parse("{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}");
        ArgSchema ba = ArgSchema.parse("{\"b\":{\"type\":\"string\"},\"a\":{\"type\":\"string\"}}");
        assertNotEquals(ab, ba);
    }

    @Test
    void arrayLevelEnumAppliesToEachElement() {
        ArgSpec levels = ArgSchema.parse(SeedSchemas.LEVELS).spec("levels");
        assertTrue(levels.array());
        assertEquals(ArgType.INTEGER, levels.type());
        assertEquals(List.of("1", "2", "3"), levels.enumValues());
    }

    @Test
    void itemsEnumIsTheSameAsArrayLevelEnum() {
        ArgSchema itemsEnum = ArgSchema.parse("""
                {"properties": {"levels": {"type": "array", "items": {"type": "integer", "enum": [1, 2, 3]}}}}""");
        assertEquals(ArgSchema.parse(SeedSchemas.LEVELS), itemsEnum);
        ArgSchema agreeing = ArgSchema.parse("""
                {"properties": {"levels": {"type": "array", "enum": [1, 2, 3], "items": {"type": "integer", "enum": [1.0, 2, 3]}}}}""");
        assertEquals(itemsEnum, agreeing);
    }

    @Test
    void isArrayWithFloatIsAnArrayOfNumbers() {
        ArgSchema schema = ArgSchema.parse(SeedSchemas.IS_ARRAY);
        ArgSpec thresholds = schema.spec("thresholds");
        assertTrue(thresholds.array());
        assertEquals(ArgType.NUMBER, thresholds.type());
        assertEquals(new BigDecimal("0.1"), thresholds.minimum());
        assertEquals(new BigDecimal("0.9"), thresholds.maximum());
        assertFalse(thresholds.required());
        ArgSpec names = schema.spec("names");
        assertTrue(names.array() && names.required());
        assertEquals(ArgType.STRING, names.type());
        assertEquals(1, names.minLength());
        assertEquals(20, names.maxLength());
        // "isArray" also works with items, and "float" and "number" are one type.
        assertEquals(schema.spec("thresholds"), ArgSchema.parse("""
                {"thresholds": {"type": "number", "isArray": true, "items": {"minimum": 0.10, "maximum": 0.9}}}""")
                .spec("thresholds"));
    }

    @Test
    void schemaVersionOfTheSeedOrNoneIsAccepted() {
        ArgSchema plain = ArgSchema.parse(SeedSchemas.DIRECT);
        assertEquals(plain, ArgSchema.parse(SeedSchemas.DIRECT.replaceFirst("\\{", "{\"schemaVersion\": \"2025-10-09\",")));
        assertEquals(plain, ArgSchema.parse(SeedSchemas.JSON_SCHEMA_LIKE.replaceFirst("\\{", "{\"schemaVersion\": \"2025-10-09\",")));
        assertEquals(plain, ArgSchema.parse(SeedSchemas.DIRECT.replaceFirst("\\{", "{\"schemaVersion\": \"2026-11-23\",")));
        assertFalse(plain.args().containsKey("schemaVersion"));
    }

    @Test
    void anyOtherSchemaVersionIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ArgSchema.parse("{\"schemaVersion\": \"2026-01-01\", \"q\": {\"type\": \"string\"}}"));
        assertEquals("unsupported schemaVersion '2026-01-01' (supported: 2025-10-09, 2026-11-23)", e.getMessage());
        rejects("{\"schemaVersion\": 20251009}", "schemaVersion must be a string");
    }

    @Test
    void generatedJsonSchemaTopLevelKeysAreTolerated() {
        ArgSchema schema = ArgSchema.parse("""
                {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}""");
        assertEquals(ArgType.STRING, schema.spec("q").type());
        rejects("{\"type\": \"array\", \"properties\": {}}", "top-level type must be \"object\"");
        rejects("{\"properties\": {}, \"additionalProperties\": true}", "top-level additionalProperties can only be false");
        rejects("{\"properties\": {}, \"title\": \"x\"}", "unknown top-level field 'title'");
    }

    @Test
    void aDirectMapArgumentNamedPropertiesIsNotMistakenForTheOtherShape() {
        ArgSchema schema = ArgSchema.parse("{\"properties\": {\"type\": \"string\"}, \"required\": {\"type\": \"boolean\"}}");
        assertEquals(List.of("properties", "required"), List.copyOf(schema.args().keySet()));
        assertEquals(ArgType.BOOLEAN, schema.spec("required").type());
    }

    @Test
    void enumWithoutTypeIsAnEnum() {
        assertEquals(ArgType.ENUM, ArgSchema.parse("{\"mode\": {\"enum\": [\"a\", \"b\"]}}").spec("mode").type());
    }

    @Test
    void nullFieldsCountAsAbsent() {
        ArgSpec q = ArgSchema.parse("{\"q\": {\"type\": \"string\", \"description\": null, \"minLength\": null}}").spec("q");
        assertNull(q.description());
        assertNull(q.minLength());
    }

    @Test
    void emptySchemaHasNoArguments() {
        assertTrue(ArgSchema.empty().args().isEmpty());
        assertEquals(ArgSchema.empty(), ArgSchema.parse("{}"));
        assertEquals(ArgSchema.empty(), ArgSchema.parse("{\"properties\": {}}"));
    }

    @Test
    void declarationErrorsNameTheArgumentAndTheProblem() {
        rejects("{\"q\": {\"type\": \"text\"}}",
                "argument 'q': unknown type 'text' (expected string, integer, float, number, boolean, enum, object, scalars or array)");
        rejects("{\"q\": {\"type\": \"string\", \"minLength\": 5, \"maxLength\": 2}}",
                "argument 'q': minLength 5 is greater than maxLength 2");
        rejects("{\"n\": {\"type\": \"integer\", \"minimum\": 10, \"maximum\": 1}}",
                "argument 'n': minimum 10 is greater than maximum 1");
        rejects("{\"q\": {\"type\": \"string\", \"minLength\": -1}}", "argument 'q': minLength must be a non-negative integer");
        rejects("{\"q\": {\"type\": \"string\", \"minLength\": 1.5}}", "argument 'q': minLength must be a non-negative integer");
        rejects("{\"n\": {\"type\": \"integer\", \"minimum\": \"1\"}}", "argument 'n': minimum must be a number");
        rejects("{\"n\": {\"type\": \"integer\", \"minLength\": 1}}", "argument 'n': minLength/maxLength apply to strings only");
        rejects("{\"q\": {\"type\": \"string\", \"maximum\": 1}}", "argument 'q': minimum/maximum apply to integer and number only");
        rejects("{\"mode\": {\"type\": \"enum\"}}", "argument 'mode': type enum needs a non-empty enum list");
        rejects("{\"mode\": {\"type\": \"enum\", \"enum\": []}}", "argument 'mode': enum must be a non-empty array of values");
        rejects("{\"mode\": {\"type\": \"enum\", \"enum\": [\"a\", \"a\"]}}", "argument 'mode': enum values must be distinct");
        rejects("{\"mode\": {\"type\": \"enum\", \"enum\": [[1]]}}", "argument 'mode': enum values must be strings, numbers or booleans");
        rejects("{\"mode\": {\"type\": \"string\", \"enum\": [1]}}", "argument 'mode': enum value 1 must be a string");
        rejects("{\"n\": {\"type\": \"integer\", \"maximum\": 2, \"enum\": [1, 3]}}",
                "argument 'n': enum value '3' can never be accepted: argument 'n' value must be <= 2");
        rejects("{\"q\": {\"type\": \"string\", \"pattern\": \"x\"}}", "argument 'q': unknown field 'pattern' (expected one of type, required,");
        rejects("{\"q\": {\"type\": \"array\", \"items\": {\"type\": \"string\", \"format\": \"uri\"}}}", "argument 'q': unknown field 'items.format'");
        rejects("{\"q\": {\"required\": true}}", "argument 'q': type is required");
        rejects("{\"q\": {\"type\": \"array\"}}", "argument 'q': an array needs an element type");
        rejects("{\"q\": {\"type\": \"array\", \"items\": {\"type\": \"array\"}}}", "argument 'q': arrays of arrays are not supported");
        rejects("{\"q\": {\"type\": \"string\", \"items\": {\"type\": \"string\"}}}", "argument 'q': items is only for arrays");
        rejects("{\"q\": {\"type\": \"string\", \"isArray\": true, \"items\": {\"type\": \"integer\"}}}",
                "argument 'q': type 'string' and items.type 'integer' disagree");
        rejects("{\"q\": {\"type\": \"array\", \"minLength\": 1, \"items\": {\"type\": \"string\", \"minLength\": 2}}}",
                "argument 'q': minLength and items.minLength disagree");
        rejects("{\"q\": {\"type\": \"string\", \"required\": \"yes\"}}", "argument 'q': required must be true or false");
        rejects("{\"q\": \"string\"}", "argument 'q': must be an object of fields");
        rejects("{\"properties\": {\"q\": {\"type\": \"string\"}}, \"required\": [\"p\"]}",
                "required lists 'p', which is not a declared property");
        rejects("{\"q\": {\"type\": \"string\"}, \"q\": {\"type\": \"integer\"}}", "argument schema is not valid JSON: Duplicate field 'q'");
        rejects("{\"q\": ", "argument schema is not valid JSON");
        rejects("[]", "an argument schema must be a JSON object");
    }

    @Test
    void defaultsAreCheckedAgainstTheirOwnDeclaration() {
        rejects("{\"n\": {\"type\": \"integer\", \"maximum\": 10, \"default\": 11}}",
                "argument 'n': the default is invalid: argument 'n' value must be <= 10");
        rejects("{\"n\": {\"type\": \"integer\", \"default\": \"5\"}}", "argument 'n': the default is invalid: argument 'n' must be an integer");
        rejects("{\"n\": {\"type\": \"integer\", \"required\": true, \"default\": 5}}", "argument 'n': a required argument can't have a default");
        rejects("{\"mode\": {\"type\": \"enum\", \"enum\": [\"fast\"], \"default\": \"slow\"}}",
                "argument 'mode': the default is invalid: argument 'mode' must be one of the enum values: fast");
        ArgSpec n = ArgSchema.parse("{\"n\": {\"type\": \"integer\", \"default\": 5.0}}").spec("n");
        assertEquals(5L, n.defaultValue());   // normalized, so both shapes and both spellings compare equal
    }

    static void rejects(String json, String messageStart) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArgSchema.parse(json));
        assertTrue(e.getMessage().startsWith(messageStart), () -> "expected a message starting with <" + messageStart
                + "> but got <" + e.getMessage() + ">");
    }
}
