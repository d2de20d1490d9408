package dev.schemabrain.metrictest;

import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.mcp.args.Validation;
import dev.schemabrain.mcp.tools.MetricArguments;
import dev.schemabrain.semantic.compile.MetricRequest;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads a project's metric tests, {@code DIR/tests/*.yaml}: per file {@code version: 1}, the {@code metric}, and
 * {@code tests}, each a name, a get_metric {@code request} and at least one check. Strict like the project's other
 * files: an unknown key, a wrong type or a request get_metric would refuse is one sentence naming file and line.
 */
public final class MetricTestReader {

    private static final Set<String> FILE_KEYS = Set.of("version", "metric", "tests");
    private static final Set<String> TEST_KEYS = Set.of("name", "request", "expect", "tolerance", "equals_sql", "not_null",
            "no_fan_out");
    private static final Set<String> EXPECT_KEYS = Set.of("value");

    private MetricTestReader() {
    }

    /** Every test file of the project, in file-name order. */
    public static List<MetricTestSuite> read(Path dir) throws SemanticProjectException {
        if (!Files.isDirectory(dir)) {
            throw new SemanticProjectException("There is no semantic project at " + dir + "; pass the folder that holds"
                    + " tests/ (the default is ./schemabrain).");
        }
        Path folder = dir.resolve("tests");
        List<Path> files;
        try (Stream<Path> list = Files.isDirectory(folder) ? Files.list(folder) : Stream.empty()) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".yaml") || p.getFileName().toString().endsWith(".yml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new SemanticProjectException("Cannot list " + folder + " (" + e.getMessage() + "); check its permissions.", e);
        }
        if (files.isEmpty()) {
            throw new SemanticProjectException("There are no metric tests in " + folder + "; write " + folder.resolve("METRIC.yaml")
                    + " (see 'Testing metrics' in docs/semantic-layer.md).");
        }
        List<MetricTestSuite> suites = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        for (Path file : files) {
            String where = dir.relativize(file).toString();
            MetricTestSuite suite = suite(text(file, where), where);
            for (MetricTest t : suite.tests()) {
                String earlier = names.putIfAbsent(t.metric() + "\n" + t.name(), t.where());
                if (earlier != null) {
                    throw new SemanticProjectException(t.where() + ": the test '" + LocatedYaml.shown(t.name()) + "' of "
                            + t.metric() + " is already in " + earlier + "; give each test of a metric its own name.");
                }
            }
            suites.add(suite);
        }
        return suites;
    }

    /** One file's tests; {@code where} names the file in messages. */
    static MetricTestSuite suite(String text, String where) throws SemanticProjectException {
        LocatedYaml root = LocatedYaml.parse(text, where);
        Map<String, LocatedYaml> file = root.mapping(FILE_KEYS);
        LocatedYaml version = required(file, "version", root);
        if (!"1".equals(version.text())) {
            throw version.fail("must be 1");
        }
        LocatedYaml metricNode = required(file, "metric", root);
        String metric = metricNode.text();
        List<LocatedYaml> items = required(file, "tests", root).list();
        if (items.isEmpty()) {
            throw file.get("tests").fail("is empty; write at least one test");
        }
        List<MetricTest> tests = new ArrayList<>();
        for (LocatedYaml item : items) {
            tests.add(test(metric, item));
        }
        return new MetricTestSuite(metric, metricNode.where(), tests);
    }

    private static MetricTest test(String metric, LocatedYaml item) throws SemanticProjectException {
        Map<String, LocatedYaml> keys = item.mapping(TEST_KEYS);
        String name = required(keys, "name", item).text().strip();
        if (name.isEmpty()) {
            throw keys.get("name").fail("is empty; name the test");
        }
        MetricRequest request = request(metric, keys.get("request"));
        Optional<BigDecimal> expected = Optional.empty();
        if (keys.containsKey("expect")) {
            LocatedYaml expect = keys.get("expect");
            expected = Optional.of(required(expect.mapping(EXPECT_KEYS), "value", expect).number());
            if (!request.groupBy().isEmpty() || request.timeGrain() != null) {
                throw expect.fail("needs a request without group_by and time_grain, whose answer is one number; compare a"
                        + " grouped answer with equals_sql");
            }
        }
        Optional<String> sql = keys.containsKey("equals_sql") ? Optional.of(statement(keys.get("equals_sql"))) : Optional.empty();
        Optional<BigDecimal> tolerance = Optional.empty();
        if (keys.containsKey("tolerance")) {
            LocatedYaml node = keys.get("tolerance");
            BigDecimal t = node.number();
            if (t.signum() < 0) {
                throw node.fail("must be zero or more: it is the absolute difference allowed");
            }
            if (expected.isEmpty() && sql.isEmpty()) {
                throw node.fail("has nothing to apply to; it widens expect and equals_sql");
            }
            tolerance = Optional.of(t);
        }
        boolean notNull = keys.containsKey("not_null") && keys.get("not_null").bool();
        boolean noFanOut = keys.containsKey("no_fan_out") && keys.get("no_fan_out").bool();
        if (expected.isEmpty() && sql.isEmpty() && !notNull && !noFanOut) {
            throw item.fail("has no check; give it expect, equals_sql, not_null: true or no_fan_out: true");
        }
        return new MetricTest(metric, name, item.where(), request, expected, tolerance, sql, notNull, noFanOut);
    }

    /**
     * get_metric's arguments, checked by get_metric's own declaration. Without a limit the test asks for the most
     * get_metric gives, so it sees the whole answer rather than the first thousand groups.
     */
    private static MetricRequest request(String metric, LocatedYaml node) throws SemanticProjectException {
        Map<String, Object> args = new LinkedHashMap<>();
        if (node != null) {
            if (!(node.plain() instanceof Map<?, ?> given)) {
                throw node.fail("must be a mapping of get_metric's arguments: " + String.join(", ", MetricArguments.SCHEMA.args().keySet()));
            }
            given.forEach((k, v) -> args.put((String) k, v));
        }
        args.putIfAbsent("limit", MetricRequest.MAX_LIMIT);
        Validation checked = MetricArguments.SCHEMA.validate(args);
        if (!checked.isValid()) {
            throw node.fail("is not a get_metric request (" + checked.message() + "); its arguments are "
                    + String.join(", ", MetricArguments.SCHEMA.args().keySet()));
        }
        return MetricArguments.request(metric, checked.arguments());
    }

    /** One SELECT: a trailing ';' is dropped, any other is refused (the executor runs one statement). */
    private static String statement(LocatedYaml node) throws SemanticProjectException {
        String sql = node.text().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (sql.isEmpty()) {
            throw node.fail("is empty; write the SELECT whose rows the metric must equal");
        }
        if (sql.indexOf(';') >= 0) {
            throw node.fail("holds a ';'; write one SELECT without ';'");
        }
        return sql;
    }

    private static LocatedYaml required(Map<String, LocatedYaml> keys, String key, LocatedYaml parent)
            throws SemanticProjectException {
        LocatedYaml value = keys.get(key);
        if (value == null) {
            throw parent.missing(key);
        }
        return value;
    }

    private static String text(Path file, String where) throws SemanticProjectException {
        try {
            if (Files.size(file) > LocatedYaml.MAX_CHARS) {
                throw new SemanticProjectException(where + ": the file is over 1 MiB; a test file holds a few tests, so split it.");
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw new SemanticProjectException(where + ": the file is not UTF-8 text; save it as UTF-8.", e);
        } catch (IOException e) {
            throw new SemanticProjectException(where + ": cannot be read (" + e.getMessage() + "); check its permissions.", e);
        }
    }
}
