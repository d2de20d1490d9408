package dev.schemabrain.sql.guard;

import java.util.Locale;
import java.util.Set;

/**
 * The functions a SELECT may call (each engine lists its own in its {@link SqlRules}): aggregates, windows, math, string, date and null handling. What is
 * not listed is refused, so file access (pg_read_file, load_file, readfile), large objects, sleeping, locks,
 * configuration (set_config, current_setting), extensions (load_extension), dblink and table functions never
 * reach an engine. Names compare case-insensitively; a schema-qualified call is never allowed.
 */
final class Functions {

    private Functions() {
    }

    /** How an aggregate's result relates to its inputs. */
    enum Aggregate {
        /** Not an aggregate. */
        NONE,
        /** Computed over the inputs: count, sum, avg, stddev. Inputs are derived, not shown. */
        COUNTING,
        /** Returns one or all of its inputs: min, max, string_agg, group_concat, array_agg. */
        VALUE
    }

    private static final Set<String> COUNTING = Set.of(
            "count", "sum", "avg", "total", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
            "std", "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_count", "regr_r2",
            "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "every", "count_if", "approx_count_distinct",
            "median", "quantile_cont", "percentile_cont", "sumkahan", "fsum", "product", "entropy", "kurtosis",
            "skewness", "countif");

    private static final Set<String> VALUE_AGGREGATES = Set.of(
            "min", "max", "string_agg", "group_concat", "array_agg", "json_agg", "jsonb_agg", "json_group_array",
            "json_arrayagg", "list", "first", "last", "any_value", "arbitrary", "mode", "percentile_disc",
            "quantile_disc", "listagg", "arg_min", "arg_max", "argmin", "argmax", "min_by", "max_by", "histogram");

    /** Window functions that return a neighbouring row's value. */
    static final Set<String> VALUE_WINDOWS = Set.of("lag", "lead", "first_value", "last_value", "nth_value");

    /** Window functions that number or rank rows: derived from the window's ordering. */
    static final Set<String> RANKING_WINDOWS = Set.of(
            "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile");

    static Aggregate aggregate(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (COUNTING.contains(n)) {
            return Aggregate.COUNTING;
        }
        if (VALUE_AGGREGATES.contains(n)) {
            return Aggregate.VALUE;
        }
        return Aggregate.NONE;
    }

    /** Whether {@code name} may be called under {@code rules}, as a scalar, an aggregate or a window function. */
    static boolean allowed(SqlRules rules, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        boolean aggregate = aggregate(n) != Aggregate.NONE && (rules.allAggregates() || rules.aggregates().contains(n));
        return rules.scalars().contains(n) || aggregate || VALUE_WINDOWS.contains(n) || RANKING_WINDOWS.contains(n);
    }

    private static final Set<String> CAST_TYPES = Set.of(
            "int", "integer", "int2", "int4", "int8", "smallint", "bigint", "tinyint", "mediumint", "hugeint",
            "numeric", "decimal", "dec", "real", "float", "float4", "float8", "double", "double precision",
            "text", "varchar", "char", "character", "character varying", "nchar", "nvarchar", "string", "bpchar",
            "date", "time", "timestamp", "timestamptz", "datetime", "interval", "boolean", "bool", "signed",
            "unsigned", "signed integer", "unsigned integer", "money", "uuid", "json", "jsonb",
            "timestamp with time zone", "timestamp without time zone", "time with time zone",
            "time without time zone");

    /** Whether a cast to {@code type} (its base name, without length or precision) is allowed: plain data types only. */
    static boolean castAllowed(String type) {
        String base = type.toLowerCase(Locale.ROOT).replaceAll("\\(.*$", "").replaceAll("\\s+", " ").strip();
        return CAST_TYPES.contains(base);
    }
}
