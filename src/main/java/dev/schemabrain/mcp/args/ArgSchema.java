package dev.schemabrain.mcp.args;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tool's declared arguments (seed 001): parsed from either seed shape, used to validate
 * calls strictly and to generate the MCP {@code inputSchema}, so the two can't drift apart.
 *
 * @param args the arguments by name, in declaration order
 */
public record ArgSchema(Map<String, ArgSpec> args) {

    /**
     * The schema version this code implements: seed 001's 2025-10-09 plus objects with declared
     * fields, type scalars and maxItems (the seed's "object / nested schema support" and maxItems).
     */
    public static final String VERSION = "2026-11-23";

    /** Seed 001's own version, still accepted, with its meaning: none of the additions above. */
    public static final String FIRST_VERSION = "2025-10-09";

    private static final ArgSchema EMPTY = new ArgSchema(Map.of());

    public ArgSchema {
        Map<String, ArgSpec> copy = new LinkedHashMap<>();
        if (args != null) {
            args.forEach((name, spec) -> {
                if (spec == null || !spec.name().equals(name)) {
                    throw new IllegalArgumentException("argument '" + Values.displayName(String.valueOf(name))
                            + "' is keyed under a different name than its spec");
                }
                copy.put(name, spec);
            });
        }
        // Not Map.copyOf: it loses the order, and its containsKey(null) throws on a caller's null key.
        args = Collections.unmodifiableMap(copy);
    }

    /** For tools without arguments. */
    public static ArgSchema empty() {
        return EMPTY;
    }

    /**
     * Parses a declaration in either shape of seed 001. Throws IllegalArgumentException, naming the
     * argument and field, for anything malformed: declarations are code, so this fails at startup.
     */
    public static ArgSchema parse(String json) {
        return ArgSchemaParser.parse(json);
    }

    /** As {@link #parse(String)}, for a declaration already decoded into maps and lists. */
    public static ArgSchema parse(Map<String, ?> schema) {
        return ArgSchemaParser.parse(schema);
    }

    /** The spec of a declared argument; an undeclared name is a programming error. */
    public ArgSpec spec(String name) {
        ArgSpec spec = args.get(name);
        if (spec == null) {
            throw new IllegalArgumentException("no argument '" + Values.displayName(String.valueOf(name)) + "' is declared");
        }
        return spec;
    }

    /** Checks call arguments strictly (unknown names rejected); null means no arguments. */
    public Validation validate(Map<String, ?> callArguments) {
        return ArgValidator.validate(this, callArguments);
    }

    /**
     * The JSON Schema 2020-12 object for the tool's MCP {@code inputSchema}, without the lengths, item counts and
     * strictness the validator enforces itself (see {@link #toStrictSchema()}); a fresh mutable map each call.
     */
    public Map<String, Object> toInputSchema() {
        return InputSchemas.published(this);
    }

    /** Everything the validator checks, as JSON Schema 2020-12: what a client validating the strictest way would use. */
    public Map<String, Object> toStrictSchema() {
        return InputSchemas.strict(this);
    }

    /** Order matters (it is the order of the inputSchema and of the messages), unlike Map.equals. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ArgSchema other && new ArrayList<>(args.values()).equals(new ArrayList<>(other.args.values()));
    }

    @Override
    public int hashCode() {
        return new ArrayList<>(args.values()).hashCode();
    }
}
