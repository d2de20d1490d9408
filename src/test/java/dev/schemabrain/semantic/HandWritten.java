package dev.schemabrain.semantic;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricRequest;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The comparison every acceptance test of the compiler makes: a metric compiled and run on a real database beside
 * hand-written SQL on the same database, row for row, in a form both engines agree on.
 */
final class HandWritten {

    /** How a test compiles a request, given the executor of the database it runs on. */
    @FunctionalInterface
    interface Compiler {
        CompiledMetric compile(MetricRequest request, QueryExecutor executor) throws CompileException;
    }

    private HandWritten() {
    }

    /** Numbers to six decimals (AVG's scale differs by engine), dates as ISO days. */
    static List<List<String>> canonical(List<List<Object>> rows) {
        return form(rows, v -> v instanceof Number n ? new BigDecimal(n.toString()).setScale(6, RoundingMode.HALF_UP).toPlainString()
                : v instanceof String s && s.matches("\\d{4}-\\d{2}-\\d{2}.*") ? s.substring(0, 10) : String.valueOf(v));
    }

    /** Numbers without trailing zeros, everything else as its text (times keep their time of day). */
    static List<List<String>> text(List<List<Object>> rows) {
        return form(rows, v -> v instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString()
                : String.valueOf(v));
    }

    private static List<List<String>> form(List<List<Object>> rows, Function<Object, String> value) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(row.stream().map(value).toList());
        }
        return out;
    }

    /**
     * Runs the compiled metric and the hand-written SQL on {@code url}; their rows, in {@code form}, must be equal and
     * the hand-written answer not empty. Answers the compiled metric.
     */
    static CompiledMetric assertSameRows(String url, Compiler compiler, MetricRequest request, String handWritten,
                                         Function<List<List<Object>>, List<List<String>>> form) throws Exception {
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults())) {
            CompiledMetric m = compiler.compile(request, ex);
            QueryExecutor.Result got;
            try {
                got = ex.execute(new BoundQuery(m.sql(), m.params()), m.limit());
            } catch (ExecutionException e) {
                throw new AssertionError(m.sql() + " refused: " + e.getMessage(), e);
            }
            List<List<String>> hand = form.apply(ex.execute(new BoundQuery(handWritten, List.of()), 10_000).rows());
            assertFalse(hand.isEmpty(), handWritten);
            assertEquals(hand, form.apply(got.rows()), m.sql() + " " + m.params());
            assertFalse(got.truncated(), m.sql());
            return m;
        }
    }

    /** The rows of plain SQL, in the canonical form. */
    static List<List<String>> rows(String url, String sql) throws Exception {
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(url), ExecutorSettings.defaults())) {
            return canonical(ex.execute(new BoundQuery(sql, List.of()), 10_000).rows());
        }
    }
}
