package dev.schemabrain.semantic.compile;

import java.util.ArrayList;
import java.util.List;

/**
 * SQL text and its bound values together, in the order their placeholders appear: a fragment appended to
 * another brings its values along, so a statement nested in another (a metric inside a ratio) never has its
 * parameters counted by hand.
 */
final class SqlText {

    private final StringBuilder text = new StringBuilder();
    private final List<Object> params = new ArrayList<>();

    SqlText append(String sql) {
        text.append(sql);
        return this;
    }

    SqlText append(SqlText fragment) {
        text.append(fragment.text);
        params.addAll(fragment.params);
        return this;
    }

    /** Text holding {@code values.size()} placeholders, in order. */
    SqlText append(String sql, List<Object> values) {
        text.append(sql);
        params.addAll(values);
        return this;
    }

    boolean isEmpty() {
        return text.isEmpty();
    }

    String sql() {
        return text.toString();
    }

    List<Object> params() {
        return List.copyOf(params);
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
