package dev.schemabrain.sql.lex;

/** A statement the lexer or a light parser could not make sense of; the caller adds the file and line. */
public final class SqlSyntaxException extends RuntimeException {

    public SqlSyntaxException(String message) {
        super(message);
    }
}
