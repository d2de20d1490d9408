package dev.schemabrain.gate;

import dev.schemabrain.error.ErrorKind;

import java.util.List;
import java.util.Map;

/**
 * The gate's no: the kind, one sentence saying what went wrong and what to do, and the next call that works
 * ({@code tool} with {@code args}, close names, a rewrite, a widening hint), the PII categories involved and the tools
 * worth calling next. The MCP layer writes it as an error envelope; nothing here is wire format.
 */
public record SqlRefusal(ErrorKind kind, String message, String tool, Map<String, Object> args, List<String> fuzzyMatches,
                         String rewrite, String widening, List<String> piiCategories, List<String> followUps)
        implements SqlDecision {

    public SqlRefusal {
        args = Map.copyOf(args);
        fuzzyMatches = List.copyOf(fuzzyMatches);
        piiCategories = List.copyOf(piiCategories);
        followUps = List.copyOf(followUps);
    }
}
