package dev.schemabrain.semantic.model;

import java.util.Objects;

/**
 * Who made a metric the operator's, and when: the reviewer {@code schemabrain apply} was run as, and the
 * ISO-8601 instant of the apply that last wrote the metric as confirmed or authored.
 */
public record MetricReview(String by, String at) {

    public MetricReview {
        Objects.requireNonNull(by, "by");
        Objects.requireNonNull(at, "at");
    }
}
