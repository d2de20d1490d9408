package dev.schemabrain.sql.lex;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts one statement into tokens. Knows the quoting rules of PostgreSQL and MySQL (double quotes,
 * back quotes, {@code E'...'}, dollar quotes, doubled or backslashed quote characters) and nothing
 * else: meaning is left to the parsers.
 */
public final class SqlLexer {

    private final String sql;
    private final boolean backslashEscapes;
    private int pos;

    private SqlLexer(String sql, boolean backslashEscapes) {
        this.sql = sql;
        this.backslashEscapes = backslashEscapes;
    }

    /** @param backslashEscapes whether a backslash escapes the next character in a literal (MySQL's default) */
    public static List<Token> tokenize(String sql, boolean backslashEscapes) {
        return new SqlLexer(sql, backslashEscapes).run();
    }

    private List<Token> run() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            while (pos < sql.length() && Character.isWhitespace(sql.charAt(pos))) {
                pos++;
            }
            if (pos >= sql.length()) {
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int start = pos;
        char c = sql.charAt(pos);
        char after = pos + 1 < sql.length() ? sql.charAt(pos + 1) : '\0';
        if (c == '\'') {
            return string(start, pos, backslashEscapes);
        }
        if ((c == 'E' || c == 'e') && after == '\'') {
            return string(start, pos + 1, true);
        }
        if ((c == 'N' || c == 'n' || c == 'X' || c == 'x' || c == 'B' || c == 'b') && after == '\'') {
            return string(start, pos + 1, backslashEscapes);
        }
        if (c == '"' || c == '`') {
            return quotedIdentifier(start, c);
        }
        if (c == '$') {
            Token dollar = dollarString(start);
            if (dollar != null) {
                return dollar;
            }
        }
        if (Character.isDigit(c) || (c == '.' && Character.isDigit(after))) {
            return number(start);
        }
        if (isIdentifierStart(c)) {
            pos++;
            while (pos < sql.length() && isIdentifierPart(sql.charAt(pos))) {
                pos++;
            }
            String word = sql.substring(start, pos);
            return new Token(Token.Kind.WORD, word, word, start, pos);
        }
        return symbol(start);
    }

    /** A literal starting at {@code quote}; the token spans from {@code start} to include any prefix. */
    private Token string(int start, int quote, boolean escapes) {
        StringBuilder value = new StringBuilder();
        pos = quote + 1;
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == '\\' && escapes && pos + 1 < sql.length()) {
                value.append(unescape(sql.charAt(pos + 1)));
                pos += 2;
            } else if (c == '\'') {
                if (pos + 1 < sql.length() && sql.charAt(pos + 1) == '\'') {
                    value.append('\'');
                    pos += 2;
                } else {
                    pos++;
                    return new Token(Token.Kind.STRING, sql.substring(start, pos), value.toString(), start, pos);
                }
            } else {
                value.append(c);
                pos++;
            }
        }
        throw new SqlSyntaxException("a string literal is not closed");
    }

    private static char unescape(char c) {
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case '0' -> '\0';
            default -> c;
        };
    }

    private Token quotedIdentifier(int start, char quote) {
        StringBuilder value = new StringBuilder();
        pos = start + 1;
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (c == quote) {
                if (pos + 1 < sql.length() && sql.charAt(pos + 1) == quote) {
                    value.append(quote);
                    pos += 2;
                } else {
                    pos++;
                    return new Token(Token.Kind.QUOTED_IDENTIFIER, sql.substring(start, pos), value.toString(), start, pos);
                }
            } else {
                value.append(c);
                pos++;
            }
        }
        throw new SqlSyntaxException("a quoted identifier is not closed");
    }

    /** {@code $tag$ ... $tag$}, or null when the dollar sign starts no such literal (e.g. {@code $1}). */
    private Token dollarString(int start) {
        String tag = Quoting.dollarTag(sql, start);
        if (tag == null) {
            return null;
        }
        int end = Quoting.dollarEnd(sql, start, tag);
        if (end < 0) {
            throw new SqlSyntaxException("a dollar-quoted literal is not closed");
        }
        pos = end;
        return new Token(Token.Kind.STRING, sql.substring(start, pos), sql.substring(start + tag.length(), end - tag.length()), start, pos);
    }

    private Token number(int start) {
        while (pos < sql.length() && (Character.isDigit(sql.charAt(pos)) || sql.charAt(pos) == '.')) {
            pos++;
        }
        if (pos < sql.length() && (sql.charAt(pos) == 'e' || sql.charAt(pos) == 'E')) {
            int save = pos++;
            if (pos < sql.length() && (sql.charAt(pos) == '+' || sql.charAt(pos) == '-')) {
                pos++;
            }
            if (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                while (pos < sql.length() && Character.isDigit(sql.charAt(pos))) {
                    pos++;
                }
            } else {
                pos = save;
            }
        }
        String text = sql.substring(start, pos);
        return new Token(Token.Kind.NUMBER, text, text, start, pos);
    }

    private Token symbol(int start) {
        for (String two : new String[] {"::", "||", "<=", ">=", "<>", "!=", "->"}) {
            if (sql.startsWith(two, start)) {
                pos = start + 2;
                return new Token(Token.Kind.SYMBOL, two, two, start, pos);
            }
        }
        pos = start + 1;
        String one = sql.substring(start, pos);
        return new Token(Token.Kind.SYMBOL, one, one, start, pos);
    }

    static boolean isIdentifierStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    public static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
