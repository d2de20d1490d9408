package dev.schemabrain.sql.guard;

import java.util.HashSet;
import java.util.Set;

/**
 * One engine's SQL as the guard reads and writes it: how its lexer reads the text (string forms, escapes,
 * identifier quotes, comments), the one canonical form in which SchemaBrain writes a string literal and a quoted
 * name for it, and the functions a SELECT may call there. Each engine supplies its own from its package
 * ({@code Engine.sqlRules()}); an engine without rules cannot have SQL checked, so execute refuses there.
 *
 * <p>The lexical facts describe the session as SchemaBrain pins it ({@code standard_conforming_strings = on} on
 * PostgreSQL, {@code NO_BACKSLASH_ESCAPES,ANSI_QUOTES} on MySQL and MariaDB), not whatever the server's default is.
 */
public interface SqlRules {

    /** The engine's name as people write it ("PostgreSQL"), for messages. */
    String title();

    /** How the engine's lexer reads a statement on a pinned session. */
    Lexical lexical();

    /** Scalar functions a SELECT may call (lower case). */
    Set<String> scalars();

    /** Aggregates the engine has (lower case); {@link #allAggregates} says the engine has every one the guard knows. */
    Set<String> aggregates();

    /** Whether every aggregate the guard classifies exists on the engine (DuckDB). */
    default boolean allAggregates() {
        return false;
    }

    /** Schemas that hold the engine's own catalog (lower case), never a user's table. */
    Set<String> systemSchemas();

    /** Whether a compound CTE refers to itself without RECURSIVE (SQLite). */
    default boolean compoundCtesRecurse() {
        return false;
    }

    /** Whether {@code "text"} that names no column reads as a string (SQLite's legacy rule). */
    default boolean doubleQuotedStrings() {
        return false;
    }

    /** Whether the guard reads {@code x::text} with {@code x} a FROM item's name as the whole row (PostgreSQL, DuckDB). */
    default boolean wholeRowReferences() {
        return false;
    }

    /** {@code name} as a quoted identifier in the engine's canonical form. */
    default String quote(String name) {
        char q = lexical().identifierQuote();
        return q + name.replace(String.valueOf(q), String.valueOf(q) + q) + q;
    }

    /**
     * {@code value} as a string literal in the one form this engine reads as {@code value} whatever its settings;
     * empty when the engine has no such form for it (a backslash where a server setting decides what it means).
     */
    default java.util.Optional<String> string(String value) {
        if (lexical().backslashBySetting() && value.indexOf('\\') >= 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("'" + value.replace("'", "''") + "'");
    }

    /**
     * The lexical facts of one engine.
     *
     * @param backslashEscapes   a backslash escapes the next character in a plain {@code '...'} literal
     * @param escapeStrings      {@code E'...'} literals with backslash escapes exist
     * @param dollarQuotes       {@code $tag$...$tag$} literals exist
     * @param nestedComments     block comments nest
     * @param hashComments       {@code #} starts a comment
     * @param dashDashNeedsSpace {@code --} starts a comment only before a blank (MySQL)
     * @param bracketIdentifiers {@code [name]} is a quoted identifier (SQLite)
     * @param backtickIdentifiers {@code `name`} is a quoted identifier
     * @param identifierQuote    the quote SchemaBrain writes identifiers with
     * @param backslashBySetting a server setting decides whether a backslash escapes in {@code '...'} (PostgreSQL's
     *                           standard_conforming_strings, MySQL's NO_BACKSLASH_ESCAPES): the rendering is checked
     *                           under both readings, so a session whose pin was lost still runs what was checked
     */
    record Lexical(boolean backslashEscapes, boolean escapeStrings, boolean dollarQuotes, boolean nestedComments,
                   boolean hashComments, boolean dashDashNeedsSpace, boolean bracketIdentifiers,
                   boolean backtickIdentifiers, char identifierQuote, boolean backslashBySetting) {
    }

    /** Schemas refused as a system catalog on every engine: no user table there is worth the doubt. */
    Set<String> SYSTEM_SCHEMAS_ANYWHERE = Set.of("pg_catalog", "information_schema", "mysql", "performance_schema",
            "sys");

    /** Scalars every engine has under these names. */
    Set<String> COMMON_SCALARS = Set.of(
            // math
            "abs", "round", "ceil", "ceiling", "floor", "mod", "power", "pow", "sqrt", "exp", "ln", "log", "log10",
            "log2", "sign", "pi", "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
            // strings
            "upper", "lower", "length", "char_length", "character_length", "substr", "substring", "trim", "ltrim",
            "rtrim", "replace", "concat", "concat_ws", "lpad", "rpad", "left", "right", "reverse", "repeat",
            "position", "strpos", "instr", "initcap", "split_part", "ascii", "chr", "octet_length",
            // nulls and choices
            "coalesce", "nullif", "greatest", "least",
            // grouping constructs JSqlParser reads as calls
            "rollup", "cube", "grouping");

    /** The union of sets, unmodifiable: an engine's list is the common one plus its own. */
    @SafeVarargs
    static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return Set.copyOf(all);
    }
}
