package dev.schemabrain.llm;

/** One wire format (SPEC §10.6): a table document in, its descriptions out. */
public interface LlmProvider {

    /** anthropic | openai, as the ledger records it. */
    String name();

    /** The endpoint without credentials, for messages. */
    String endpoint();

    LlmReply describe(String model, String system, String tableDocument) throws LlmException;
}
