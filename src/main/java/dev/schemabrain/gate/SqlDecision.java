package dev.schemabrain.gate;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.sql.guard.BoundSelect;

import java.util.List;
import java.util.Map;

/** What the SQL gate decides for one statement: the plan that may run, or the refusal. */
public sealed interface SqlDecision {

    /** What would run, and what the checks found. */
    record Plan(BoundSelect bound, String sql, List<Object> params, List<String> piiCategories,
                java.util.OptionalInt minGroupSize, List<String> rowFilters, String fingerprint,
                List<SqlRewrite.Rewritten> suppressedCount) implements SqlDecision {
    }

    /**
     * The gate's no: the kind, one sentence saying what went wrong and what to do, and the next call that works
     * ({@code tool} with {@code args}, close names, a rewrite, a widening hint), the PII categories involved and the tools
     * worth calling next. The MCP layer writes it as an error envelope; nothing here is wire format.
     */
    record Refused(ErrorKind kind, String message, String tool, Map<String, Object> args, List<String> fuzzyMatches,
                             String rewrite, String widening, List<String> piiCategories, List<String> followUps)
                implements SqlDecision {

        public Refused {
            args = Map.copyOf(args);
            fuzzyMatches = List.copyOf(fuzzyMatches);
            piiCategories = List.copyOf(piiCategories);
            followUps = List.copyOf(followUps);
        }
    }
}
