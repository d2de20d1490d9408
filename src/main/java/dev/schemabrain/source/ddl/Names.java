package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.Token;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;
import java.util.Locale;

/** Spelling helpers shared by the DDL parsers. */
final class Names {

    /** What a column's type is called when the script does not say (a typeless or derived column). */
    static final String UNKNOWN_TYPE = "unknown";

    private Names() {
    }

    /** {@code t} in the default schema, {@code s.t}, or the last two parts of {@code db.s.t}. */
    static QualifiedName qualify(List<String> parts, String defaultSchema) {
        int n = parts.size();
        return n == 1 ? QualifiedName.of(defaultSchema, parts.get(0)) : QualifiedName.of(parts.get(n - 2), parts.get(n - 1));
    }

    /** Removes one level of {@code "..."}, {@code `...`} or {@code [...]} quoting, as JSqlParser keeps it. */
    static String unquote(String name) {
        if (name == null || name.length() < 2) {
            return name;
        }
        char first = name.charAt(0);
        char last = name.charAt(name.length() - 1);
        if ((first == '"' && last == '"') || (first == '`' && last == '`')) {
            String quote = String.valueOf(first);
            return name.substring(1, name.length() - 1).replace(quote + quote, quote);
        }
        if (first == '[' && last == ']') {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }

    /**
     * A type as written, in lower case and with canonical spacing: {@code character varying(45)},
     * {@code numeric(10,2)}, {@code timestamp(3) without time zone}, {@code text[]}. Quoted parts are
     * unquoted and keep their case; string literals (MySQL enum values) keep theirs.
     */
    static String typeText(List<Token> tokens) {
        StringBuilder out = new StringBuilder();
        Token previous = null;
        for (Token token : tokens) {
            if (previous != null && spaceBetween(previous, token)) {
                out.append(' ');
            }
            out.append(switch (token.kind()) {
                case WORD -> token.text().toLowerCase(Locale.ROOT);
                case QUOTED_IDENTIFIER -> token.value();
                default -> token.text();
            });
            previous = token;
        }
        return out.toString();
    }

    private static boolean spaceBetween(Token left, Token right) {
        boolean tightRight = right.kind() == Token.Kind.SYMBOL && "()[],.".contains(right.text());
        boolean tightLeft = left.kind() == Token.Kind.SYMBOL && "([,.".contains(left.text());
        return !tightRight && !tightLeft;
    }
}
