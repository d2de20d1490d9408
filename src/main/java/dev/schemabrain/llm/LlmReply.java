package dev.schemabrain.llm;

import java.util.Map;

/**
 * What the model answered for one table, before validation, and what the call counted.
 *
 * @param model the model id the answer names (its top-level {@code model}), as sent: unchecked, or null
 */
public record LlmReply(String tableDescription, Map<String, String> columns, String model, long inputTokens,
                       long outputTokens) {

    public LlmReply {
        columns = Map.copyOf(columns);
    }
}
