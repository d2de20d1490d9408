/**
 * SQL text cut into tokens, with the quoting rules of PostgreSQL and MySQL, and what a token stream can say
 * without a parser (SQLite's CHECK lists). Used by the DDL reader and by the engines; depends on the catalog
 * model only.
 */
package dev.schemabrain.sql.lex;
