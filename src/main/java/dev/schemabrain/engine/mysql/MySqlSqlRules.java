package dev.schemabrain.engine.mysql;

import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.lex.Lexical;

import java.util.Set;

/**
 * MySQL's and MariaDB's SQL for the guard. Query sessions run with {@code NO_BACKSLASH_ESCAPES} and
 * {@code ANSI_QUOTES} in their sql_mode (see {@link MySqlEngine#connect}): a backslash in {@code '...'} is an
 * ordinary character and {@code "name"} is an identifier. Identifiers are written with back quotes, which every
 * sql_mode reads as one. {@code #} starts a comment, and {@code --} does only before a blank.
 */
final class MySqlSqlRules {

    private static final Lexical LEXICAL = new Lexical(
            false, false, false, false, true, true, false, true, '`', true, false, false);

    /** The default sql_mode an application's statements are logged under: backslash escapes, "..." a string. */
    private static final Lexical LOGGED = new Lexical(
            true, false, false, false, true, true, false, true, '`', true, true, false);

    private static final Set<String> SCALARS = SqlRules.union(SqlRules.COMMON_SCALARS, Set.of(
            "truncate", "div", "rand", "conv", "crc32",
            "ifnull", "if", "isnull", "char", "locate", "mid", "space", "strcmp", "field", "find_in_set", "elt",
            "format", "hex", "unhex", "md5", "sha1", "sha2", "regexp_replace", "regexp_substr", "regexp_like",
            "substring_index", "lcase", "ucase", "insert",
            "now", "curdate", "curtime", "current_date", "current_timestamp", "date", "time", "year", "month", "day",
            "dayofmonth", "dayofweek", "dayofyear", "week", "weekday", "weekofyear", "quarter", "hour", "minute",
            "second", "monthname", "dayname", "date_format", "str_to_date", "datediff", "timestampdiff", "date_add",
            "date_sub", "adddate", "subdate", "last_day", "makedate", "from_days", "to_days", "unix_timestamp",
            "from_unixtime", "extract", "yearweek", "timestampadd", "time_format", "sec_to_time", "time_to_sec",
            "json_extract", "json_unquote", "json_object", "json_array"));

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "group_concat", "std",
            "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "bit_and", "bit_or", "bit_xor",
            "json_arrayagg", "any_value");

    static final SqlRules INSTANCE = new SqlRules("MySQL", LEXICAL, LOGGED, SCALARS, AGGREGATES,
            Set.of("information_schema", "mysql", "performance_schema", "sys"),
            java.util.EnumSet.noneOf(SqlRules.Reading.class));

    private MySqlSqlRules() {
    }
}
