package dev.schemabrain.llm;

import java.util.Map;

/** What the model answered for one table, before validation, and what the call counted. */
public record LlmReply(String tableDescription, Map<String, String> columns, long inputTokens, long outputTokens) {

    public LlmReply {
        columns = Map.copyOf(columns);
    }
}
