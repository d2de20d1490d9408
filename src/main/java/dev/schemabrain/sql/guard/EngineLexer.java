package dev.schemabrain.sql.guard;

import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.sql.lex.Quoting;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a statement SchemaBrain wrote as the engine's lexer would, under its {@link Lexical}: the string
 * literals it holds, or empty when it holds anything SchemaBrain never writes (a comment, a statement end, a
 * dollar quote, an identifier in a quote other than the engine's canonical one, a bracket SQLite reads as a name,
 * a control character) or a literal that does not close.
 */
final class EngineLexer {

    private EngineLexer() {
    }

    static Optional<List<String>> strings(String sql, Lexical lexical, boolean backslashEscapes) {
        List<String> strings = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            char next = i + 1 < n ? sql.charAt(i + 1) : '\0';
            if (c < 0x20 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return Optional.empty();
            } else if (c == '\'') {
                int end = literal(sql, i + 1, backslashEscapes, strings);
                if (end < 0) {
                    return Optional.empty();
                }
                i = end;
            } else if (lexical.escapeStringAt(sql, i)) {
                int end = literal(sql, i + 2, true, strings);
                if (end < 0) {
                    return Optional.empty();
                }
                i = end;
            } else if (c == lexical.identifierQuote()) {
                int end = Quoting.quotedEnd(sql, i + 1, c, false);
                if (end < 0) {
                    return Optional.empty();
                }
                i = end;
            } else if (c == '"' || c == '`' || c == '$' || c == ';' || c == '\\'
                    || c == '[' && lexical.bracketIdentifiers()
                    || c == '#' && lexical.hashComments()
                    || c == '-' && next == '-'
                    || c == '/' && next == '*'
                    || c == '*' && next == '/') {
                return Optional.empty();
            } else {
                i++;
            }
        }
        return Optional.of(strings);
    }

    /** Reads a literal's body from {@code i} (after its opening quote), adds its value, returns the index after it. */
    private static int literal(String sql, int i, boolean backslashEscapes, List<String> out) {
        int end = Quoting.quotedEnd(sql, i, '\'', backslashEscapes);
        if (end < 0) {
            return -1;
        }
        String raw = sql.substring(i, end - 1);
        try {
            out.add(backslashEscapes ? Rendering.unescape(raw) : raw.replace("''", "'"));
        } catch (Binder.Refused e) {
            return -1;
        }
        return end;
    }
}
