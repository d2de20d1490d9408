package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.Token;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The keys of one table as SHOW CREATE TABLE prints them: {@code PRIMARY KEY (...)}, {@code UNIQUE KEY name (...)} and
 * {@code CONSTRAINT name FOREIGN KEY (...) REFERENCES [db.]table (...)}, names in backticks (or double quotes under
 * ANSI_QUOTES, or bare). A key over an expression rather than columns is left out: it names no column to join on.
 *
 * @param primaryKey  the primary key's columns in key order, empty when there is none
 */
record CreateTableKeys(List<String> primaryKey, List<UniqueConstraint> uniques, List<ForeignKey> foreignKeys) {

    CreateTableKeys {
        primaryKey = List.copyOf(primaryKey);
        uniques = List.copyOf(uniques);
        foreignKeys = List.copyOf(foreignKeys);
    }

    /** @param database the table's database: a REFERENCES without one points into it */
    static CreateTableKeys parse(String createTable, String database) {
        List<String> primaryKey = new ArrayList<>();
        List<UniqueConstraint> uniques = new ArrayList<>();
        List<ForeignKey> foreignKeys = new ArrayList<>();
        // SHOW CREATE TABLE escapes a quote in a comment by doubling it, never with a backslash.
        for (List<Token> d : definitions(SqlLexer.tokenize(createTable, false))) {
            int i = 0;
            String constraint = null;
            if (word(d, 0, "CONSTRAINT")) {
                i = 1;
                if (i < d.size() && d.get(i).isIdentifier() && !word(d, i, "PRIMARY", "UNIQUE", "FOREIGN", "CHECK")) {
                    constraint = d.get(i++).value();
                }
            }
            if (word(d, i, "PRIMARY") && word(d, i + 1, "KEY")) {
                primaryKey = columns(d, open(d, i + 2)).orElse(primaryKey);
            } else if (word(d, i, "UNIQUE")) {
                int at = word(d, i + 1, "KEY", "INDEX") ? i + 2 : i + 1;
                String name = at < d.size() && d.get(at).isIdentifier() && !word(d, at, "USING") ? d.get(at).value() : constraint;
                String uniqueName = name;
                columns(d, open(d, at)).ifPresent(cs -> uniques.add(new UniqueConstraint(uniqueName, cs)));
            } else if (word(d, i, "FOREIGN") && word(d, i + 1, "KEY")) {
                foreignKey(d, i + 2, constraint, database).ifPresent(foreignKeys::add);
            }
        }
        return new CreateTableKeys(primaryKey, uniques, foreignKeys);
    }

    private static Optional<ForeignKey> foreignKey(List<Token> d, int from, String constraint, String database) {
        int open = open(d, from);
        String name = constraint;
        if (name == null && open > from && d.get(from).isIdentifier()) {
            name = d.get(from).value();   // FOREIGN KEY name (...) without CONSTRAINT
        }
        Optional<List<String>> columns = columns(d, open);
        int references = open;
        while (references < d.size() && !word(d, references, "REFERENCES")) {
            references++;
        }
        int at = references + 1;
        if (columns.isEmpty() || at >= d.size() || !d.get(at).isIdentifier()) {
            return Optional.empty();
        }
        QualifiedName target;
        if (at + 2 < d.size() && d.get(at + 1).isSymbol(".") && d.get(at + 2).isIdentifier()) {
            target = QualifiedName.of(d.get(at).value(), d.get(at + 2).value());
            at += 3;
        } else {
            target = QualifiedName.of(database, d.get(at).value());
            at += 1;
        }
        Optional<List<String>> targetColumns = at < d.size() && d.get(at).isSymbol("(")
                ? columns(d, at) : Optional.empty();
        if (targetColumns.isEmpty() || targetColumns.get().size() != columns.get().size()) {
            return Optional.empty();
        }
        return Optional.of(new ForeignKey(name, columns.get(), target, targetColumns.get()));
    }

    /** The definitions between the outermost parentheses, each as its tokens, split at the top-level commas. */
    private static List<List<Token>> definitions(List<Token> tokens) {
        List<List<Token>> out = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        int depth = 0;
        for (Token t : tokens) {
            if (t.isSymbol("(")) {
                if (depth++ == 0) {
                    continue;
                }
            } else if (t.isSymbol(")")) {
                if (--depth == 0) {
                    break;
                }
            } else if (depth == 1 && t.isSymbol(",")) {
                out.add(current);
                current = new ArrayList<>();
                continue;
            }
            if (depth >= 1) {
                current.add(t);
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /** The first opening parenthesis at or after {@code from}, or the definition's end. */
    private static int open(List<Token> d, int from) {
        int i = from;
        while (i < d.size() && !d.get(i).isSymbol("(")) {
            i++;
        }
        return i;
    }

    /**
     * The column names in the parenthesised list at {@code open}: each part a name, with an optional prefix length
     * {@code (10)} and ASC or DESC; empty when a part is an expression or the list is missing.
     */
    private static Optional<List<String>> columns(List<Token> d, int open) {
        if (open >= d.size() || !d.get(open).isSymbol("(")) {
            return Optional.empty();
        }
        List<String> out = new ArrayList<>();
        boolean expectName = true;
        int depth = 0;
        for (int i = open + 1; i < d.size(); i++) {
            Token t = d.get(i);
            if (t.isSymbol("(")) {
                if (expectName) {
                    return Optional.empty();   // a functional key part: (expression)
                }
                depth++;
            } else if (t.isSymbol(")")) {
                if (depth-- == 0) {
                    return out.isEmpty() ? Optional.empty() : Optional.of(out);
                }
            } else if (depth == 0 && t.isSymbol(",")) {
                expectName = true;
            } else if (expectName) {
                if (!t.isIdentifier()) {
                    return Optional.empty();
                }
                out.add(t.value());
                expectName = false;
            }
        }
        return Optional.empty();
    }

    private static boolean word(List<Token> d, int i, String... words) {
        return i < d.size() && d.get(i).isWord(words);
    }
}
