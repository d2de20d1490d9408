package dev.schemabrain.execute;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A statement our compiler or the SQL gate wrote, with {@code ?} placeholders and the values bound to them. A
 * {@code ;} outside a quoted literal or name is refused as a second guard: one call is one statement.
 */
public record BoundQuery(String sql, List<Object> params) {

    public BoundQuery {
        Objects.requireNonNull(sql, "sql");
        if (endsAStatement(sql)) {
            throw new IllegalArgumentException("a bound query is one statement, without ';'");
        }
        // Not List.copyOf: a parameter may be null.
        params = Collections.unmodifiableList(new ArrayList<>(params));
    }

    /**
     * Whether a {@code ;} stands outside {@code '...'}, {@code "..."} and back-quoted text (quotes doubled inside, as
     * SchemaBrain writes them); an unclosed quote counts as one, since nothing we write leaves one open.
     */
    static boolean endsAStatement(String sql) {
        char open = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (open != 0) {
                if (c == open) {
                    if (i + 1 < sql.length() && sql.charAt(i + 1) == open) {
                        i++;
                    } else {
                        open = 0;
                    }
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                open = c;
            } else if (c == ';') {
                return true;
            }
        }
        return open != 0;
    }
}
