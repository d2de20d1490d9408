package dev.schemabrain.execute;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A statement our compiler wrote, with {@code ?} placeholders and the values bound to them. A {@code ;} between
 * tokens is refused as a second guard: one call is one statement. One inside a string literal or a quoted name is
 * data ({@code name = 'a;b'}).
 */
public record BoundQuery(String sql, List<Object> params) {

    public BoundQuery {
        Objects.requireNonNull(sql, "sql");
        if (sql.indexOf(';') >= 0 && separatesStatements(sql)) {
            throw new IllegalArgumentException("a bound query is one statement, without ';'");
        }
        // Not List.copyOf: a parameter may be null.
        params = Collections.unmodifiableList(new ArrayList<>(params));
    }

    /**
     * Whether a {@code ;} stands outside literals under either reading of a backslash in a literal (MySQL's escape,
     * or the standard's plain character): the engine reads it one of the two ways, and neither may see two statements.
     */
    private static boolean separatesStatements(String sql) {
        boolean lexed = false;
        for (boolean backslashEscapes : new boolean[]{false, true}) {
            try {
                if (SqlLexer.tokenize(sql, backslashEscapes).stream().anyMatch(t -> t.isSymbol(";"))) {
                    return true;
                }
                lexed = true;
            } catch (SqlSyntaxException unclosed) {
                // A literal this reading cannot close: the other reading decides.
            }
        }
        return !lexed;
    }
}
