package dev.schemabrain.sql.lex;

import java.util.regex.Pattern;

/**
 * How one engine's lexer reads SQL text: the facts every scanner of statements (the gate's screen and its check of
 * what it wrote, the query-log normalizer) reads the text by, each engine supplying its own from its package.
 *
 * @param backslashEscapes    a backslash escapes the next character in a plain {@code '...'} literal
 * @param escapeStrings       {@code E'...'} literals with backslash escapes exist
 * @param dollarQuotes        {@code $tag$...$tag$} literals (and {@code $1} parameters) exist
 * @param nestedComments      block comments nest
 * @param hashComments        {@code #} starts a comment
 * @param dashDashNeedsSpace  {@code --} starts a comment only before a blank (MySQL)
 * @param bracketIdentifiers  {@code [name]} is a quoted identifier (SQLite)
 * @param backtickIdentifiers {@code `name`} is a quoted identifier
 * @param identifierQuote     the quote SchemaBrain writes identifiers with
 * @param backslashBySetting  a server setting decides whether a backslash escapes in {@code '...'} (PostgreSQL's
 *                            standard_conforming_strings, MySQL's NO_BACKSLASH_ESCAPES): the rendering is checked
 *                            under both readings, so a session whose pin was lost still runs what was checked
 * @param doubleQuotedStrings {@code "..."} is a string literal, not a name (MySQL without ANSI_QUOTES)
 * @param foldsToLowerCase    an unquoted name reads in lower case (PostgreSQL): a name with a capital keeps its quotes
 */
public record Lexical(boolean backslashEscapes, boolean escapeStrings, boolean dollarQuotes, boolean nestedComments,
                      boolean hashComments, boolean dashDashNeedsSpace, boolean bracketIdentifiers,
                      boolean backtickIdentifiers, char identifierQuote, boolean backslashBySetting,
                      boolean doubleQuotedStrings, boolean foldsToLowerCase) {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final Pattern PLAIN_LOWER = Pattern.compile("[a-z_][a-z0-9_$]*");

    /** {@code name} as a quoted identifier in the engine's canonical form. */
    public String quote(String name) {
        char q = identifierQuote;
        return q + name.replace(String.valueOf(q), String.valueOf(q) + q) + q;
    }

    /** {@code name} as written where it reads back as itself without quotes, else {@linkplain #quote quoted}. */
    public String name(String name) {
        return (foldsToLowerCase ? PLAIN_LOWER : PLAIN).matcher(name).matches() ? name : quote(name);
    }

    /** Whether {@code c} opens a quoted name ({@code [} aside, whose close differs). */
    public boolean quotesName(char c) {
        return c == '"' && !doubleQuotedStrings || c == '`' && backtickIdentifiers;
    }

    /**
     * Whether the {@code --} at {@code i} starts a comment: always, except where the engine wants a blank after it
     * (MySQL reads {@code --x} as two minus signs).
     */
    public boolean dashDashComment(String sql, int i) {
        return !dashDashNeedsSpace || i + 2 >= sql.length() || Character.isWhitespace(sql.charAt(i + 2));
    }

    /** Whether an {@code E'...'} escape string starts at {@code i} (an E that ends no longer word). */
    public boolean escapeStringAt(String sql, int i) {
        char c = sql.charAt(i);
        return escapeStrings && (c == 'E' || c == 'e') && i + 1 < sql.length() && sql.charAt(i + 1) == '\''
                && (i == 0 || !SqlLexer.isIdentifierPart(sql.charAt(i - 1)));
    }
}
