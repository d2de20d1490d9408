package dev.schemabrain.mcp.args;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One declared tool argument in the normalized in-memory form of seed 001 (its ArgSchemaProperty):
 * both schema shapes parse to this. Every constraint applies to the value, or to each element when
 * {@code array} is set. The constructor rejects declarations no value could satisfy, so a bad tool
 * declaration fails at startup rather than on a call.
 *
 * @param type         the value's type, or each element's type when {@code array}
 * @param description  informational, carried into the MCP inputSchema; may be null
 * @param minLength    strings only: minimum length in code points (as JSON Schema counts); may be null
 * @param minimum      numbers only: inclusive lower bound; may be null
 * @param enumValues   allowed values in string form (seed 001 compares by string form, so 1, 1.0
 *                     and "1" are the same value); empty when unconstrained, never empty for ENUM
 * @param defaultValue not part of seed 001: the documented default that {@link Arguments} applies
 *                     when the caller leaves the argument out. Normalized: String for STRING and ENUM,
 *                     Long for INTEGER, Double for NUMBER, Boolean for BOOLEAN, an unmodifiable List
 *                     of those for arrays. Null when none; never set together with {@code required}.
 * @param maxItems     arrays only: the most elements accepted; may be null
 * @param fields       OBJECT only, never empty there: the declared fields of the object (or of each
 *                     element), by name in declaration order; no other field is accepted
 */
public record ArgSpec(String name, ArgType type, boolean required, String description, boolean array,
                      Integer minLength, Integer maxLength, BigDecimal minimum, BigDecimal maximum,
                      List<String> enumValues, Object defaultValue, Integer maxItems, Map<String, ArgSpec> fields) {

    /*
     * A full canonical constructor rather than a compact one: the enum values and the default are
     * checked with the validator against this very spec, which needs the other fields assigned first.
     */
    public ArgSpec(String name, ArgType type, boolean required, String description, boolean array,
                   Integer minLength, Integer maxLength, BigDecimal minimum, BigDecimal maximum,
                   List<String> enumValues, Object defaultValue, Integer maxItems, Map<String, ArgSpec> fields) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("an argument needs a non-empty name");
        }
        this.name = name;
        this.type = Objects.requireNonNull(type, () -> where(name) + "type is required");
        this.required = required;
        this.description = description;
        this.array = array;
        this.minLength = checkLength(name, "minLength", minLength);
        this.maxLength = checkLength(name, "maxLength", maxLength);
        this.minimum = minimum == null ? null : canonical(minimum);
        this.maximum = maximum == null ? null : canonical(maximum);
        this.enumValues = enumValues == null ? List.of() : List.copyOf(enumValues);
        this.maxItems = checkLength(name, "maxItems", maxItems);
        this.fields = checkFields(name, type, fields);
        checkBounds();
        checkEnum();
        this.defaultValue = checkDefault(defaultValue);
    }

    /** Prefix for declaration errors. */
    static String where(String name) {
        return "argument '" + Values.displayName(name) + "': ";
    }

    /** Whether reading this argument as {@code wanted} makes sense; STRING reads also serve ENUM. */
    boolean isReadableAs(ArgType wanted, boolean asArray) {
        if (array != asArray) {
            return false;
        }
        return type == wanted || (wanted == ArgType.STRING && type == ArgType.ENUM)
                || (wanted == ArgType.NUMBER && type == ArgType.INTEGER);
    }

    /**
     * The enum values as JSON values for the inputSchema: typed like the element, and for ENUM typed
     * after what they look like (all integers, all numbers, else strings). Any of these is accepted
     * by the validator because it compares string forms.
     */
    List<Object> jsonEnumValues() {
        ArgType as = jsonType();
        List<Object> out = new ArrayList<>(enumValues.size());
        for (String v : enumValues) {
            out.add(jsonValue(as, v));
        }
        return out;
    }

    /** The JSON type an element is advertised as; ENUM becomes STRING, INTEGER or NUMBER. */
    ArgType jsonType() {
        if (type != ArgType.ENUM) {
            return type;
        }
        if (enumValues.stream().allMatch(ArgSpec::looksIntegral)) {
            return ArgType.INTEGER;
        }
        return enumValues.stream().allMatch(ArgSpec::looksNumeric) ? ArgType.NUMBER : ArgType.STRING;
    }

    /** A normalized scalar (enum string form, default element) as the JSON value of type {@code as}. */
    static Object jsonValue(ArgType as, Object v) {
        return switch (as) {
            case INTEGER, NUMBER -> Values.jsonNumber(v instanceof String s ? new BigDecimal(s) : Values.decimal(v));
            case BOOLEAN -> v instanceof String s ? Boolean.valueOf(s) : v;
            case STRING, ENUM -> v instanceof String s ? s : Values.stringForm(v);
            case OBJECT, SCALARS -> v;
        };
    }

    private static boolean looksNumeric(String s) {
        try {
            return Values.plain(new BigDecimal(s)).equals(s);   // only canonical forms: not "1e3", "01"
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }

    private static boolean looksIntegral(String s) {
        return looksNumeric(s) && Values.isIntegral(new BigDecimal(s));
    }

    private static Integer checkLength(String name, String field, Integer length) {
        if (length != null && length < 0) {
            throw new IllegalArgumentException(where(name) + field + " must be >= 0, got " + length);
        }
        return length;
    }

    /** An object's fields in declaration order; only objects have them, and an object with none would accept nothing useful. */
    private static Map<String, ArgSpec> checkFields(String name, ArgType type, Map<String, ArgSpec> fields) {
        Map<String, ArgSpec> copy = new LinkedHashMap<>();
        if (fields != null) {
            fields.forEach((key, spec) -> {
                if (spec == null || !spec.name().equals(key)) {
                    throw new IllegalArgumentException(where(name) + "field '" + Values.displayName(String.valueOf(key))
                            + "' is keyed under a different name than its spec");
                }
                copy.put(key, spec);
            });
        }
        if ((type == ArgType.OBJECT) == copy.isEmpty()) {
            throw new IllegalArgumentException(where(name) + (copy.isEmpty()
                    ? "type object needs properties declaring its fields" : "only type object has properties"));
        }
        // Not Map.copyOf: the order is the order of the inputSchema and of the messages.
        return Collections.unmodifiableMap(copy);
    }

    private static BigDecimal canonical(BigDecimal d) {
        return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }

    private void checkBounds() {
        if (maxItems != null && !array) {
            throw new IllegalArgumentException(where(name) + "maxItems applies to arrays only");
        }
        if (type == ArgType.SCALARS && array) {
            throw new IllegalArgumentException(where(name) + "type scalars already takes an array of scalars; arrays of it are not supported");
        }
        if ((minLength != null || maxLength != null) && type != ArgType.STRING) {
            throw new IllegalArgumentException(where(name) + "minLength/maxLength apply to strings only, not to "
                    + type.name().toLowerCase(Locale.ROOT));
        }
        if (minLength != null && maxLength != null && minLength > maxLength) {
            throw new IllegalArgumentException(where(name) + "minLength " + minLength + " is greater than maxLength " + maxLength);
        }
        if ((minimum != null || maximum != null) && !type.isNumeric()) {
            throw new IllegalArgumentException(where(name) + "minimum/maximum apply to integer and number only, not to "
                    + type.name().toLowerCase(Locale.ROOT));
        }
        if (minimum != null && maximum != null && minimum.compareTo(maximum) > 0) {
            throw new IllegalArgumentException(where(name) + "minimum " + Values.plain(minimum)
                    + " is greater than maximum " + Values.plain(maximum));
        }
    }

    private void checkEnum() {
        if ((type == ArgType.OBJECT || type == ArgType.SCALARS) && !enumValues.isEmpty()) {
            throw new IllegalArgumentException(where(name) + "enum does not apply to type " + type.name().toLowerCase(Locale.ROOT));
        }
        if (type == ArgType.ENUM && enumValues.isEmpty()) {
            throw new IllegalArgumentException(where(name) + "type enum needs a non-empty enum list");
        }
        if (new HashSet<>(enumValues).size() != enumValues.size()) {
            throw new IllegalArgumentException(where(name) + "enum values must be distinct (compared by string form)");
        }
        for (String value : enumValues) {
            Object typed = typedEnumValue(value);
            String problem = ArgValidator.elementViolation(this, typed);
            if (problem != null) {
                throw new IllegalArgumentException(where(name) + "enum value '" + value + "' can never be accepted: " + problem);
            }
        }
    }

    /** An enum value back as the element type, so it can be checked against the type and bounds. */
    private Object typedEnumValue(String value) {
        if (value == null) {
            throw new IllegalArgumentException(where(name) + "enum values can't be null");
        }
        return switch (type) {
            case STRING, ENUM, OBJECT, SCALARS -> value;
            case BOOLEAN -> "true".equals(value) || "false".equals(value) ? Boolean.valueOf(value) : value;
            case INTEGER, NUMBER -> {
                try {
                    yield new BigDecimal(value);
                } catch (NumberFormatException notANumber) {
                    yield value;   // reported by the type check as "must be a number"
                }
            }
        };
    }

    private Object checkDefault(Object value) {
        if (value == null) {
            return null;
        }
        if (required) {
            throw new IllegalArgumentException(where(name) + "a required argument can't have a default");
        }
        if (type == ArgType.OBJECT || type == ArgType.SCALARS) {
            throw new IllegalArgumentException(where(name) + "a default applies to strings, numbers, booleans and enums only");
        }
        String problem = ArgValidator.violation(this, value);
        if (problem != null) {
            throw new IllegalArgumentException(where(name) + "the default is invalid: " + problem);
        }
        if (array) {
            List<Object> out = new ArrayList<>();
            for (Object element : (List<?>) value) {
                out.add(Values.normalize(type, element));
            }
            return List.copyOf(out);
        }
        return Values.normalize(type, value);
    }
}
