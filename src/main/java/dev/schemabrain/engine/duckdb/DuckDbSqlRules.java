package dev.schemabrain.engine.duckdb;

import dev.schemabrain.sql.guard.SqlRules;

import java.util.Set;

/**
 * DuckDB's SQL for the guard: standard strings, {@code E'...'} escape strings and dollar quotes as in PostgreSQL,
 * nested block comments, identifiers in double quotes; every aggregate the guard classifies exists.
 */
final class DuckDbSqlRules implements SqlRules {

    static final DuckDbSqlRules INSTANCE = new DuckDbSqlRules();

    private static final Lexical LEXICAL = new Lexical(false, true, true, true, false, false, false, false, '"', false);

    private static final Set<String> SCALARS = SqlRules.union(COMMON_SCALARS, Set.of(
            "trunc", "even", "gcd", "lcm", "random", "isnan", "isinf",
            "ifnull", "if", "format", "printf", "md5", "regexp_replace", "regexp_matches", "regexp_extract",
            "string_split", "str_split", "contains", "starts_with", "ends_with", "prefix", "suffix", "strip_accents",
            "array_to_string", "list_aggregate", "len", "array_length", "list_value", "hash", "ucase", "lcase",
            "date_trunc", "date_part", "datepart", "extract", "date_diff", "datediff", "date_sub", "date_add",
            "strftime", "strptime", "now", "today", "current_date", "make_date", "make_timestamp", "year", "month",
            "day", "quarter", "week", "weekday", "dayofweek", "dayofmonth", "dayofyear", "hour", "minute", "second",
            "epoch", "epoch_ms", "to_timestamp", "last_day", "monthname", "dayname", "yearweek", "isodow", "age",
            "time_bucket", "date_bin", "try_cast", "json_extract", "json_extract_string"));

    private DuckDbSqlRules() {
    }

    @Override
    public String title() {
        return "DuckDB";
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
        return Set.of();
    }

    @Override
    public boolean allAggregates() {
        return true;
    }

    @Override
    public Set<String> systemSchemas() {
        return Set.of("information_schema", "pg_catalog", "duckdb", "system", "temp");
    }

    @Override
    public boolean wholeRowReferences() {
        return true;
    }
}
