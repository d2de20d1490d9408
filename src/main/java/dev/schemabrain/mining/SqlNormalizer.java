package dev.schemabrain.mining;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Makes a logged statement safe to keep: every literal (strings, dollar-quoted strings, numbers), every
 * positional parameter ({@code $1}) and MySQL's digest ellipsis become {@code ?}, comments go (they can hold
 * anything), whitespace collapses. Done on the tokens, whatever the engine already replaced, so a value never
 * reaches the store even from a source that kept it.
 */
public final class SqlNormalizer {

    private SqlNormalizer() {
    }

    public static String normalize(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                i = skipTo(sql, i, "\n");
                space(out);
            } else if (c == '#' && !identifierBefore(out)) {
                i = skipTo(sql, i, "\n");   // MySQL's line comment
                space(out);
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                space(out);
            } else if (c == '\'') {
                dropStringPrefix(out);
                i = endOfString(sql, i);
                out.append('?');
            } else if (c == '"' || c == '`') {
                int end = sql.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < n && sql.charAt(end + 1) == c) {
                    end = sql.indexOf(c, end + 2);
                }
                end = end < 0 ? n : end + 1;
                out.append(sql, i, end);   // a quoted identifier, kept
                i = end;
            } else if (c == '$' && !identifierBefore(out)) {
                int j = i + 1;
                while (j < n && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                if (j > i + 1) {
                    out.append('?');   // $1: a positional parameter
                    i = j;
                    continue;
                }
                int tagEnd = sql.indexOf('$', i + 1);
                if (tagEnd > 0 && sql.substring(i + 1, tagEnd).chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
                    String tag = sql.substring(i, tagEnd + 1);
                    int close = sql.indexOf(tag, tagEnd + 1);
                    i = close < 0 ? n : close + tag.length();
                    out.append('?');
                } else {
                    out.append(c);
                    i++;
                }
            } else if (Character.isDigit(c) && !identifierBefore(out)
                    || c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)) && !identifierBefore(out)) {
                i = endOfNumber(sql, i);
                out.append('?');
            } else if (c == '.' && sql.startsWith("...", i)) {
                out.append('?');   // MySQL digests write IN (...) for a list
                i += 3;
            } else if (Character.isWhitespace(c)) {
                space(out);
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

    private static int skipTo(String sql, int from, String end) {
        int at = sql.indexOf(end, from);
        return at < 0 ? sql.length() : at;
    }

    /** From an opening quote to just past its closing one; '' and a backslash escape stay inside. */
    private static int endOfString(String sql, int open) {
        int n = sql.length();
        int i = open + 1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && i + 1 < n) {
                i += 2;
            } else if (c == '\'') {
                if (i + 1 < n && sql.charAt(i + 1) == '\'') {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    private static int endOfNumber(String sql, int start) {
        int n = sql.length();
        int i = start;
        if (sql.startsWith("0x", i) || sql.startsWith("0X", i)) {
            i += 2;
            while (i < n && Character.digit(sql.charAt(i), 16) >= 0) {
                i++;
            }
            return i;
        }
        while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
            i++;
        }
        if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                j++;
            }
            if (j < n && Character.isDigit(sql.charAt(j))) {
                i = j;
                while (i < n && Character.isDigit(sql.charAt(i))) {
                    i++;
                }
            }
        }
        return i;
    }

    /** E'…', N'…', X'…', B'…', U&'…' and MySQL's _utf8mb4'…': the prefix goes with the literal. */
    private static void dropStringPrefix(StringBuilder out) {
        int end = out.length();
        int start = end;
        while (start > 0 && (Character.isLetterOrDigit(out.charAt(start - 1)) || out.charAt(start - 1) == '_'
                || out.charAt(start - 1) == '&')) {
            start--;
        }
        String prefix = out.substring(start, end).toLowerCase(java.util.Locale.ROOT);
        if (prefix.matches("e|n|x|b|u&|_[a-z0-9]+")) {
            out.setLength(start);
        }
    }

    private static boolean identifierBefore(StringBuilder out) {
        if (out.isEmpty()) {
            return false;
        }
        char p = out.charAt(out.length() - 1);
        return Character.isLetterOrDigit(p) || p == '_' || p == '$';
    }

    private static void space(StringBuilder out) {
        if (!out.isEmpty() && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }
}
