package dev.schemabrain.llm;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** OpenAI-compatible chat completions in JSON mode (OpenAI, Ollama, vLLM, LM Studio). */
public final class OpenAiProvider extends HttpProvider {

    public static final String DEFAULT_URL = "https://api.openai.com";

    OpenAiProvider(String baseUrl, String key, Duration timeout, Backoff backoff) {
        super(baseUrl, key, timeout, backoff);
    }

    @Override
    public String name() {
        return "openai";
    }

    @Override
    String path() {
        return "/v1/chat/completions";
    }

    @Override
    Map<String, String> headers() {
        // A local server (Ollama) needs no key.
        return key() == null ? Map.of() : Map.of("authorization", "Bearer " + key());
    }

    @Override
    public LlmReply describe(String model, String system, String tableDocument, int maxTokens) throws LlmException {
        Map<String, Object> body = Map.of(
                "model", model,
                "max_tokens", maxTokens,
                "response_format", Map.of("type", "json_object"),
                "messages", List.of(
                        Map.of("role", "system", "content", system + " Answer with one JSON object: "
                                + "{\"table_description\": string, \"columns\": [{\"name\": string, \"description\": string}]}."),
                        Map.of("role", "user", "content", tableDocument)));
        JsonNode response = post(body);
        JsonNode usage = response.path("usage");
        long inputTokens = usage.path("prompt_tokens").asLong();
        long outputTokens = usage.path("completion_tokens").asLong();
        JsonNode content = response.path("choices").path(0).path("message").path("content");
        JsonNode input = null;
        if (content.isTextual()) {
            try {
                input = JSON.readTree(content.asText());
            } catch (IOException e) {
                throw new LlmException(endpoint() + " answered with a message that is not JSON", inputTokens, outputTokens);
            }
        }
        return reply(input, response, inputTokens, outputTokens, endpoint());
    }
}
