package dev.schemabrain.gate;

import dev.schemabrain.error.ErrorKind;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A gate's no: the kind, one sentence saying what went wrong and what to do, and the next call that works
 * ({@code tool} with {@code args}, close names, a rewrite, a widening hint), the PII categories involved and the tools
 * worth calling next. The MCP layer writes it as an error envelope; nothing here is wire format.
 */
public record Refused(ErrorKind kind, String message, String tool, Map<String, Object> args, List<String> fuzzyMatches,
                      String rewrite, String widening, List<String> piiCategories, List<String> followUps)
        implements SqlDecision, MetricDecision {

    public Refused {
        // In the order given: a suggested retry reads as the caller's own call.
        args = Collections.unmodifiableMap(new LinkedHashMap<>(args));
        fuzzyMatches = List.copyOf(fuzzyMatches);
        piiCategories = List.copyOf(piiCategories);
        followUps = List.copyOf(followUps);
    }

    /** A refusal whose next step is {@code tool} with {@code args}, and nothing more. */
    public static Refused of(ErrorKind kind, String message, String tool, Map<String, Object> args, List<String> followUps) {
        return new Refused(kind, message, tool, args, List.of(), null, null, List.of(), followUps);
    }
}
