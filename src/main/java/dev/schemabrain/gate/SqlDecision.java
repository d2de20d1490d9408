package dev.schemabrain.gate;

import dev.schemabrain.sql.guard.BoundSelect;

import java.util.List;
import java.util.OptionalInt;

/** What the SQL gate decides for one statement: the plan that may run, or the {@link Refused refusal}. */
public sealed interface SqlDecision permits SqlDecision.Plan, Refused {

    /** What would run, and what the checks found. */
    record Plan(BoundSelect bound, String sql, List<Object> params, List<String> piiCategories,
                OptionalInt minGroupSize, List<String> rowFilters, String fingerprint,
                List<SqlRewrite.Rewritten> suppressedCount) implements SqlDecision {
    }
}
