package dev.schemabrain.metrictest;

import java.util.List;

/** What one test found: nothing (it passed), or each check that failed, in one sentence each. */
public record TestOutcome(MetricTest test, List<String> failures) {

    public TestOutcome {
        failures = List.copyOf(failures);
    }

    public boolean passed() {
        return failures.isEmpty();
    }

    /** {@code PASS revenue: march total}, or {@code FAIL revenue: march total — expected 1, got 2 (difference 1)}. */
    public String line() {
        String head = test.metric() + ": " + LocatedYaml.shown(test.name());
        return passed() ? "PASS " + head : "FAIL " + head + " — " + String.join("; ", failures);
    }
}
