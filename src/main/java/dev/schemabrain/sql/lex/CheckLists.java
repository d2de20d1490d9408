package dev.schemabrain.sql.lex;

import dev.schemabrain.catalog.Domain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The value lists a CREATE TABLE declares with {@code CHECK (column IN ('a', 'b'))}, column-level or
 * table-level: the domain of a SQLite text column (which has no ENUM). Only a check that is exactly one
 * IN list counts; {@code IN (0, 1)} is a yes/no flag, and other number lists (a 1–5 rating) stay numbers.
 */
public final class CheckLists {

    private CheckLists() {
    }

    /** Domains by lower-cased column name; the first list of a column wins. */
    public static Map<String, Domain> of(String createTable) {
        try {
            return of(SqlLexer.tokenize(createTable, false));
        } catch (RuntimeException e) {
            // A statement the lexer cannot cut has no list we could trust.
            return Map.of();
        }
    }

    public static Map<String, Domain> of(List<Token> tokens) {
        Map<String, Domain> lists = new LinkedHashMap<>();
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).isWord("CHECK") && tokens.get(i + 1).isSymbol("(")) {
                listAt(tokens, i + 2).ifPresent(found -> lists.putIfAbsent(found.column(), found.domain()));
            }
        }
        return lists;
    }

    private record Found(String column, Domain domain) {
    }

    /** {@code column IN ( literal, … ) )} starting at {@code i}. */
    private static java.util.Optional<Found> listAt(List<Token> tokens, int i) {
        if (i + 3 >= tokens.size() || !tokens.get(i).isIdentifier() || !tokens.get(i + 1).isWord("IN")
                || !tokens.get(i + 2).isSymbol("(")) {
            return java.util.Optional.empty();
        }
        String column = tokens.get(i).value().toLowerCase(Locale.ROOT);
        List<String> strings = new ArrayList<>();
        List<String> numbers = new ArrayList<>();
        int j = i + 3;
        while (j < tokens.size()) {
            Token t = tokens.get(j);
            if (t.kind() == Token.Kind.STRING) {
                strings.add(t.value());
            } else if (t.kind() == Token.Kind.NUMBER) {
                numbers.add(t.text());
            } else {
                return java.util.Optional.empty();
            }
            j++;
            if (j < tokens.size() && tokens.get(j).isSymbol(",")) {
                j++;
            } else {
                break;
            }
        }
        // The list closes, and so does the CHECK: "IN (...) AND x > 0" is no plain list.
        if (j + 1 >= tokens.size() || !tokens.get(j).isSymbol(")") || !tokens.get(j + 1).isSymbol(")")) {
            return java.util.Optional.empty();
        }
        if (!strings.isEmpty() && numbers.isEmpty()) {
            return java.util.Optional.of(new Found(column, new Domain(Domain.Kind.CHECK, null, strings)));
        }
        if (strings.isEmpty() && Set.copyOf(numbers).equals(Set.of("0", "1"))) {
            return java.util.Optional.of(new Found(column, Domain.BOOLEAN));
        }
        return java.util.Optional.empty();
    }
}
