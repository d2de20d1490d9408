/**
 * SQL text cut into tokens, with the quoting rules of PostgreSQL and MySQL, and what a token stream can say
 * without a parser (SQLite's CHECK lists); how each engine's lexer reads text ({@link dev.schemabrain.sql.lex.Lexical},
 * supplied by the engine) and where a quoted run or a comment ends ({@link dev.schemabrain.sql.lex.Quoting}), which
 * every scanner of SQL text shares. Used by the DDL reader, the engines, the gate's screens and the query-log
 * normalizer; depends on the catalog model only.
 */
package dev.schemabrain.sql.lex;
