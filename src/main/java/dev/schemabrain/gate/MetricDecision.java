package dev.schemabrain.gate;

import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;

/** What the metric gate decides for one get_metric request: the plan that may run, or the {@link Refused refusal}. */
public sealed interface MetricDecision permits MetricDecision.Plan, Refused {

    /**
     * The compiled statement, checked, and the database it runs on.
     *
     * @param compiler the compile's own compiler: the filter-typo check reads its bindings
     * @param pii      what the disclosure rules found: the categories the answer carries
     */
    record Plan(MetricRequest request, CompiledMetric compiled, MetricCompiler compiler, MetricPiiCheck.Verdict pii,
                QueryExecutor source) implements MetricDecision {
    }
}
