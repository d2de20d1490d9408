package dev.schemabrain.sql.guard;

import dev.schemabrain.sql.lex.Lexical;

import java.util.HashSet;
import java.util.Set;

/**
 * One engine's SQL as the guard reads and writes it: how its lexer reads the text (string forms, escapes,
 * identifier quotes, comments), the one canonical form in which SchemaBrain writes a string literal and a quoted
 * name for it (derived from those facts), and the functions a SELECT may call there. Each engine supplies its own
 * from its package ({@code Engine.sqlRules()}); an engine without rules cannot have SQL checked, so execute refuses
 * there.
 *
 * <p>The lexical facts describe the session as SchemaBrain pins it ({@code standard_conforming_strings = on} on
 * PostgreSQL, {@code NO_BACKSLASH_ESCAPES,ANSI_QUOTES} on MySQL and MariaDB), not whatever the server's default is.
 */
public record SqlRules(String title, Lexical lexical, Lexical logged, Set<String> scalars, Set<String> aggregates,
                       Set<String> systemSchemas, Set<Reading> readings) {

    /** How the engine reads a construct the guard must read the same way. */
    public enum Reading {
        /** Every aggregate the guard classifies exists on the engine (DuckDB). */
        ALL_AGGREGATES,
        /** A compound CTE refers to itself without RECURSIVE (SQLite). */
        COMPOUND_CTES_RECURSE,
        /** {@code "text"} that names no column reads as a string (SQLite's legacy rule). */
        DOUBLE_QUOTED_STRINGS,
        /** A FROM item's bare name is its whole row ({@code x::text}: PostgreSQL, DuckDB). */
        WHOLE_ROW_REFERENCES
    }

    /**
     * @param title         the engine's name as people write it ("PostgreSQL"), for messages
     * @param lexical       how the engine's lexer reads a statement on a pinned session
     * @param logged        how it reads one under the server's default settings, as a query log records what
     *                      applications sent
     * @param scalars       scalar functions a SELECT may call (lower case)
     * @param aggregates    aggregates the engine has (lower case)
     * @param systemSchemas schemas that hold the engine's own catalog (lower case), never a user's table
     */
    public SqlRules {
        scalars = Set.copyOf(scalars);
        aggregates = Set.copyOf(aggregates);
        systemSchemas = Set.copyOf(systemSchemas);
        readings = readings.isEmpty() ? Set.of()
                : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(readings));
    }

    public boolean allAggregates() {
        return readings.contains(Reading.ALL_AGGREGATES);
    }

    public boolean compoundCtesRecurse() {
        return readings.contains(Reading.COMPOUND_CTES_RECURSE);
    }

    public boolean doubleQuotedStrings() {
        return readings.contains(Reading.DOUBLE_QUOTED_STRINGS);
    }

    public boolean wholeRowReferences() {
        return readings.contains(Reading.WHOLE_ROW_REFERENCES);
    }

    /** {@code name} as a quoted identifier in the engine's canonical form. */
    public String quote(String name) {
        return lexical.quote(name);
    }

    /**
     * {@code value} as a string literal in the one form this engine reads as {@code value} whatever its settings:
     * {@code '...'} with quotes doubled; where a server setting decides what a backslash means, a value holding one
     * as an escape string with the backslash doubled ({@code E'a\\b'} reads as {@code a\b} either way), and empty
     * where the engine has no escape string (MySQL: no form reads the same under both sql_modes).
     */
    public java.util.Optional<String> string(String value) {
        if (value.indexOf('\\') < 0 || !lexical.backslashBySetting()) {
            return java.util.Optional.of("'" + value.replace("'", "''") + "'");
        }
        if (lexical.escapeStrings()) {
            return java.util.Optional.of("E'" + value.replace("\\", "\\\\").replace("'", "''") + "'");
        }
        return java.util.Optional.empty();
    }

    /** Schemas refused as a system catalog on every engine: no user table there is worth the doubt. */
    public static final Set<String> SYSTEM_SCHEMAS_ANYWHERE = Set.of("pg_catalog", "information_schema", "mysql",
            "performance_schema", "sys");

    /** Scalars every engine has under these names. */
    public static final Set<String> COMMON_SCALARS = Set.of(
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
    public static Set<String> union(Set<String>... sets) {
        Set<String> all = new HashSet<>();
        for (Set<String> s : sets) {
            all.addAll(s);
        }
        return Set.copyOf(all);
    }
}
