package dev.schemabrain.sql.guard;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The functions a SELECT may call, per engine: aggregates, windows, math, string, date and null handling. What is
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

    private static final Set<String> COMMON = Set.of(
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

    private static final Set<String> POSTGRESQL = Set.of(
            "trunc", "div", "cbrt", "width_bucket", "random",
            "btrim", "format", "md5", "regexp_replace", "regexp_match", "regexp_matches", "to_char", "to_number",
            "translate", "starts_with", "string_to_array", "array_to_string", "array_length", "cardinality", "unnest",
            "date_trunc", "date_part", "extract", "now", "age", "to_date", "to_timestamp", "make_date",
            "make_timestamp", "make_interval", "justify_days", "justify_hours", "justify_interval", "isfinite",
            "json_build_object", "jsonb_build_object", "json_extract_path_text", "jsonb_extract_path_text",
            "clock_timestamp", "statement_timestamp", "transaction_timestamp", "date_bin");

    private static final Set<String> MYSQL = Set.of(
            "truncate", "div", "rand", "conv", "crc32",
            "ifnull", "if", "isnull", "char", "locate", "mid", "space", "strcmp", "field", "find_in_set", "elt",
            "format", "hex", "unhex", "md5", "sha1", "sha2", "regexp_replace", "regexp_substr", "regexp_like",
            "substring_index", "lcase", "ucase", "insert",
            "now", "curdate", "curtime", "current_date", "current_timestamp", "date", "time", "year", "month", "day",
            "dayofmonth", "dayofweek", "dayofyear", "week", "weekday", "weekofyear", "quarter", "hour", "minute",
            "second", "monthname", "dayname", "date_format", "str_to_date", "datediff", "timestampdiff", "date_add",
            "date_sub", "adddate", "subdate", "last_day", "makedate", "from_days", "to_days", "unix_timestamp",
            "from_unixtime", "extract", "yearweek", "timestampadd", "time_format", "sec_to_time", "time_to_sec",
            "json_extract", "json_unquote", "json_object", "json_array");

    private static final Set<String> SQLITE = Set.of(
            "ifnull", "iif", "typeof", "instr", "printf", "format", "hex", "unicode", "char", "quote", "glob",
            "like", "soundex", "likely", "unlikely",
            "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
            "trunc", "json_extract", "json_object", "json_array", "json_array_length");

    private static final Set<String> DUCKDB = Set.of(
            "trunc", "even", "gcd", "lcm", "random", "isnan", "isinf",
            "ifnull", "if", "format", "printf", "md5", "regexp_replace", "regexp_matches", "regexp_extract",
            "string_split", "str_split", "contains", "starts_with", "ends_with", "prefix", "suffix", "strip_accents",
            "array_to_string", "list_aggregate", "len", "array_length", "list_value", "hash", "ucase", "lcase",
            "date_trunc", "date_part", "datepart", "extract", "date_diff", "datediff", "date_sub", "date_add",
            "strftime", "strptime", "now", "today", "current_date", "make_date", "make_timestamp", "year", "month",
            "day", "quarter", "week", "weekday", "dayofweek", "dayofmonth", "dayofyear", "hour", "minute", "second",
            "epoch", "epoch_ms", "to_timestamp", "last_day", "monthname", "dayname", "yearweek", "isodow", "age",
            "time_bucket", "date_bin", "try_cast", "json_extract", "json_extract_string");

    /** The aggregates each engine has; DuckDB has them all. */
    private static final Map<SqlEngine, Set<String>> AGGREGATES = Map.of(
            SqlEngine.POSTGRESQL, Set.of("count", "sum", "avg", "min", "max", "string_agg", "array_agg", "json_agg",
                    "jsonb_agg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr",
                    "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_count", "regr_r2", "bit_and",
                    "bit_or", "bit_xor", "bool_and", "bool_or", "every", "mode", "percentile_cont", "percentile_disc",
                    "any_value"),
            SqlEngine.MYSQL, Set.of("count", "sum", "avg", "min", "max", "group_concat", "std", "stddev",
                    "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "bit_and", "bit_or", "bit_xor",
                    "json_arrayagg", "any_value"),
            SqlEngine.SQLITE, Set.of("count", "sum", "avg", "total", "min", "max", "group_concat", "string_agg",
                    "json_group_array"));

    private static final Map<SqlEngine, Set<String>> SCALARS = new EnumMap<>(SqlEngine.class);

    static {
        for (SqlEngine engine : SqlEngine.values()) {
            Set<String> all = new HashSet<>(COMMON);
            all.addAll(switch (engine) {
                case POSTGRESQL -> POSTGRESQL;
                case MYSQL -> MYSQL;
                case SQLITE -> SQLITE;
                case DUCKDB -> DUCKDB;
            });
            if (engine == SqlEngine.SQLITE) {
                all.removeAll(Set.of("greatest", "least", "concat_ws", "left", "right", "lpad", "rpad", "repeat",
                        "position", "strpos", "initcap", "split_part", "chr", "reverse"));
            }
            SCALARS.put(engine, Set.copyOf(all));
        }
    }

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

    /** Whether {@code name} may be called on {@code engine}, as a scalar, an aggregate or a window function. */
    static boolean allowed(SqlEngine engine, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        boolean aggregate = aggregate(n) != Aggregate.NONE
                && (engine == SqlEngine.DUCKDB || AGGREGATES.get(engine).contains(n));
        return SCALARS.get(engine).contains(n) || aggregate || VALUE_WINDOWS.contains(n) || RANKING_WINDOWS.contains(n);
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
