package dev.schemabrain.metrictest;

import java.util.List;

/**
 * The tests of one file: all about one metric.
 *
 * @param where {@code tests/FILE.yaml:LINE} of its {@code metric} key, for a metric the store does not have
 */
public record MetricTestSuite(String metric, String where, List<MetricTest> tests) {

    public MetricTestSuite {
        tests = List.copyOf(tests);
    }
}
