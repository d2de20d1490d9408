package dev.schemabrain.mcp.args;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads both shapes of seed 001 into {@link ArgSchema}:
 * <ul>
 *   <li>direct map: {@code {"q": {"type": "string", "required": true}, "tags": {"type": "string", "isArray": true}}}</li>
 *   <li>JSON-Schema-like: {@code {"properties": {...}, "required": ["q"]}}, arrays as {@code "type": "array"} + {@code items}</li>
 * </ul>
 * The shape is JSON-Schema-like when the top level has a {@code properties} object that is not itself
 * a field declaration (it has no string {@code type}); so a direct-map argument named "properties"
 * needs a type. A top-level string {@code schemaVersion} is the seed's version marker in both shapes.
 * Field values of JSON null count as absent.
 * <p>
 * Version 2026-11-23 adds, in both shapes: {@code "type": "object"} with {@code properties} (field
 * declarations, parsed like arguments) and a {@code required} list, on the field or in {@code items};
 * {@code "type": "scalars"} (a string, number, boolean or flat array of them); {@code maxItems}.
 */
final class ArgSchemaParser {

    // Duplicate keys in a declaration are almost certainly a copy-paste mistake: refuse them.
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private static final List<String> FIELDS = List.of("type", "required", "description", "isArray", "items",
            "minLength", "maxLength", "minimum", "maximum", "enum", "default", "maxItems", "properties");
    private static final List<String> ITEM_FIELDS = List.of("type", "minLength", "maxLength", "minimum", "maximum", "enum",
            "properties", "required");
    private static final List<String> TOP_FIELDS = List.of("properties", "required", "schemaVersion", "type", "additionalProperties");

    private ArgSchemaParser() {
    }

    static ArgSchema parse(String json) {
        Objects.requireNonNull(json, "json");
        Object tree;
        try {
            tree = JSON.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("argument schema is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (!(tree instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("an argument schema must be a JSON object");
        }
        return parse(stringKeys(map, "the argument schema"));
    }

    static ArgSchema parse(Map<String, ?> top) {
        Objects.requireNonNull(top, "schema");
        String version = checkVersion(top.get("schemaVersion"));
        Map<String, ArgSpec> specs = new LinkedHashMap<>();
        if (top.get("properties") instanceof Map<?, ?> properties && !(properties.get("type") instanceof String)) {
            checkTopLevel(top);
            Map<String, ?> declared = stringKeys(properties, "properties");
            Set<String> required = requiredList(top.get("required"), declared, "top-level required");
            declared.forEach((name, field) -> specs.put(name, property(name, field, required.contains(name))));
        } else {
            top.forEach((name, field) -> {
                if (!"schemaVersion".equals(name)) {
                    specs.put(name, property(name, field, false));
                }
            });
        }
        if (ArgSchema.FIRST_VERSION.equals(version)) {
            specs.values().forEach(ArgSchemaParser::checkFirstVersion);
        }
        return new ArgSchema(specs);
    }

    /** The declared version; absent means the latest. */
    private static String checkVersion(Object version) {
        if (version == null) {
            return ArgSchema.VERSION;
        }
        if (!(version instanceof String v)) {
            throw new IllegalArgumentException("schemaVersion must be a string");
        }
        if (!v.equals(ArgSchema.VERSION) && !v.equals(ArgSchema.FIRST_VERSION)) {
            throw new IllegalArgumentException("unsupported schemaVersion '" + Values.displayName(v)
                    + "' (supported: " + ArgSchema.FIRST_VERSION + ", " + ArgSchema.VERSION + ")");
        }
        return v;
    }

    /** A declaration that says it is 2025-10-09 keeps that version's meaning: no objects, scalars or maxItems. */
    private static void checkFirstVersion(ArgSpec spec) {
        if (spec.type() == ArgType.OBJECT || spec.type() == ArgType.SCALARS || spec.maxItems() != null) {
            throw new IllegalArgumentException(ArgSpec.where(spec.name()) + "type object, type scalars and maxItems need schemaVersion "
                    + ArgSchema.VERSION + " (the declaration says " + ArgSchema.FIRST_VERSION + ")");
        }
    }

    private static void checkTopLevel(Map<String, ?> top) {
        top.forEach((key, value) -> {
            if (!TOP_FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown top-level field '" + Values.displayName(key)
                        + "' beside properties (expected one of " + String.join(", ", TOP_FIELDS) + ")");
            }
            // Tolerated so that generated JSON Schema parses, but only with the meaning we implement.
            if ("type".equals(key) && !"object".equals(value)) {
                throw new IllegalArgumentException("top-level type must be \"object\"");
            }
            if ("additionalProperties".equals(key) && !Boolean.FALSE.equals(value)) {
                throw new IllegalArgumentException("top-level additionalProperties can only be false: unknown arguments are always rejected");
            }
        });
    }

    private static Set<String> requiredList(Object raw, Map<String, ?> declared, String what) {
        Set<String> names = new HashSet<>();
        if (raw == null) {
            return names;
        }
        if (!(raw instanceof List<?> list)) {
            throw new IllegalArgumentException(what + " must be an array of argument names");
        }
        for (Object name : list) {
            if (!(name instanceof String s) || !declared.containsKey(s)) {
                throw new IllegalArgumentException("required lists '" + Values.displayName(String.valueOf(name))
                        + "', which is not a declared property");
            }
            names.add(s);
        }
        return names;
    }

    private static ArgSpec property(String name, Object raw, boolean requiredByList) {
        if (!(raw instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + "must be an object of fields ("
                    + String.join(", ", FIELDS) + ")");
        }
        Map<String, ?> field = stringKeys(map, "argument '" + name + "'");
        checkKeys(name, field, FIELDS, "");
        String typeName = string(name, field, "type");
        boolean array = bool(name, field, "isArray") || "array".equals(typeName);
        Map<String, ?> items = null;
        if (field.get("items") != null) {
            if (!(field.get("items") instanceof Map<?, ?> itemMap)) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "items must be an object");
            }
            if (!array) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "items is only for arrays (type array, or isArray true)");
            }
            items = stringKeys(itemMap, "argument '" + name + "' items");
            checkKeys(name, items, ITEM_FIELDS, "items.");
        }
        Constraints c = Constraints.merge(name, field, items);
        ArgType type = elementType(name, typeName, items == null ? null : string(name, items, "type"), array, c.enumRaw() != null);
        // A list is JSON Schema's required (the object's required fields); true/false is seed 001's (this field's).
        boolean listsFields = field.get("required") instanceof List<?>;
        boolean required = (!listsFields && bool(name, field, "required")) || requiredByList;
        return new ArgSpec(name, type, required, string(name, field, "description"),
                array, c.minLength(), c.maxLength(), c.minimum(), c.maximum(), enumValues(name, type, c.enumRaw()),
                field.get("default"), length(name, field, "maxItems"),
                fields(name, field, items, listsFields ? field.get("required") : null));
    }

    /**
     * An object's fields, from the field's own {@code properties} or from its {@code items} (each
     * element's), with the names they require; parsed like top-level arguments, so they nest.
     */
    private static Map<String, ArgSpec> fields(String name, Map<String, ?> field, Map<String, ?> items, Object fieldRequired) {
        Object properties = once(name, "properties", field.get("properties"), items == null ? null : items.get("properties"));
        Object required = once(name, "required", fieldRequired, items == null ? null : items.get("required"));
        if (properties == null) {
            if (required != null) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "a required list names fields of properties, and there are none");
            }
            return Map.of();
        }
        if (!(properties instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + "properties must be an object of field declarations");
        }
        Map<String, ?> declared = stringKeys(map, "argument '" + name + "' properties");
        Set<String> requiredNames = requiredList(required, declared, ArgSpec.where(name) + "required");
        Map<String, ArgSpec> out = new LinkedHashMap<>();
        declared.forEach((sub, raw) -> {
            try {
                out.put(sub, property(sub, raw, requiredNames.contains(sub)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "in properties, " + e.getMessage(), e);
            }
        });
        return out;
    }

    /** A key said on the field or on its items, not both: two places would invite them to disagree. */
    private static Object once(String name, String key, Object own, Object fromItems) {
        if (own != null && fromItems != null) {
            throw new IllegalArgumentException(ArgSpec.where(name) + key + " is given both on the field and in items; give it once");
        }
        return own != null ? own : fromItems;
    }

    /**
     * The type of the value, or of each element: items.type for {@code "type": "array"}; with
     * isArray, the type itself (seed 001). Without any type, an enum list makes it ENUM.
     */
    private static ArgType elementType(String name, String typeName, String itemType, boolean array, boolean hasEnum) {
        String element;
        if ("array".equals(typeName)) {
            element = itemType;
        } else if (typeName != null && itemType != null && !typeName.equals(itemType)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + "type '" + typeName + "' and items.type '" + itemType + "' disagree");
        } else {
            element = typeName != null ? typeName : itemType;
        }
        if ("array".equals(element)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + "arrays of arrays are not supported");
        }
        if (element == null) {
            if (hasEnum) {
                return ArgType.ENUM;
            }
            throw new IllegalArgumentException(ArgSpec.where(name) + (array
                    ? "an array needs an element type (items.type, or isArray with a type)" : "type is required"));
        }
        try {
            return ArgType.fromSeed(element);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ArgSpec.where(name) + e.getMessage(), e);
        }
    }

    /** The string forms of the enum list; for typed elements each value must have that type ([1] is no string enum). */
    private static List<String> enumValues(String name, ArgType type, Object raw) {
        if (raw == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object value : (List<?>) raw) {
            if (!Values.isScalar(value)) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "enum values must be strings, numbers or booleans");
            }
            String typeProblem = ArgValidator.typeViolation(type, value);
            if (typeProblem != null) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "enum value " + Values.stringForm(value) + " " + typeProblem);
            }
            out.add(Values.stringForm(value));
        }
        return out;
    }

    /** The element constraints, from the field itself or from items; both may say it only if they agree. */
    private record Constraints(Integer minLength, Integer maxLength, BigDecimal minimum, BigDecimal maximum, List<?> enumRaw) {

        static Constraints merge(String name, Map<String, ?> field, Map<String, ?> items) {
            return new Constraints(
                    pick(name, "minLength", length(name, field, "minLength"), items == null ? null : length(name, items, "minLength")),
                    pick(name, "maxLength", length(name, field, "maxLength"), items == null ? null : length(name, items, "maxLength")),
                    pick(name, "minimum", number(name, field, "minimum"), items == null ? null : number(name, items, "minimum")),
                    pick(name, "maximum", number(name, field, "maximum"), items == null ? null : number(name, items, "maximum")),
                    pick(name, "enum", enumList(name, field), items == null ? null : enumList(name, items)));
        }

        private static <T> T pick(String name, String key, T own, T fromItems) {
            if (own != null && fromItems != null && !comparable(own).equals(comparable(fromItems))) {
                throw new IllegalArgumentException(ArgSpec.where(name) + key + " and items." + key + " disagree");
            }
            return own != null ? own : fromItems;
        }

        /** Enum lists agree by string form, like the values they match ([1] and [1.0] are the same). */
        private static Object comparable(Object constraint) {
            return constraint instanceof List<?> list ? list.stream().map(Values::stringForm).toList() : constraint;
        }
    }

    private static void checkKeys(String name, Map<String, ?> field, List<String> allowed, String prefix) {
        for (String key : field.keySet()) {
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException(ArgSpec.where(name) + "unknown field '" + prefix + Values.displayName(key)
                        + "' (expected one of " + String.join(", ", allowed) + ")");
            }
        }
    }

    private static String string(String name, Map<String, ?> field, String key) {
        Object v = field.get(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + key + " must be a string");
        }
        return (String) v;
    }

    private static boolean bool(String name, Map<String, ?> field, String key) {
        Object v = field.get(key);
        if (v != null && !(v instanceof Boolean)) {
            throw new IllegalArgumentException(ArgSpec.where(name) + key + " must be true or false");
        }
        return Boolean.TRUE.equals(v);
    }

    private static Integer length(String name, Map<String, ?> field, String key) {
        Object v = field.get(key);
        if (v == null) {
            return null;
        }
        if (!Values.isIntegral(v) || Values.decimal(v).signum() < 0 || Values.decimal(v).compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException(ArgSpec.where(name) + key + " must be a non-negative integer");
        }
        return Values.decimal(v).intValueExact();
    }

    private static BigDecimal number(String name, Map<String, ?> field, String key) {
        Object v = field.get(key);
        if (v == null) {
            return null;
        }
        BigDecimal d = Values.decimal(v);
        if (d == null) {
            throw new IllegalArgumentException(ArgSpec.where(name) + key + " must be a number");
        }
        return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();   // so 1 and 1.0 agree
    }

    private static List<?> enumList(String name, Map<String, ?> field) {
        Object v = field.get("enum");
        if (v == null) {
            return null;
        }
        if (!(v instanceof List<?> list) || list.isEmpty()) {
            throw new IllegalArgumentException(ArgSpec.where(name) + "enum must be a non-empty array of values");
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> stringKeys(Map<?, ?> map, String what) {
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                throw new IllegalArgumentException(what + " has a non-string key");
            }
        }
        return (Map<String, ?>) map;
    }
}
