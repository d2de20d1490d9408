package dev.schemabrain.metrictest;

import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test files' format: what a well-formed file becomes, and one sentence naming file, line and key for each way
 * a file can be wrong; through the command, exit 2 before any database is asked.
 */
class MetricTestReaderTest {

    @TempDir
    Path dir;

    @Test
    void aFileBecomesItsTestsWithGetMetricsRequestAndExactNumbers() throws Exception {
        MetricTestSuite suite = MetricTestReader.suite("""
                version: 1
                metric: revenue
                tests:
                  - name: march total
                    expect: {value: 12345.67}
                    tolerance: 0.005
                    request:
                      filters: [{column: invoice.invoice_date, op: gte, value: 2024-03-01}, {column: invoice.total, op: in, value: [1, 2.5]}]
                      via: [invoice_customer]
                  - name: by month
                    request: {group_by: [customer.country], time_grain: month, order_by: [{column: time_bucket, direction: desc}], limit: 50}
                    equals_sql: "SELECT 1 ; "
                    not_null: yes
                    no_fan_out: true
                """, "tests/revenue.yaml");
        assertEquals("revenue", suite.metric());
        assertEquals("tests/revenue.yaml:2", suite.where());
        MetricTest total = suite.tests().get(0);
        assertEquals("tests/revenue.yaml:4", total.where());
        assertEquals(new BigDecimal("12345.67"), total.expected().orElseThrow());
        assertEquals("12345.67", total.expected().orElseThrow().toPlainString(), "read as written, not as a double");
        assertEquals(new BigDecimal("0.005"), total.tolerance().orElseThrow());
        assertEquals("2024-03-01", total.request().filters().get(0).value(), "a date stays the text written");
        assertEquals(List.of(1L, 2.5), total.request().filters().get(1).value(), "numbers as a JSON call carries them");
        assertEquals(List.of("invoice_customer"), total.request().via());
        assertEquals(10_000, total.request().limit(), "without a limit a test sees the whole answer");
        assertFalse(total.notNull() || total.noFanOut() || total.equalsSql().isPresent());
        MetricTest byMonth = suite.tests().get(1);
        assertEquals("SELECT 1", byMonth.equalsSql().orElseThrow(), "a trailing ';' is dropped");
        assertEquals("month", byMonth.request().timeGrain());
        assertTrue(byMonth.request().orderBy().get(0).descending());
        assertEquals(50, byMonth.request().limit());
        assertTrue(byMonth.notNull() && byMonth.noFanOut());
    }

    static Stream<Arguments> mistakes() {
        String head = "version: 1\nmetric: revenue\ntests:\n";
        return Stream.of(
                Arguments.of(head + "  - name: t\n    not_null: true\n    tolerence: 0.1\n",
                        "tests/x.yaml:6: 'tests[0].tolerence' is not a known key; the keys are equals_sql, expect, name,"
                                + " no_fan_out, not_null, request, tolerance."),
                Arguments.of("version: 2\nmetric: revenue\ntests: []\n", "tests/x.yaml:1: 'version' must be 1."),
                Arguments.of("metric: revenue\ntests: []\n", "tests/x.yaml:1: 'version' is required."),
                Arguments.of(head.replace("tests:\n", "tests: []\n"), "tests/x.yaml:3: 'tests' is empty; write at least one test."),
                Arguments.of(head + "  - name: t\n", "tests/x.yaml:4: 'tests[0]' has no check; give it expect, equals_sql,"
                        + " not_null: true or no_fan_out: true."),
                Arguments.of(head + "  - not_null: true\n", "tests/x.yaml:4: 'tests[0].name' is required."),
                Arguments.of(head + "  - name: t\n    expect: {value: lots}\n", "tests/x.yaml:5: 'tests[0].expect.value' must be a"
                        + " number, such as 12345.67."),
                Arguments.of(head + "  - name: t\n    expect: {value: 1}\n    request: {time_grain: month}\n",
                        "tests/x.yaml:5: 'tests[0].expect' needs a request without group_by and time_grain, whose answer is"
                                + " one number; compare a grouped answer with equals_sql."),
                Arguments.of(head + "  - name: t\n    not_null: maybe\n", "tests/x.yaml:5: 'tests[0].not_null' must be true or false."),
                Arguments.of(head + "  - name: t\n    not_null: true\n    tolerance: 0.1\n",
                        "tests/x.yaml:6: 'tests[0].tolerance' has nothing to apply to; it widens expect and equals_sql."),
                Arguments.of(head + "  - name: t\n    expect: {value: 1}\n    tolerance: -1\n",
                        "tests/x.yaml:6: 'tests[0].tolerance' must be zero or more: it is the absolute difference allowed."),
                Arguments.of(head + "  - name: t\n    equals_sql: \"SELECT 1; DROP TABLE x\"\n",
                        "tests/x.yaml:5: 'tests[0].equals_sql' holds a ';'; write one SELECT without ';'."),
                Arguments.of(head + "  - name: t\n    not_null: true\n    request: {grup_by: [a.b]}\n",
                        "tests/x.yaml:6: 'tests[0].request' is not a get_metric request (unknown argument 'grup_by'); its"
                                + " arguments are group_by, filters, segments, default_segments, time_grain, time_dimension, via, order_by, limit."),
                Arguments.of(head + "  - name: t\n    not_null: true\n    request: {filters: [{column: a.b, op: like, value: x}]}\n",
                        "tests/x.yaml:6: 'tests[0].request' is not a get_metric request (argument 'filters[0].op' must be one"
                                + " of the enum values: eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null); its"
                                + " arguments are group_by, filters, segments, default_segments, time_grain, time_dimension, via, order_by, limit."),
                Arguments.of(head + "  - name: t\n    not_null: true\n  - name: t\n    no_fan_out: true\n",
                        "tests/x.yaml:6: the test 't' of revenue is already in tests/x.yaml:4; give each test of a metric its own name."),
                Arguments.of(head + "  - name: t\n    name: u\n    not_null: true\n",
                        "tests/x.yaml:5: 'tests[0].name' is given twice (first on line 4); keep one of them."),
                Arguments.of(head + "  - name: &n t\n    not_null: true\n",
                        "tests/x.yaml:4: 'tests[0].name' has an anchor (&n); anchors and aliases are not supported, write the value out."),
                Arguments.of(head + "  - name: !!binary dA==\n    not_null: true\n",
                        "tests/x.yaml:4: 'tests[0].name' has the tag tag:yaml.org,2002:binary; tags are not supported, write the plain value."),
                Arguments.of(head + "  - name: t\n\tnot_null: true\n", "tests/x.yaml:5: not valid YAML (a tab where YAML allows"
                        + " only spaces; indent with spaces); fix the syntax there."),
                Arguments.of("# nothing yet\n", "tests/x.yaml: the file is empty; it needs 'version: 1', 'metric' and 'tests'."),
                Arguments.of("- version: 1\n", "tests/x.yaml:1: the file must be a mapping with the keys metric, tests, version."));
    }

    @ParameterizedTest
    @MethodSource("mistakes")
    void aMistakeIsOneSentenceWithFileLineAndKey(String text, String message) throws Exception {
        Files.createDirectories(dir.resolve("tests"));
        Files.writeString(dir.resolve("tests/x.yaml"), text);
        SemanticProjectException e = assertThrows(SemanticProjectException.class, () -> MetricTestReader.read(dir));
        assertEquals(message, e.getMessage());
    }

    @Test
    void aBadFileIsExitTwoBeforeAnyDatabaseIsAsked() throws Exception {
        Files.createDirectories(dir.resolve("project/tests"));
        Files.writeString(dir.resolve("project/tests/revenue.yaml"), "version: 1\nmetric: revenue\ntests:\n  - name: t\n    nul: true\n");
        // The source and the store do not exist: the file is refused first.
        InProcessCli.Result r = InProcessCli.run("--store", dir.resolve("none.db").toString(), "test",
                dir.resolve("project").toString(), "--source", "sqlite:" + dir.resolve("none.sqlite"));
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertEquals("", r.stdout());
        assertEquals("schemabrain: tests/revenue.yaml:5: 'tests[0].nul' is not a known key; the keys are equals_sql, expect,"
                + " name, no_fan_out, not_null, request, tolerance.", r.stderr().strip());
    }

    @Test
    void aProjectWithoutTestsIsExitTwo() throws Exception {
        Files.createDirectories(dir.resolve("project/metrics"));
        InProcessCli.Result r = InProcessCli.run("--store", dir.resolve("none.db").toString(), "test",
                dir.resolve("project").toString(), "--source", "sqlite:" + dir.resolve("none.sqlite"));
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertEquals("schemabrain: There are no metric tests in " + dir.resolve("project/tests") + "; write "
                + dir.resolve("project/tests/METRIC.yaml") + " (see 'Testing metrics' in docs/semantic-layer.md).", r.stderr().strip());
    }
}
