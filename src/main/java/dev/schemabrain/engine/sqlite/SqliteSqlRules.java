package dev.schemabrain.engine.sqlite;

import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.lex.Lexical;

import java.util.Set;

/**
 * SQLite's SQL for the guard: standard strings only, identifiers in double quotes, back quotes or brackets (so a
 * {@code [} the guard reads as anything else is refused), block comments that do not nest, and a compound CTE that
 * refers to itself without RECURSIVE.
 */
final class SqliteSqlRules {

    private static final Lexical LEXICAL = new Lexical(
            false, false, false, false, false, false, true, true, '"', false, false, false);

    /** The common scalars SQLite does not have. */
    private static final Set<String> MISSING = Set.of("greatest", "least", "concat_ws", "left", "right", "lpad",
            "rpad", "repeat", "position", "strpos", "initcap", "split_part", "chr", "reverse");

    private static final Set<String> SCALARS;

    static {
        java.util.Set<String> all = new java.util.HashSet<>(SqlRules.union(SqlRules.COMMON_SCALARS, Set.of(
                "ifnull", "iif", "typeof", "instr", "printf", "format", "hex", "unicode", "char", "quote", "glob",
                "like", "soundex", "likely", "unlikely",
                "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
                "trunc", "json_extract", "json_object", "json_array", "json_array_length")));
        all.removeAll(MISSING);
        SCALARS = Set.copyOf(all);
    }

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "total", "min", "max", "group_concat",
            "string_agg", "json_group_array");

    static final SqlRules INSTANCE = new SqlRules("SQLite", LEXICAL, LEXICAL, SCALARS, AGGREGATES,
            Set.of("temp", "sqlite_temp"),
            java.util.EnumSet.of(SqlRules.Reading.COMPOUND_CTES_RECURSE, SqlRules.Reading.DOUBLE_QUOTED_STRINGS));

    private SqliteSqlRules() {
    }
}
