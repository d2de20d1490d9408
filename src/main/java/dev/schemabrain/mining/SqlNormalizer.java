package dev.schemabrain.mining;

import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.sql.lex.Quoting;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Makes a logged statement safe to keep: every literal (strings, dollar-quoted strings, numbers), every
 * positional parameter ({@code $1}) and MySQL's digest ellipsis become {@code ?}, comments go (they can hold
 * anything), whitespace collapses, and an identifier that could carry a value (a quoted one needing its quotes,
 * or one holding a run of digits) becomes {@code _q1, _q2, …} unless the catalog has that name. Done on the
 * tokens with the engine's own {@link Lexical} rules, whatever the engine already replaced: a lexer that ends a
 * literal or a comment one character early or late would emit the rest of it as SQL text. Where the gate's screen
 * refuses ({@code --x} on MySQL, a nested or unclosed comment), the normalizer reads on as the engine would.
 */
public final class SqlNormalizer {

    /** An identifier written without quotes; quoting any other text is what lets an alias carry a sentence. */
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    /** Four digits in a row: a phone, an account or an SSN written as a name. */
    private static final Pattern DIGIT_RUN = Pattern.compile("\\d{4}");

    private final String sql;
    private final Lexical lexical;
    private final Predicate<String> catalogName;
    private final StringBuilder out;
    private final Map<String, String> placeholders = new LinkedHashMap<>();
    /** In template mode, each literal's text in order (null for a prefixed one, never kept); else null. */
    private final java.util.List<String> literals;
    /** Where the last literal marker ends in {@code out}: a digit after it is not part of a name. */
    private int markerEnd = -1;
    private int i;

    private SqlNormalizer(String sql, Lexical lexical, Predicate<String> catalogName, boolean template) {
        this.sql = sql;
        this.lexical = lexical;
        this.catalogName = catalogName;
        this.out = new StringBuilder(sql.length());
        this.literals = template ? new java.util.ArrayList<>() : null;
    }

    /**
     * The normalized statement with its k-th literal (from 1) written {@code ?k} instead of {@code ?}, and the
     * literals as written: the analyzer parses the markers as numbered parameters and decides which few literals
     * may stay ({@link Template#render}). Every other value, name and comment is handled as {@link #normalize}.
     */
    public record Template(String text, java.util.List<String> literals) {

        private static final Pattern MARKER = Pattern.compile("\\?(\\d+)");

        /** The statement with the literals numbered in {@code kept} as written, every other one {@code ?}. */
        public String render(java.util.Set<Integer> kept) {
            return MARKER.matcher(text).replaceAll(m -> {
                int k = Integer.parseInt(m.group(1));
                String literal = kept.contains(k) && k <= literals.size() ? literals.get(k - 1) : null;
                return java.util.regex.Matcher.quoteReplacement(literal == null ? "?" : literal);
            });
        }
    }

    public static Template template(String sql, Lexical lexical, Predicate<String> catalogName) {
        SqlNormalizer n = new SqlNormalizer(sql, lexical, catalogName, true);
        String text = n.run();
        // Null stands for a literal that never stays (a MySQL double-quoted string): List.copyOf would refuse it.
        return new Template(text, java.util.Collections.unmodifiableList(new java.util.ArrayList<>(n.literals)));
    }

    /**
     * @param lexical     how the engine whose text it is reads it (for a query log: under the server's defaults)
     * @param catalogName whether a name (as written, unquoted) is a schema, table or column of the catalog:
     *                    those identifiers are kept, other identifiers that could carry a value are replaced
     */
    public static String normalize(String sql, Lexical lexical, Predicate<String> catalogName) {
        return new SqlNormalizer(sql, lexical, catalogName, false).run();
    }

    private String run() {
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i) && lexical.dashDashComment(sql, i)
                    || c == '#' && lexical.hashComments()) {
                i = Quoting.lineEnd(sql, i);
                space();
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = Quoting.blockCommentEnd(sql, i, lexical.nestedComments());
                i = end < 0 ? n : end;
                space();
            } else if (c == '\'') {
                int outBefore = out.length();
                boolean escapeString = dropStringPrefix();
                int start = i;
                i = quotedEnd(i, '\'', lexical.backslashEscapes() || escapeString && lexical.escapeStrings());
                literal(start, out.length() != outBefore || escapeString);
            } else if (c == '"' && lexical.doubleQuotedStrings()) {
                int start = i;
                i = quotedEnd(i, '"', lexical.backslashEscapes());
                literal(start, true);
            } else if (lexical.quotesName(c)) {
                int end = quotedEnd(i, c, false);
                String name = sql.substring(i + 1, Math.max(i + 1, end - 1)).replace(String.valueOf(c) + c, String.valueOf(c));
                identifier(name, sql.substring(i, end));
                i = end;
            } else if (c == '$' && lexical.dollarQuotes() && !identifierBefore()) {
                dollar();
            } else if ((Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) && !identifierBefore()) {
                int start = i;
                i = endOfNumber(i);
                literal(start, false);
            } else if (c == '.' && sql.startsWith("...", i)) {
                value();   // MySQL digests write IN (...) for a list
                i += 3;
            } else if (c == '?') {
                value();   // a digest's or a driver's parameter
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                identifier(word, word);
                i = end;
            } else if (Character.isWhitespace(c)) {
                space();
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString().strip();
    }

    /** A short stable key for a normalized statement: the first 16 bytes of its SHA-256, in hex. */
    public static String fingerprint(String normalized) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(normalized.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * A literal from {@code start} to {@code i}: in template mode (and not after AS) a numbered marker, with its
     * text kept aside unless {@code never} (a prefixed or double-quoted string is never kept); else a placeholder.
     */
    private void literal(int start, boolean never) {
        if (literals == null || previousWordIsAs()) {
            value();
            return;
        }
        literals.add(never ? null : sql.substring(start, i));
        out.append('?').append(literals.size());
        markerEnd = out.length();
    }

    /** A value's placeholder; after AS it names a column (MySQL's AS 'alias', a digest's AS ?), so it is one. */
    private void value() {
        if (previousWordIsAs()) {
            out.append(placeholder("?" + placeholders.size()));
        } else {
            out.append('?');
        }
    }

    /** Kept as written when it is a catalog name or could not carry a value; else a numbered placeholder. */
    private void identifier(String name, String written) {
        boolean carries = !PLAIN_IDENTIFIER.matcher(name).matches() || DIGIT_RUN.matcher(name).find();
        if (!carries || catalogName.test(name)) {
            out.append(written);
        } else {
            out.append(placeholder(name));
        }
    }

    /** The same text gets the same placeholder within a statement, so an alias still resolves where it is used. */
    private String placeholder(String name) {
        return placeholders.computeIfAbsent(name, k -> "_q" + (placeholders.size() + 1));
    }

    private void dollar() {
        int n = sql.length();
        int j = i + 1;
        while (j < n && Character.isDigit(sql.charAt(j))) {
            j++;
        }
        if (j > i + 1) {
            value();   // $1: a positional parameter
            i = j;
            return;
        }
        String tag = Quoting.dollarTag(sql, i);
        if (tag != null) {
            int end = Quoting.dollarEnd(sql, i, tag);
            i = end < 0 ? n : end;
            value();
        } else {
            out.append('$');
            i++;
        }
    }

    /** From an opening quote to just past its closing one; a doubled quote, and a backslash where it escapes, stay inside. */
    private int quotedEnd(int open, char quote, boolean backslashEscapes) {
        int end = Quoting.quotedEnd(sql, open + 1, quote, backslashEscapes);
        return end < 0 ? sql.length() : end;
    }

    private int endOfNumber(int start) {
        int n = sql.length();
        int j = start;
        if (j + 1 < n && sql.charAt(j) == '0' && "xXoObB".indexOf(sql.charAt(j + 1)) >= 0) {
            j += 2;   // 0x1F, and PostgreSQL 16's 0o17 and 0b101
            while (j < n && (Character.digit(sql.charAt(j), 16) >= 0 || sql.charAt(j) == '_')) {
                j++;
            }
            return j;
        }
        // PostgreSQL 16 groups digits with underscores (1_000_000): the groups belong to the number.
        while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.'
                || sql.charAt(j) == '_' && j + 1 < n && Character.isDigit(sql.charAt(j + 1)))) {
            j++;
        }
        if (j < n && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
            int k = j + 1;
            if (k < n && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
                k++;
            }
            if (k < n && Character.isDigit(sql.charAt(k))) {
                j = k;
                while (j < n && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
            }
        }
        return j;
    }

    /**
     * E'…', N'…', X'…', B'…', U&'…' and MySQL's _utf8mb4'…': the prefix goes with the literal. Whether it was
     * PostgreSQL's E, the one prefix under which a backslash escapes there.
     */
    private boolean dropStringPrefix() {
        int end = out.length();
        int start = end;
        while (start > 0 && (Character.isLetterOrDigit(out.charAt(start - 1)) || out.charAt(start - 1) == '_'
                || out.charAt(start - 1) == '&')) {
            start--;
        }
        String prefix = out.substring(start, end).toLowerCase(Locale.ROOT);
        if (prefix.matches("e|n|x|b|u&|_[a-z0-9]+")) {
            out.setLength(start);
            return prefix.equals("e");
        }
        return false;
    }

    private boolean previousWordIsAs() {
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        return end >= 2 && out.substring(end - 2, end).equalsIgnoreCase("as")
                && (end == 2 || !Character.isLetterOrDigit(out.charAt(end - 3)) && out.charAt(end - 3) != '_');
    }

    private boolean identifierBefore() {
        if (out.isEmpty() || out.length() == markerEnd) {
            return false;
        }
        char p = out.charAt(out.length() - 1);
        return Character.isLetterOrDigit(p) || p == '_' || p == '$';
    }

    private void space() {
        if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }
}
