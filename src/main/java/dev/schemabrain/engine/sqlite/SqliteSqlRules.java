package dev.schemabrain.engine.sqlite;

import dev.schemabrain.sql.guard.SqlRules;

import java.util.Set;

/**
 * SQLite's SQL for the guard: standard strings only, identifiers in double quotes, back quotes or brackets (so a
 * {@code [} the guard reads as anything else is refused), block comments that do not nest, and a compound CTE that
 * refers to itself without RECURSIVE.
 */
final class SqliteSqlRules implements SqlRules {

    static final SqliteSqlRules INSTANCE = new SqliteSqlRules();

    private static final Lexical LEXICAL = new Lexical(false, false, false, false, false, false, true, true, '"', false);

    /** The common scalars SQLite does not have. */
    private static final Set<String> MISSING = Set.of("greatest", "least", "concat_ws", "left", "right", "lpad",
            "rpad", "repeat", "position", "strpos", "initcap", "split_part", "chr", "reverse");

    private static final Set<String> SCALARS;

    static {
        java.util.Set<String> all = new java.util.HashSet<>(SqlRules.union(COMMON_SCALARS, Set.of(
                "ifnull", "iif", "typeof", "instr", "printf", "format", "hex", "unicode", "char", "quote", "glob",
                "like", "soundex", "likely", "unlikely",
                "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
                "trunc", "json_extract", "json_object", "json_array", "json_array_length")));
        all.removeAll(MISSING);
        SCALARS = Set.copyOf(all);
    }

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "total", "min", "max", "group_concat",
            "string_agg", "json_group_array");

    private SqliteSqlRules() {
    }

    @Override
    public String title() {
        return "SQLite";
    }

    @Override
    public Lexical lexical() {
        return LEXICAL;
    }

    @Override
    public Set<String> scalars() {
        return SCALARS;
    }

    @Override
    public Set<String> aggregates() {
        return AGGREGATES;
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("temp", "sqlite_temp");
    }

    @Override
    public boolean compoundCtesRecurse() {
        return true;
    }

    @Override
    public boolean doubleQuotedStrings() {
        return true;
    }
}
