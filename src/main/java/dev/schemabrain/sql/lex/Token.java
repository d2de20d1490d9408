package dev.schemabrain.sql.lex;

/**
 * One lexical token of a statement.
 *
 * @param text  the token exactly as written
 * @param value the token's meaning: identifiers unquoted, string literals unescaped
 * @param start offset of the first character in the statement text
 * @param end   offset just past the last character
 */
public record Token(Kind kind, String text, String value, int start, int end) {

    public enum Kind { WORD, QUOTED_IDENTIFIER, STRING, NUMBER, SYMBOL }

    /** An unquoted word equal to one of the keywords, ignoring case. */
    public boolean isWord(String... keywords) {
        if (kind != Kind.WORD) {
            return false;
        }
        for (String keyword : keywords) {
            if (text.equalsIgnoreCase(keyword)) {
                return true;
            }
        }
        return false;
    }

    public boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    public boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED_IDENTIFIER;
    }
}
