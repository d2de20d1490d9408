package dev.schemabrain.gate;

import dev.schemabrain.sql.guard.Parsing;
import net.sf.jsqlparser.statement.select.Select;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shortcut without a re-parse renders what the full rewrite renders, and leaves the guard's tree as it was. */
class SqlRewriteLimitTest {

    @Test
    void theShortcutRendersWhatTheRewriteRendersAndLeavesTheTreeAlone() throws Exception {
        for (String sql : List.of(
                "SELECT a, count(*) FROM t GROUP BY a",
                "SELECT a FROM t ORDER BY a LIMIT 5",
                "SELECT a FROM t ORDER BY a LIMIT 5000",
                "SELECT a FROM t ORDER BY a LIMIT 5000 OFFSET 20",
                "SELECT a FROM t LIMIT 3 OFFSET 2",
                "SELECT a FROM t UNION ALL SELECT b FROM u",
                "WITH x AS (SELECT a FROM t LIMIT 9000) SELECT a FROM x",
                "SELECT \"a\".\"b\", sum(\"c\") AS \"s\" FROM \"public\".\"t\" AS \"a\" WHERE \"a\".\"d\" IN (1, 2) GROUP BY \"a\".\"b\" HAVING sum(\"c\") > 3")) {
            Select tree = (Select) Parsing.statement(sql);
            String before = tree.toString();
            SqlRewrite.Rewritten full = SqlRewrite.rewrite(before, s -> "\"" + s + "\"", List.of(), List.of(), 100);
            SqlRewrite.Rewritten shortcut = SqlRewrite.limited(tree, 100);
            assertEquals(full.sql(), shortcut.sql(), sql);
            assertEquals(List.of(), shortcut.params());
            assertEquals(before, tree.toString(), "the guard's tree is unchanged: " + sql);
        }
    }
}
