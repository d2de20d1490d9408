package dev.schemabrain.mcp.args;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Objects with declared fields (schema version 2026-11-23): one declaration, both the inputSchema and the checks. */
class NestedArgsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The shape of get_metric's filters, JSON-Schema-like: fields under items, a required list. */
    static final String FILTERS = """
            {"filters": {"type": "array", "maxItems": 3, "items": {"type": "object",
              "properties": {
                "column": {"type": "string", "minLength": 1},
                "op": {"type": "enum", "enum": ["eq", "in", "is_null"]},
                "value": {"type": "scalars"}},
              "required": ["column", "op"]}},
             "sort": {"type": "object", "properties": {"direction": {"enum": ["asc", "desc"], "default": "asc"}}}}""";

    /** The same in seed 001's direct-map style: isArray, properties on the field, required per field. */
    static final String FILTERS_DIRECT = """
            {"filters": {"type": "object", "isArray": true, "maxItems": 3, "properties": {
                "column": {"type": "string", "required": true, "minLength": 1},
                "op": {"type": "enum", "required": true, "enum": ["eq", "in", "is_null"]},
                "value": {"type": "scalars"}}},
             "sort": {"type": "object", "properties": {"direction": {"enum": ["asc", "desc"], "default": "asc"}}}}""";

    static final ArgSchema SCHEMA = ArgSchema.parse(FILTERS);

    static Map<String, Object> filter(Object... pairs) {
        Map<String, Object> f = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            f.put((String) pairs[i], pairs[i + 1]);
        }
        return f;
    }

    static final Map<String, Object> GOOD = filter("column", "a.b", "op", "eq", "value", 1);

    static Map<String, Object> filters(Object... elements) {
        return Map.of("filters", Arrays.asList(elements));
    }

    @Test
    void bothShapesDeclareTheSameFields() {
        assertEquals(SCHEMA.spec("filters"), ArgSchema.parse(FILTERS_DIRECT).spec("filters"));
        ArgSpec filters = SCHEMA.spec("filters");
        assertEquals(List.of("column", "op", "value"), List.copyOf(filters.fields().keySet()));
        assertTrue(filters.fields().get("op").required() && !filters.fields().get("value").required());
        assertEquals(ArgType.SCALARS, filters.fields().get("value").type());
    }

    @Test
    void theInputSchemaPublishesTheFieldsStrictly() throws Exception {
        String scalar = "{\"type\":\"string\"},{\"type\":\"number\"},{\"type\":\"boolean\"}";
        assertEquals("{\"type\":\"array\",\"maxItems\":3,\"items\":{\"type\":\"object\",\"properties\":{"
                + "\"column\":{\"type\":\"string\",\"minLength\":1},"
                + "\"op\":{\"type\":\"string\",\"enum\":[\"eq\",\"in\",\"is_null\"]},"
                + "\"value\":{\"anyOf\":[" + scalar + ",{\"type\":\"array\",\"items\":{\"anyOf\":[" + scalar + "]}}]}},"
                + "\"required\":[\"column\",\"op\"],\"additionalProperties\":false}}",
                JSON.writeValueAsString(((Map<?, ?>) SCHEMA.toStrictSchema().get("properties")).get("filters")));
        assertEquals("{\"type\":\"object\",\"properties\":{\"direction\":{\"type\":\"string\",\"enum\":[\"asc\",\"desc\"],"
                        + "\"default\":\"asc\"}},\"additionalProperties\":false}",
                JSON.writeValueAsString(((Map<?, ?>) SCHEMA.toStrictSchema().get("properties")).get("sort")));
    }

    static Stream<Arguments> badCalls() {
        Map<String, Object> controlName = new HashMap<>(GOOD);
        controlName.put("bad\nname\u0000", 1);
        Map<String, Object> hugeName = new HashMap<>(GOOD);
        hugeName.put("n".repeat(1_000_000), 1);
        Object deep = "x";
        for (int i = 0; i < 100_000; i++) {
            deep = List.of(deep);
        }
        String scalars = "must be a string, number, boolean or an array of them";
        return Stream.of(
                Arguments.of("not an array", Map.of("filters", GOOD), "argument 'filters' must be an array"),
                Arguments.of("an element not an object", filters(GOOD, "a.b = 1"), "argument 'filters[1]' must be an object"),
                Arguments.of("a null element", filters(GOOD, null), "argument 'filters[1]' must be an object"),
                Arguments.of("op not in the enum", filters(GOOD, filter("column", "a.b", "op", "between")),
                        "argument 'filters[1].op' must be one of the enum values: eq, in, is_null"),
                Arguments.of("op of the wrong case", filters(filter("column", "a.b", "op", "EQ")),
                        "argument 'filters[0].op' must be one of the enum values: eq, in, is_null"),
                Arguments.of("a missing field", filters(filter("op", "eq", "value", 1)), "missing required argument 'filters[0].column'"),
                Arguments.of("a null required field", filters(filter("column", null, "op", "eq")),
                        "missing required argument 'filters[0].column'"),
                Arguments.of("a field of the wrong type", filters(filter("column", 7, "op", "eq")),
                        "argument 'filters[0].column' must be a string"),
                Arguments.of("a field out of bounds", filters(filter("column", "", "op", "eq")),
                        "argument 'filters[0].column' string length must be >= 1"),
                Arguments.of("an extra field", filters(GOOD, GOOD, filter("column", "a.b", "op", "eq", "colour", "red")),
                        "unknown argument 'filters[2].colour'"),
                Arguments.of("control characters in a field name", filters(controlName), "unknown argument 'filters[0].bad?name?'"),
                Arguments.of("a huge field name", filters(hugeName), "unknown argument 'filters[0]." + "n".repeat(64) + "…'"),
                Arguments.of("value an object", filters(filter("column", "a.b", "op", "eq", "value", Map.of("$gt", 1))),
                        "argument 'filters[0].value' " + scalars),
                Arguments.of("value a list holding an object", filters(filter("column", "a.b", "op", "in", "value", List.of(1, Map.of()))),
                        "argument 'filters[0].value' " + scalars),
                Arguments.of("value a list holding null", filters(filter("column", "a.b", "op", "in", "value", Arrays.asList("x", null))),
                        "argument 'filters[0].value' " + scalars),
                Arguments.of("value nested 100,000 deep", filters(filter("column", "a.b", "op", "in", "value", deep)),
                        "argument 'filters[0].value' " + scalars),
                Arguments.of("a list longer than maxItems", Map.of("filters", Collections.nCopies(1_000_000, GOOD)),
                        "argument 'filters' array length must be <= 3"),
                Arguments.of("a nested enum", Map.of("sort", filter("direction", "up")),
                        "argument 'sort.direction' must be one of the enum values: asc, desc"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCalls")
    void aBadFieldIsNamedByItsPathWithTheSeedsMessage(String what, Map<String, Object> call, String message) {
        Validation v = SCHEMA.validate(call);
        assertFalse(v.isValid(), what);
        assertEquals(List.of(message), v.violations());
        assertFalse(v.accepted().containsKey("filters"), "a bad filter list is not kept for the retry");
    }

    static Stream<Map<String, Object>> goodCalls() {
        return Stream.of(filters(GOOD), filters(filter("column", "a.b", "op", "in", "value", List.of("x", 2, true, 2.5))),
                filters(filter("column", "a.b", "op", "is_null")),
                filters(filter("column", "a.b", "op", "in", "value", List.of())), filters(GOOD, GOOD, GOOD),
                Map.of("sort", Map.of()), Map.of("filters", List.of()));
    }

    @ParameterizedTest
    @MethodSource("goodCalls")
    void wellFormedFiltersPass(Map<String, Object> call) {
        Validation v = SCHEMA.validate(call);
        assertTrue(v.isValid(), () -> v.violations().toString());
    }

    /** As at the top level, and unlike JSON Schema: a client that sends null for an optional field means "none". */
    @Test
    void nullOnAnOptionalFieldMeansAbsent() {
        Validation v = SCHEMA.validate(filters(filter("column", "a.b", "op", "is_null", "value", null)));
        assertTrue(v.isValid(), () -> v.violations().toString());
        assertEquals(List.of(Map.of("column", "a.b", "op", "is_null")), v.arguments().objectList("filters"));
    }

    /*
     * The published inputSchema and the validator are one declaration, so a client that checks calls
     * against the schema (the SDK's own validator) and the server agree on every call here.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theSdksValidatorAgreesWithOursOnEveryCase() throws Exception {
        JsonSchemaValidator sdk = new DefaultJsonSchemaValidator();
        Map<String, Object> schema = SCHEMA.toStrictSchema();
        List<Map<String, Object>> calls = new ArrayList<>(goodCalls().toList());
        // Not the million-element list (the SDK's run would be slow), nor the 100,000-deep value and the million-character
        // name, beyond what Jackson reads (nesting 1000, names 50,000): through MCP those never reach the validator.
        badCalls().filter(a -> !List.of("a list longer than maxItems", "value nested 100,000 deep", "a huge field name")
                        .contains(a.get()[0]))
                .map(a -> (Map<String, Object>) a.get()[1]).forEach(calls::add);
        for (Map<String, Object> call : calls) {
            Object asJson = JSON.readValue(JSON.writeValueAsString(call), new TypeReference<Map<String, Object>>() { });
            assertEquals(sdk.validate(schema, asJson).valid(), SCHEMA.validate(call).isValid(), () -> "disagree on " + call);
        }
    }

    @Test
    void objectListNormalizesFieldsAndAppliesTheirDefaults() {
        ArgSchema schema = ArgSchema.parse("""
                {"order": {"type": "array", "items": {"type": "object", "properties": {
                   "column": {"type": "string", "required": true},
                   "direction": {"type": "enum", "enum": ["asc", "desc"], "default": "asc"},
                   "weight": {"type": "integer"}}}}}""");
        Map<String, Object> mutable = new HashMap<>(Map.of("column", "a", "direction", "desc", "weight", 2.0));
        List<Object> list = new ArrayList<>(List.of(Map.of("column", "b"), mutable));
        dev.schemabrain.mcp.args.Arguments read = schema.validate(Map.of("order", list)).arguments();
        mutable.put("column", 7);   // after validation: must change nothing read from it
        list.add("junk");
        assertEquals(List.of(Map.of("column", "b", "direction", "asc"), Map.of("column", "a", "direction", "desc", "weight", 2L)),
                read.objectList("order"));
        assertThrows(UnsupportedOperationException.class, () -> read.objectList("order").get(0).put("x", 1));
    }

    static Stream<Arguments> badDeclarations() {
        return Stream.of(
                Arguments.of("{\"f\": {\"type\": \"object\"}}", "argument 'f': type object needs properties declaring its fields"),
                Arguments.of("{\"f\": {\"type\": \"string\", \"properties\": {\"a\": {\"type\": \"string\"}}}}",
                        "argument 'f': only type object has properties"),
                Arguments.of("{\"f\": {\"type\": \"array\", \"properties\": {\"a\": {\"type\": \"string\"}}, "
                        + "\"items\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}}}",
                        "argument 'f': properties is given both on the field and in items"),
                Arguments.of("{\"f\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}, \"required\": [\"b\"]}}",
                        "required lists 'b', which is not a declared property"),
                Arguments.of("{\"f\": {\"type\": \"string\", \"required\": [\"a\"]}}",
                        "argument 'f': a required list names fields of properties, and there are none"),
                Arguments.of("{\"f\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"text\"}}}}",
                        "argument 'f': in properties, argument 'a': unknown type 'text'"),
                Arguments.of("{\"f\": {\"type\": \"object\", \"properties\": {}}}", "argument 'f': type object needs properties"),
                Arguments.of("{\"f\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}, \"default\": {}}}",
                        "argument 'f': a default applies to strings, numbers, booleans and enums only"),
                Arguments.of("{\"v\": {\"type\": \"scalars\", \"isArray\": true}}", "argument 'v': type scalars already takes an array"),
                Arguments.of("{\"v\": {\"type\": \"scalars\", \"enum\": [1]}}", "argument 'v': enum does not apply to type scalars"),
                Arguments.of("{\"v\": {\"type\": \"string\", \"maxItems\": 2}}", "argument 'v': maxItems applies to arrays only"),
                Arguments.of("{\"v\": {\"type\": \"string\", \"isArray\": true, \"maxItems\": -1}}",
                        "argument 'v': maxItems must be a non-negative integer"),
                Arguments.of("{\"schemaVersion\": \"2025-10-09\", \"v\": {\"type\": \"scalars\"}}",
                        "argument 'v': type object, type scalars and maxItems need schemaVersion 2026-11-23"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badDeclarations")
    void aBadDeclarationFailsNamingTheFieldAndTheProblem(String json, String messageStart) {
        ArgSchemaParseTest.rejects(json, messageStart);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-23", ""})
    void theNewVersionOrNoneDeclaresObjects(String version) {
        String declaration = version.isEmpty() ? FILTERS : FILTERS.replaceFirst("\\{", "{\"schemaVersion\": \"" + version + "\",");
        assertEquals(SCHEMA, ArgSchema.parse(declaration));
    }
}
