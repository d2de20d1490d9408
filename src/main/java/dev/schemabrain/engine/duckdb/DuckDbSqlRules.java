package dev.schemabrain.engine.duckdb;

import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.lex.Lexical;

import java.util.Set;

/**
 * DuckDB's SQL for the guard: standard strings, {@code E'...'} escape strings and dollar quotes as in PostgreSQL,
 * nested block comments, identifiers in double quotes; every aggregate the guard classifies exists.
 */
final class DuckDbSqlRules {

    private static final Lexical LEXICAL = new Lexical(
            false, true, true, true, false, false, false, false, '"', false, false, false);

    private static final Set<String> SCALARS = SqlRules.union(SqlRules.COMMON_SCALARS, Set.of(
            "trunc", "even", "gcd", "lcm", "random", "isnan", "isinf",
            "ifnull", "if", "format", "printf", "md5", "regexp_replace", "regexp_matches", "regexp_extract",
            "string_split", "str_split", "contains", "starts_with", "ends_with", "prefix", "suffix", "strip_accents",
            "array_to_string", "list_aggregate", "len", "array_length", "list_value", "hash", "ucase", "lcase",
            "date_trunc", "date_part", "datepart", "extract", "date_diff", "datediff", "date_sub", "date_add",
            "strftime", "strptime", "now", "today", "current_date", "make_date", "make_timestamp", "year", "month",
            "day", "quarter", "week", "weekday", "dayofweek", "dayofmonth", "dayofyear", "hour", "minute", "second",
            "epoch", "epoch_ms", "to_timestamp", "last_day", "monthname", "dayname", "yearweek", "isodow", "age",
            "time_bucket", "date_bin", "try_cast", "json_extract", "json_extract_string"));

    static final SqlRules INSTANCE = new SqlRules("DuckDB", LEXICAL, LEXICAL, SCALARS, Set.of(),
            Set.of("information_schema", "pg_catalog", "duckdb", "system", "temp"),
            java.util.EnumSet.of(SqlRules.Reading.ALL_AGGREGATES, SqlRules.Reading.WHOLE_ROW_REFERENCES));

    private DuckDbSqlRules() {
    }
}
