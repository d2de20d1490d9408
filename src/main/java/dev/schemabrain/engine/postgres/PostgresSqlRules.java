package dev.schemabrain.engine.postgres;

import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.lex.Lexical;

import java.util.Set;

/**
 * PostgreSQL's SQL for the guard. Sessions run with {@code standard_conforming_strings = on} (see
 * {@link PostgresEngine#connect}), so a backslash in {@code '...'} is an ordinary character; {@code E'...'} and
 * dollar quotes exist and block comments nest.
 */
final class PostgresSqlRules {

    /** standard_conforming_strings is on by default since 9.1: a logged statement reads as a pinned one. */
    private static final Lexical LEXICAL = new Lexical(
            false, true, true, true, false, false, false, false, '"', true, false, true);

    private static final Set<String> SCALARS = SqlRules.union(SqlRules.COMMON_SCALARS, Set.of(
            "trunc", "div", "cbrt", "width_bucket", "random",
            "btrim", "format", "md5", "regexp_replace", "regexp_match", "regexp_matches", "to_char", "to_number",
            "translate", "starts_with", "string_to_array", "array_to_string", "array_length", "cardinality", "unnest",
            "date_trunc", "date_part", "extract", "now", "age", "to_date", "to_timestamp", "make_date",
            "make_timestamp", "make_interval", "justify_days", "justify_hours", "justify_interval", "isfinite",
            "json_build_object", "jsonb_build_object", "json_extract_path_text", "jsonb_extract_path_text",
            "clock_timestamp", "statement_timestamp", "transaction_timestamp", "date_bin"));

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "string_agg",
            "array_agg", "json_agg", "jsonb_agg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop",
            "var_samp", "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_count", "regr_r2",
            "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "every", "mode", "percentile_cont",
            "percentile_disc", "any_value");

    static final SqlRules INSTANCE = new SqlRules("PostgreSQL", LEXICAL, LEXICAL, SCALARS, AGGREGATES,
            Set.of("pg_catalog", "information_schema", "pg_toast"),
            java.util.EnumSet.of(SqlRules.Reading.WHOLE_ROW_REFERENCES));

    private PostgresSqlRules() {
    }
}
