package dev.schemabrain.llm;

/** One wire format: a table document in, its descriptions out. */
public interface LlmProvider {

    /** anthropic | openai, as the ledger records it. */
    String name();

    /** The endpoint without credentials, for messages. */
    String endpoint();

    /** @param maxTokens the most output tokens the answer may take: what the cost cap reserves for it */
    LlmReply describe(String model, String system, String tableDocument, int maxTokens) throws LlmException;
}
