package dev.schemabrain.cli;

import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.metrictest.MetricTest;
import dev.schemabrain.metrictest.MetricTestReader;
import dev.schemabrain.metrictest.MetricTestRunner;
import dev.schemabrain.metrictest.MetricTestSuite;
import dev.schemabrain.metrictest.TestOutcome;
import dev.schemabrain.store.ServedSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code schemabrain test [DIR]}: the metric tests of DIR/tests against the source, as serve would answer them. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Run the metric tests in DIR/tests/*.yaml against the source: each test asks a stored metric"
                + " what get_metric would be asked and checks the answer (expect: a known value, equals_sql: the rows of"
                + " a SELECT, not_null, no_fan_out).",
                "Prints 'PASS metric: test' or 'FAIL metric: test — why' per test, then a summary. Exit 0 all pass, 1 a"
                        + " test failed, 2 error."})
final class TestCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "schemabrain",
            description = "The project directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--metric", paramLabel = "NAME", description = "Run only this metric's tests; repeat for more.")
    List<String> metrics;

    @Mixin
    SourceOptions source;

    @Option(names = "--statement-timeout-ms", defaultValue = "30000", paramLabel = "MS",
            description = "Stop a metric query or equals_sql after this long (default: ${DEFAULT-VALUE}).")
    int statementTimeoutMs;

    @Override
    public Integer call() throws SchemaBrainException {
        if (!source.given()) {
            throw new UserError("test needs the source the metrics run on: pass --source URL or --url-env VAR.");
        }
        if (statementTimeoutMs < 1) {
            throw new UserError("--statement-timeout-ms must be a positive number of milliseconds.");
        }
        List<MetricTestSuite> suites = selected(MetricTestReader.read(dir));
        SourceUrl url = source.resolve(main.env, main.err());
        SemanticStore.State state = SemanticStore.read(main.store());
        ServedSource.check(main.store(), Optional.of(url.sourceId()), Optional.of(url.displayUrl()));
        List<String> known = state.stored().metrics().stream().map(Metric::name).toList();
        for (MetricTestSuite suite : suites) {
            if (state.stored().metric(suite.metric()).isEmpty()) {
                throw new SemanticProjectException(suite.where() + ": the store has no metric '" + suite.metric() + "'"
                        + didYouMean(suite.metric(), known) + "; fix the name, or run 'schemabrain apply " + dir
                        + "' if the metric is new.");
            }
        }
        int passed = 0;
        int failed = 0;
        try (QueryExecutor executor = executor(url)) {
            MetricTestRunner runner = new MetricTestRunner(new MetricCompiler(state.catalog(), state.stored()), executor);
            for (MetricTestSuite suite : suites) {
                for (MetricTest test : suite.tests()) {
                    TestOutcome outcome = runner.run(test);
                    main.out().println(outcome.line());
                    main.out().flush();
                    if (outcome.passed()) {
                        passed++;
                    } else {
                        failed++;
                    }
                }
            }
        }
        long metricCount = suites.stream().map(MetricTestSuite::metric).distinct().count();
        main.out().println((passed + failed) + " test" + (passed + failed == 1 ? "" : "s") + " of " + metricCount + " metric"
                + (metricCount == 1 ? "" : "s") + ": " + passed + " passed, " + failed + " failed.");
        return failed == 0 ? 0 : 1;
    }

    /** The suites of the --metric names, or all; a name no test file covers is an error, not an empty run. */
    private List<MetricTestSuite> selected(List<MetricTestSuite> suites) throws UserError {
        if (metrics == null || metrics.isEmpty()) {
            return suites;
        }
        Set<String> tested = new LinkedHashSet<>();
        suites.forEach(s -> tested.add(s.metric()));
        for (String name : metrics) {
            if (!tested.contains(name)) {
                throw new UserError("--metric " + Main.shown(name) + " has no tests in " + dir.resolve("tests")
                        + didYouMean(name, List.copyOf(tested)) + "; the tested metrics are " + String.join(", ", tested) + ".");
            }
        }
        return suites.stream().filter(s -> metrics.contains(s.metric())).toList();
    }

    private static String didYouMean(String name, List<String> names) {
        List<String> close = Fuzzy.best(name, names, 1);
        return close.isEmpty() ? "" : " (did you mean '" + close.get(0) + "'?)";
    }

    /** One statement at a time, with the row cap of get_metric's largest answer. */
    private QueryExecutor executor(SourceUrl url) throws UserError {
        try {
            return new QueryExecutor(url, new ExecutorSettings(statementTimeoutMs, MetricRequest.MAX_LIMIT, 1, 2_000, null));
        } catch (IllegalArgumentException noEngine) {
            throw new UserError("test runs metrics on a database: pass a postgresql://, mysql://, mariadb:// or sqlite: source,"
                    + " not " + url.kind().name().toLowerCase(Locale.ROOT) + ".");
        }
    }
}
