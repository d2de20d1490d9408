package dev.schemabrain.mcp.args;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an {@link ArgSchema} as a compact JSON Schema 2020-12 object (no titles, no $schema), in two forms from the
 * one declaration. The strict form says everything the validator checks. The published form (the MCP inputSchema)
 * leaves out lengths, item counts and {@code additionalProperties: false}: every client pays for tools/list on every
 * session, no model writes a 512-character name, and the validator refuses such a call with the limit or the allowed
 * names in one sentence. The published form accepts every call the strict one does.
 */
final class InputSchemas {

    private final boolean strict;

    private InputSchemas(boolean strict) {
        this.strict = strict;
    }

    static Map<String, Object> published(ArgSchema schema) {
        return new InputSchemas(false).object(schema.args(), null);
    }

    static Map<String, Object> strict(ArgSchema schema) {
        return new InputSchemas(true).object(schema.args(), null);
    }

    /** The tool's arguments, or a declared object's fields: the same shape at every level. */
    private Map<String, Object> object(Map<String, ArgSpec> fields, String description) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (ArgSpec spec : fields.values()) {
            properties.put(spec.name(), property(spec));
            if (spec.required()) {
                required.add(spec.name());
            }
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("type", "object");
        putIfSet(root, "description", description);
        root.put("properties", properties);
        if (!required.isEmpty()) {
            root.put("required", required);
        }
        if (strict) {
            root.put("additionalProperties", false);
        }
        return root;
    }

    private Map<String, Object> property(ArgSpec spec) {
        Map<String, Object> out;
        if (spec.array()) {
            out = new LinkedHashMap<>();
            out.put("type", "array");
            putIfSet(out, "description", spec.description());
            if (strict) {
                putIfSet(out, "maxItems", spec.maxItems());
            }
            out.put("items", element(spec, null));
        } else {
            out = element(spec, spec.description());
        }
        if (spec.defaultValue() != null) {
            out.put("default", defaultJson(spec));
        }
        return out;
    }

    /** Type and constraints of the value, or of each element of an array. */
    private Map<String, Object> element(ArgSpec spec, String description) {
        if (spec.type() == ArgType.OBJECT) {
            return object(spec.fields(), description);
        }
        if (spec.type() == ArgType.SCALARS) {
            return scalars(description);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", spec.jsonType().name().toLowerCase(Locale.ROOT));
        putIfSet(out, "description", description);
        if (strict) {
            putIfSet(out, "minLength", spec.minLength());
            putIfSet(out, "maxLength", spec.maxLength());
        }
        putIfSet(out, "minimum", spec.minimum() == null ? null : Values.jsonNumber(spec.minimum()));
        putIfSet(out, "maximum", spec.maximum() == null ? null : Values.jsonNumber(spec.maximum()));
        if (!spec.enumValues().isEmpty()) {
            out.put("enum", spec.jsonEnumValues());
        }
        return out;
    }

    /**
     * A string, number or boolean, or a flat array of them. anyOf rather than a list of types, which
     * some clients' schema subsets (Gemini's) refuse.
     */
    private static Map<String, Object> scalars(String description) {
        Map<String, Object> array = new LinkedHashMap<>();
        array.put("type", "array");
        array.put("items", new LinkedHashMap<>(Map.of("anyOf", scalarTypes())));
        List<Object> either = scalarTypes();
        either.add(array);
        Map<String, Object> out = new LinkedHashMap<>();
        putIfSet(out, "description", description);
        out.put("anyOf", either);
        return out;
    }

    private static List<Object> scalarTypes() {
        List<Object> out = new ArrayList<>();
        for (String type : List.of("string", "number", "boolean")) {
            out.add(new LinkedHashMap<>(Map.of("type", type)));
        }
        return out;
    }

    private static Object defaultJson(ArgSpec spec) {
        ArgType as = spec.jsonType();
        if (!spec.array()) {
            return ArgSpec.jsonValue(as, spec.defaultValue());
        }
        List<Object> out = new ArrayList<>();
        for (Object element : (List<?>) spec.defaultValue()) {
            out.add(ArgSpec.jsonValue(as, element));
        }
        return out;
    }

    private static void putIfSet(Map<String, Object> out, String key, Object value) {
        if (value != null) {
            out.put(key, value);
        }
    }
}
