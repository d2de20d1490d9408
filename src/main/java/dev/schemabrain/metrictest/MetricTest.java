package dev.schemabrain.metrictest;

import dev.schemabrain.semantic.compile.MetricRequest;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * One assertion an operator wrote beside a metric: the request to ask, and what its answer must satisfy. At
 * least one of the four checks is present.
 *
 * @param where     {@code tests/FILE.yaml:LINE} of the test, for messages
 * @param expected  the single value of an ungrouped answer
 * @param tolerance the absolute difference allowed, when the operator gave one
 * @param equalsSql a SELECT whose rows the answer must equal: the group keys in the answer's order, then the value
 */
public record MetricTest(String metric, String name, String where, MetricRequest request, Optional<BigDecimal> expected,
                         Optional<BigDecimal> tolerance, Optional<String> equalsSql, boolean notNull, boolean noFanOut) {

    public MetricTest {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(request, "request");
    }
}
