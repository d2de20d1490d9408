package dev.schemabrain.retrieve.eval;

import java.util.List;

/**
 * One evaluation question.
 *
 * @param expected qualified names ({@code schema.table}) of the tables the answer needs
 * @param schema   the schema a per-schema run restricts the question to
 */
public record Question(String id, String text, List<String> expected, String schema) {

    public Question {
        expected = List.copyOf(expected);
        if (expected.isEmpty()) {
            throw new IllegalArgumentException("question " + id + " expects no table");
        }
    }
}
