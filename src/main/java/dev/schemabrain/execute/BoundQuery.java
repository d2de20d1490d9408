package dev.schemabrain.execute;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A statement our compiler wrote, with {@code ?} placeholders and the values bound to them. A
 * {@code ;} is refused as a second guard: one call is one statement.
 */
public record BoundQuery(String sql, List<Object> params) {

    public BoundQuery {
        Objects.requireNonNull(sql, "sql");
        if (sql.indexOf(';') >= 0) {
            throw new IllegalArgumentException("a bound query is one statement, without ';'");
        }
        // Not List.copyOf: a parameter may be null.
        params = Collections.unmodifiableList(new ArrayList<>(params));
    }
}
