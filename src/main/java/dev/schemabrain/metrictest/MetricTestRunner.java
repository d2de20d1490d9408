package dev.schemabrain.metrictest;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs metric tests as serve would answer them: each request compiled from the stored model by get_metric's compiler
 * and run read-only by its executor, equals_sql through the same executor (read-only, with its statement timeout).
 * Small-cell suppression is off: a test checks the true number, which only the operator sees.
 */
public final class MetricTestRunner {

    private final MetricCompiler compiler;
    private final QueryExecutor executor;

    public MetricTestRunner(MetricCompiler compiler, QueryExecutor executor) {
        this.compiler = compiler;
        this.executor = executor;
    }

    /**
     * What {@code test} finds. A failing query is the test's failure; only a source that cannot be reached is thrown,
     * since then no test can say anything.
     */
    public TestOutcome run(MetricTest test) throws ExecutionException {
        List<String> failures = new ArrayList<>();
        CompiledMetric compiled;
        try {
            compiled = compiler.compile(test.request(), executor.dialect());
        } catch (CompileException e) {
            return new TestOutcome(test, List.of("the request does not compile: " + withoutStop(e.getMessage())));
        }
        if (test.noFanOut() && !compiled.fanOutJoins().isEmpty()) {
            failures.add("the request walks the fan-out join" + (compiled.fanOutJoins().size() == 1 ? " " : "s ")
                    + String.join(", ", compiled.fanOutJoins()) + ", which repeats the metric's rows");
        }
        if (test.expected().isEmpty() && test.equalsSql().isEmpty() && !test.notNull()) {
            return new TestOutcome(test, failures);
        }
        QueryExecutor.Result answer;
        try {
            answer = executor.execute(new BoundQuery(compiled.sql(), compiled.params()), compiled.limit());
        } catch (ExecutionException e) {
            failures.add("the metric's query failed: " + sentence(rethrowUnavailable(e)));
            return new TestOutcome(test, failures);
        }
        List<List<Object>> rows = answer.rows();
        int value = compiled.columns().size() - 1;
        test.expected().ifPresent(expected -> expect(expected, rows, value, test.tolerance()).ifPresent(failures::add));
        if (test.notNull()) {
            notNull(compiled.columns(), rows, value).ifPresent(failures::add);
        }
        if (test.equalsSql().isPresent()) {
            equalsSql(test, compiled, answer).ifPresent(failures::add);
        }
        return new TestOutcome(test, failures);
    }

    private static Optional<String> expect(BigDecimal expected, List<List<Object>> rows, int value, Optional<BigDecimal> tolerance) {
        if (rows.size() != 1) {
            return Optional.of("expected " + expected.toPlainString() + ", got " + rows.size() + " rows");
        }
        Object got = rows.get(0).get(value);
        Optional<BigDecimal> number = NumberMatch.of(got);
        if (number.isEmpty()) {
            return Optional.of("expected " + expected.toPlainString() + ", got " + RowComparison.text(got));
        }
        return NumberMatch.same(expected, number.get(), tolerance) ? Optional.empty()
                : Optional.of(NumberMatch.mismatch("expected", expected, "got", number.get()));
    }

    private static Optional<String> notNull(List<String> columns, List<List<Object>> rows, int value) {
        List<List<Object>> nulls = rows.stream().filter(r -> r.get(value) == null).toList();
        if (nulls.isEmpty()) {
            return Optional.empty();
        }
        if (value == 0) {
            return Optional.of("the value is NULL");
        }
        List<String> key = new ArrayList<>();
        for (int i = 0; i < value; i++) {
            key.add(columns.get(i) + "=" + RowComparison.text(nulls.get(0).get(i)));
        }
        return Optional.of("NULL in " + nulls.size() + " of " + rows.size() + " groups, first at " + String.join(", ", key));
    }

    private Optional<String> equalsSql(MetricTest test, CompiledMetric compiled, QueryExecutor.Result answer)
            throws ExecutionException {
        if (answer.truncated()) {
            return Optional.of("the metric's answer has more than " + compiled.limit() + " groups, so it cannot be compared"
                    + " whole; narrow the request with filters");
        }
        QueryExecutor.Result reference;
        try {
            reference = executor.execute(new BoundQuery(test.equalsSql().orElseThrow(), List.of()), MetricRequest.MAX_LIMIT);
        } catch (ExecutionException e) {
            return Optional.of("equals_sql failed: " + sentence(rethrowUnavailable(e)));
        }
        if (reference.truncated()) {
            return Optional.of("equals_sql returns more than " + MetricRequest.MAX_LIMIT + " rows, so it cannot be compared"
                    + " whole; narrow it with WHERE");
        }
        return RowComparison.compare(compiled.columns(), answer.rows(), reference.labels().size(), reference.rows(),
                test.tolerance());
    }

    private static ExecutionException rethrowUnavailable(ExecutionException e) throws ExecutionException {
        if (e.kind() == ErrorKind.SOURCE_UNAVAILABLE) {
            throw e;
        }
        return e;
    }

    /**
     * The database's own words for a statement it refused, and the operator's option for a timeout (the executor's
     * sentences advise agents: list_metrics, dry_run); else the executor's sentence without its full stop.
     */
    private String sentence(ExecutionException e) {
        String message = e.getMessage();
        if (e.engineDetail().isPresent()) {
            // The operator's own database, on the operator's terminal: its own words say most.
            return e.engineDetail().get();
        }
        if (e.kind() == ErrorKind.STATEMENT_TIMEOUT) {
            return "it ran longer than " + executor.settings().statementTimeoutMs() + " ms and was stopped (--statement-timeout-ms)";
        }
        return withoutStop(message);
    }

    /** A sentence about to be joined into the outcome's line. */
    private static String withoutStop(String message) {
        return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
    }
}
