package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.Token;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import java.util.ArrayList;
import java.util.List;

/** A read position over a statement's tokens, with the few moves the light parsers need. */
final class TokenCursor {

    private final List<Token> tokens;
    private int pos;

    TokenCursor(List<Token> tokens) {
        this.tokens = tokens;
    }

    boolean atEnd() {
        return pos >= tokens.size();
    }

    int position() {
        return pos;
    }

    void reset(int position) {
        pos = position;
    }

    /** The token {@code ahead} places on, or null past the end. */
    Token peek(int ahead) {
        int at = pos + ahead;
        return at < tokens.size() ? tokens.get(at) : null;
    }

    Token peek() {
        return peek(0);
    }

    Token next() {
        if (atEnd()) {
            throw new SqlSyntaxException("the statement ends too early");
        }
        return tokens.get(pos++);
    }

    boolean isWord(String... keywords) {
        return !atEnd() && peek().isWord(keywords);
    }

    boolean isSymbol(String symbol) {
        return !atEnd() && peek().isSymbol(symbol);
    }

    /** Consumes the words if they come next, in order; otherwise moves nothing. */
    boolean acceptWords(String... words) {
        for (int i = 0; i < words.length; i++) {
            Token token = peek(i);
            if (token == null || !token.isWord(words[i])) {
                return false;
            }
        }
        pos += words.length;
        return true;
    }

    boolean acceptSymbol(String symbol) {
        if (isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw new SqlSyntaxException("expected '" + symbol + "'" + where());
        }
    }

    String identifier() {
        if (atEnd() || !peek().isIdentifier()) {
            throw new SqlSyntaxException("expected a name" + where());
        }
        return next().value();
    }

    /** {@code a}, {@code a.b} or {@code a.b.c}, each part unquoted. */
    List<String> qualifiedName() {
        List<String> parts = new ArrayList<>();
        parts.add(identifier());
        while (isSymbol(".") && peek(1) != null && peek(1).isIdentifier()) {
            pos++;
            parts.add(identifier());
        }
        return parts;
    }

    /**
     * {@code (a, b DESC, c(10))}: the column names of a key. Null when an entry is an expression
     * rather than a plain column, since such a key says nothing about columns.
     */
    List<String> columnList() {
        expectSymbol("(");
        List<String> names = new ArrayList<>();
        boolean plain = true;
        while (true) {
            int itemStart = pos;
            List<Token> item = itemUntilCommaOrClose();
            if (item.isEmpty()) {
                throw new SqlSyntaxException("expected a column name" + whereAt(itemStart));
            }
            if (isPlainColumn(item)) {
                names.add(item.get(0).value());
            } else {
                plain = false;
            }
            if (acceptSymbol(")")) {
                return plain ? names : null;
            }
            expectSymbol(",");
        }
    }

    /**
     * A name, optionally followed by words (ASC, DESC, COLLATE, an operator class) or a MySQL prefix
     * length {@code name(10)}; not a function call or an operator expression.
     */
    private static boolean isPlainColumn(List<Token> item) {
        if (!item.get(0).isIdentifier() || item.size() == 1) {
            return item.get(0).isIdentifier();
        }
        Token second = item.get(1);
        boolean prefixLength = second.isSymbol("(") && item.size() >= 4
                && item.get(2).kind() == Token.Kind.NUMBER && item.get(3).isSymbol(")");
        return second.isIdentifier() || prefixLength;
    }

    /** Tokens up to the next comma or closing parenthesis at this depth (not consumed). */
    List<Token> itemUntilCommaOrClose() {
        List<Token> item = new ArrayList<>();
        int depth = 0;
        while (!atEnd()) {
            Token token = peek();
            if (depth == 0 && (token.isSymbol(",") || token.isSymbol(")"))) {
                break;
            }
            if (token.isSymbol("(") || token.isSymbol("[")) {
                depth++;
            } else if (token.isSymbol(")") || token.isSymbol("]")) {
                depth--;
            }
            item.add(next());
        }
        return item;
    }

    /** Skips a parenthesized group if one starts here. */
    void skipParenthesized() {
        if (!isSymbol("(")) {
            return;
        }
        int depth = 0;
        do {
            Token token = next();
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
        } while (depth > 0 && !atEnd());
        if (depth > 0) {
            throw new SqlSyntaxException("a parenthesis is not closed");
        }
    }

    /** Index of the token closing the parenthesis at {@code open}, or -1. */
    int matchingClose(int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if (tokens.get(i).isSymbol("(")) {
                depth++;
            } else if (tokens.get(i).isSymbol(")") && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    Token get(int index) {
        return tokens.get(index);
    }

    String where() {
        return whereAt(pos);
    }

    private String whereAt(int at) {
        return at < tokens.size() ? " near '" + tokens.get(at).text() + "'" : " at the end";
    }
}
