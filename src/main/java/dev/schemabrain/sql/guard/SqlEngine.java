package dev.schemabrain.sql.guard;

/** The engines SQL is checked for; MYSQL covers MariaDB. Quoting, comments and functions differ between them. */
public enum SqlEngine {
    POSTGRESQL, MYSQL, SQLITE, DUCKDB;

    /** Whether a backslash escapes a quote inside a string literal (MySQL's default sql_mode). */
    boolean backslashEscapes() {
        return this == MYSQL;
    }

    /** Whether {@code "text"} that names no column is a string (SQLite's legacy rule, MySQL without ANSI_QUOTES). */
    boolean doubleQuotedStrings() {
        return this == MYSQL || this == SQLITE;
    }

    /** Whether block comments nest, as in PostgreSQL and DuckDB. */
    boolean nestedComments() {
        return this == POSTGRESQL || this == DUCKDB;
    }
}
