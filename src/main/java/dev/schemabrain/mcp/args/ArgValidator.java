package dev.schemabrain.mcp.args;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks call arguments against an {@link ArgSchema} with seed 001's messages. Messages name the
 * argument (cut to 64 characters) and the declared bound, never the value: a value may be megabytes
 * of caller text and the message goes back to the caller and into logs.
 */
final class ArgValidator {

    /** The allowed values in "must be one of the enum values: ..." stop after this many characters. */
    private static final int MAX_ENUM_LIST = 160;

    private ArgValidator() {
    }

    static Validation validate(ArgSchema schema, Map<String, ?> args) {
        Map<String, ?> given = args == null ? Map.of() : args;
        List<String> violations = new ArrayList<>();
        Map<String, Object> accepted = new LinkedHashMap<>();
        for (ArgSpec spec : schema.args().values()) {
            Object value = given.get(spec.name());
            if (value == null) {   // JSON null on an optional argument means "not given"
                if (spec.required()) {
                    violations.add("missing required argument '" + Values.displayName(spec.name()) + "'");
                }
            } else {
                String problem = violation(spec, value);
                if (problem != null) {
                    violations.add(problem);
                } else {
                    accepted.put(spec.name(), value);
                }
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String name : given.keySet()) {
            if (!schema.args().containsKey(name)) {
                unknown.add(name);
                violations.add("unknown argument '" + Values.displayName(String.valueOf(name)) + "'");
            }
        }
        return violations.isEmpty()
                ? Validation.valid(new Arguments(schema, given))
                : Validation.invalid(violations, unknown, accepted);
    }

    /** The first problem with a non-null value of {@code spec}, or null when it is acceptable. */
    static String violation(ArgSpec spec, Object value) {
        return violation(spec, value, Values.displayName(spec.name()));
    }

    /** Type, then bounds, then enum membership of one value (or one array element). */
    static String elementViolation(ArgSpec spec, Object v) {
        return elementViolation(spec, v, Values.displayName(spec.name()));
    }

    /**
     * As {@link #violation(ArgSpec, Object)}, naming the value by {@code path} ({@code filters[1].op}),
     * which is already fit for a message.
     */
    private static String violation(ArgSpec spec, Object value, String path) {
        if (!spec.array()) {
            return elementViolation(spec, value, path);
        }
        if (!(value instanceof List<?> list)) {
            return prefix(path) + "must be an array";
        }
        if (spec.maxItems() != null && list.size() > spec.maxItems()) {
            return prefix(path) + "array length must be <= " + spec.maxItems();
        }
        boolean objects = spec.type() == ArgType.OBJECT;   // only an object's fields need the index to be found
        for (int i = 0; i < list.size(); i++) {   // the first bad element speaks for the argument
            String problem = elementViolation(spec, list.get(i), objects ? path + "[" + i + "]" : path);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String elementViolation(ArgSpec spec, Object v, String path) {
        String typeProblem = typeViolation(spec.type(), v);
        if (typeProblem != null) {
            return prefix(path) + typeProblem;
        }
        if (spec.type() == ArgType.OBJECT) {
            return fieldViolation(spec.fields(), (Map<?, ?>) v, path);
        }
        String boundsProblem = boundsViolation(spec, v);
        if (boundsProblem != null) {
            return prefix(path) + boundsProblem;
        }
        if (!spec.enumValues().isEmpty()) {
            String form = Values.stringForm(v);
            if (form == null || !spec.enumValues().contains(form)) {
                return prefix(path) + "must be one of the enum values: " + enumList(spec.enumValues());
            }
        }
        return null;
    }

    /** An object's first problem: its declared fields in order (null is absent), then a field it doesn't declare. */
    private static String fieldViolation(Map<String, ArgSpec> fields, Map<?, ?> object, String path) {
        for (ArgSpec field : fields.values()) {
            Object value = object.get(field.name());
            String at = path + "." + Values.displayName(field.name());
            if (value == null) {
                if (field.required()) {
                    return "missing required argument '" + at + "'";
                }
                continue;
            }
            String problem = violation(field, value, at);
            if (problem != null) {
                return problem;
            }
        }
        for (Object key : object.keySet()) {
            if (!(key instanceof String name) || !fields.containsKey(name)) {
                return "unknown argument '" + path + "." + Values.displayName(String.valueOf(key)) + "'";
            }
        }
        return null;
    }

    /** "must be a string" etc., or null. ENUM takes any scalar here; membership is checked after. */
    static String typeViolation(ArgType type, Object v) {
        boolean ok = switch (type) {
            case STRING -> v instanceof String;
            case INTEGER -> Values.isIntegral(v);
            case NUMBER -> Values.decimal(v) != null;
            case BOOLEAN -> v instanceof Boolean;
            case ENUM -> true;
            case OBJECT -> v instanceof Map<?, ?>;
            // A flat list: a nested list or an object is refused at its first element, however deep it goes.
            case SCALARS -> Values.isScalar(v) || v instanceof List<?> list && list.stream().allMatch(Values::isScalar);
        };
        return ok ? null : "must be " + type.article();
    }

    private static String boundsViolation(ArgSpec spec, Object v) {
        if (v instanceof String s && (spec.minLength() != null || spec.maxLength() != null)) {
            int length = s.codePointCount(0, s.length());
            if (spec.minLength() != null && length < spec.minLength()) {
                return "string length must be >= " + spec.minLength();
            }
            if (spec.maxLength() != null && length > spec.maxLength()) {
                return "string length must be <= " + spec.maxLength();
            }
        }
        if (spec.type().isNumeric() && (spec.minimum() != null || spec.maximum() != null)) {
            BigDecimal d = Values.decimal(v);
            if (spec.minimum() != null && d.compareTo(spec.minimum()) < 0) {
                return "value must be >= " + Values.plain(spec.minimum());
            }
            if (spec.maximum() != null && d.compareTo(spec.maximum()) > 0) {
                return "value must be <= " + Values.plain(spec.maximum());
            }
        }
        return null;
    }

    private static String prefix(String path) {
        return "argument '" + path + "' ";
    }

    private static String enumList(List<String> values) {
        String joined = String.join(", ", values);
        if (joined.length() <= MAX_ENUM_LIST) {
            return joined;
        }
        int cut = Character.isHighSurrogate(joined.charAt(MAX_ENUM_LIST - 1)) ? MAX_ENUM_LIST - 1 : MAX_ENUM_LIST;
        return joined.substring(0, cut) + "…";
    }
}
