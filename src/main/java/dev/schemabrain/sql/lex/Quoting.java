package dev.schemabrain.sql.lex;

/**
 * Where a quoted run of SQL text ends, the one reading every scanner of statements shares (the tokenizer, the gate's
 * screen and its check of what it wrote, the query-log normalizer): a literal or quoted name closes at its quote
 * unless the quote is doubled, or escaped by a backslash where the engine reads one so; a dollar quote closes at
 * its own tag; a comment at its line's end or its star-slash. A scanner that ended one a character early or late
 * would read the rest as SQL.
 */
public final class Quoting {

    private Quoting() {
    }

    /**
     * The index just past the closing {@code quote} of a run whose body starts at {@code from} (after the opening
     * quote), or -1 when it does not close.
     */
    public static int quotedEnd(String sql, int from, char quote, boolean backslashEscapes) {
        int i = from;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && backslashEscapes) {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return -1;
    }

    /** The tag ({@code $tag$} or {@code $$}) of a dollar-quoted literal starting at {@code start}, or null when none does ({@code $1}). */
    public static String dollarTag(String sql, int start) {
        int close = sql.indexOf('$', start + 1);
        if (close < 0) {
            return null;
        }
        String tag = sql.substring(start, close + 1);
        return tag.matches("\\$([A-Za-z_][A-Za-z0-9_]*)?\\$") ? tag : null;
    }

    /** The index just past the literal {@code tag} opens at {@code start}, or -1 when it does not close. */
    public static int dollarEnd(String sql, int start, String tag) {
        int end = sql.indexOf(tag, start + tag.length());
        return end < 0 ? -1 : end + tag.length();
    }

    /** The index of the line break ending a line comment that starts at {@code from}, or the text's length. */
    public static int lineEnd(String sql, int from) {
        int at = sql.indexOf('\n', from);
        return at < 0 ? sql.length() : at;
    }

    /**
     * The index just past the block comment opening at {@code open}, or -1 when it does not close: at the first
     * star-slash, or where comments {@code nested}, at the one closing every opening it holds.
     */
    public static int blockCommentEnd(String sql, int open, boolean nested) {
        if (!nested) {
            int end = sql.indexOf("*/", open + 2);
            return end < 0 ? -1 : end + 2;
        }
        int depth = 0;
        int j = open;
        int n = sql.length();
        while (j < n) {
            if (sql.startsWith("/*", j)) {
                depth++;
                j += 2;
            } else if (sql.startsWith("*/", j)) {
                depth--;
                j += 2;
                if (depth == 0) {
                    return j;
                }
            } else {
                j++;
            }
        }
        return -1;
    }
}
