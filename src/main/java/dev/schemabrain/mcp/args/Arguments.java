package dev.schemabrain.mcp.args;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Arguments that passed {@link ArgSchema#validate}, read by declared name with declared defaults
 * applied. Only validation creates them, so every accessor can trust the value's type. Reading a name
 * the schema doesn't declare, or reading it as the wrong type, is a programming error
 * (IllegalArgumentException), not a caller error.
 */
public final class Arguments {

    private final ArgSchema schema;
    private final Map<String, Object> supplied;

    /** {@code args} must already be valid for {@code schema}; null values (absent) are dropped. */
    Arguments(ArgSchema schema, Map<String, ?> args) {
        this.schema = schema;
        Map<String, Object> copy = new LinkedHashMap<>();
        args.forEach((name, value) -> {
            if (value != null) {   // validated lists hold no nulls, so List.copyOf is safe
                copy.put(name, copy(value));
            }
        });
        this.supplied = Collections.unmodifiableMap(copy);
    }

    /** A deep, unmodifiable copy, so a caller changing its objects after validation changes nothing here. */
    private static Object copy(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(Arguments::copy).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                if (v != null) {
                    out.put(k, copy(v));
                }
            });
            return Collections.unmodifiableMap(out);
        }
        return value;
    }

    public ArgSchema schema() {
        return schema;
    }

    /** Whether the caller gave the argument (a default doesn't count). */
    public boolean has(String name) {
        schema.spec(name);
        return supplied.containsKey(name);
    }

    /** A STRING argument, or an ENUM one in its string form; the default when absent; empty when neither. */
    public Optional<String> string(String name) {
        return Optional.ofNullable((String) read(name, ArgType.STRING, false));
    }

    /** An INTEGER argument or its default. */
    public int integer(String name) {
        long value = longInteger(name);
        if (value != (int) value) {
            throw new IllegalStateException("argument '" + Values.displayName(name)
                    + "' does not fit in an int; declare minimum/maximum or read it with longInteger");
        }
        return (int) value;
    }

    /** An INTEGER argument or its default, as a long. */
    public long longInteger(String name) {
        return (Long) required(name, read(name, ArgType.INTEGER, false));
    }

    /** A NUMBER (or INTEGER) argument or its default. */
    public double number(String name) {
        return ((Number) required(name, read(name, ArgType.NUMBER, false))).doubleValue();
    }

    /** A BOOLEAN argument or its default. */
    public boolean bool(String name) {
        return (Boolean) required(name, read(name, ArgType.BOOLEAN, false));
    }

    /** An array of STRING (or ENUM, in string form) elements, the default, or an empty list. */
    public List<String> stringList(String name) {
        return list(name, ArgType.STRING, String.class);
    }

    /** An array of INTEGER elements, the default, or an empty list. */
    public List<Long> integerList(String name) {
        return list(name, ArgType.INTEGER, Long.class);
    }

    /** An array of NUMBER (or INTEGER) elements, the default, or an empty list. */
    public List<Double> numberList(String name) {
        return list(name, ArgType.NUMBER, Double.class);
    }

    /**
     * An array of OBJECT elements, or an empty list. Each is its declared fields read like arguments:
     * normalized, defaults applied, absent ones left out; a SCALARS field keeps its values as given.
     */
    public List<Map<String, Object>> objectList(String name) {
        ArgSpec spec = schema.spec(name);
        List<?> values = (List<?>) read(name, ArgType.OBJECT, true);
        if (values == null) {
            return List.of();
        }
        return values.stream().map(v -> fieldsOf(spec, (Map<?, ?>) v)).toList();
    }

    private static Map<String, Object> fieldsOf(ArgSpec spec, Map<?, ?> object) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (ArgSpec field : spec.fields().values()) {
            Object value = object.get(field.name());
            if (value == null) {
                if (field.defaultValue() != null) {
                    out.put(field.name(), field.defaultValue());
                }
            } else if (field.type() == ArgType.OBJECT) {
                out.put(field.name(), field.array()
                        ? ((List<?>) value).stream().map(e -> fieldsOf(field, (Map<?, ?>) e)).toList() : fieldsOf(field, (Map<?, ?>) value));
            } else {
                out.put(field.name(), field.array()
                        ? ((List<?>) value).stream().map(e -> Values.normalize(field.type(), e)).toList()
                        : Values.normalize(field.type(), value));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** The arguments exactly as the caller gave them (without defaults, without null values). */
    public Map<String, Object> raw() {
        return supplied;
    }

    /** Names only: values may be huge or sensitive. */
    @Override
    public String toString() {
        return "Arguments" + supplied.keySet();
    }

    private <T> List<T> list(String name, ArgType as, Class<T> element) {
        List<?> values = (List<?>) read(name, as, true);
        if (values == null) {
            return List.of();
        }
        List<T> out = new ArrayList<>(values.size());
        for (Object v : values) {
            out.add(element.cast(as == ArgType.NUMBER ? Values.normalize(ArgType.NUMBER, v) : v));
        }
        return List.copyOf(out);
    }

    /** The normalized value (or default) of a declared argument read as {@code as}; null when neither. */
    private Object read(String name, ArgType as, boolean asArray) {
        ArgSpec spec = schema.spec(name);
        if (!spec.isReadableAs(as, asArray)) {
            throw new IllegalArgumentException("argument '" + Values.displayName(name) + "' is declared as "
                    + describe(spec) + ", not read as " + (asArray ? "an array of " : "") + as.name().toLowerCase(Locale.ROOT));
        }
        Object value = supplied.get(name);
        if (value == null) {
            return spec.defaultValue();
        }
        if (!asArray) {
            return Values.normalize(spec.type(), value);
        }
        if (spec.type() == ArgType.OBJECT) {
            return value;   // objectList reads the fields with their declarations
        }
        List<Object> out = new ArrayList<>();
        for (Object element : (List<?>) value) {
            out.add(Values.normalize(spec.type(), element));
        }
        return out;
    }

    private static Object required(String name, Object value) {
        if (value == null) {
            throw new IllegalStateException("argument '" + Values.displayName(name)
                    + "' was not given and has no default; check has() first or declare a default");
        }
        return value;
    }

    private static String describe(ArgSpec spec) {
        return (spec.array() ? "an array of " : "") + spec.type().name().toLowerCase(Locale.ROOT);
    }
}
