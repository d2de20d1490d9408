package dev.schemabrain.llm;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The Anthropic Messages API with the {@code record_descriptions} tool forced. */
public final class AnthropicProvider extends HttpProvider {

    public static final String DEFAULT_URL = "https://api.anthropic.com";
    public static final String VERSION = "2023-06-01";
    static final String TOOL = "record_descriptions";

    AnthropicProvider(String baseUrl, String key, Duration timeout, Backoff backoff) {
        super(baseUrl, key, timeout, backoff);
    }

    @Override
    public String name() {
        return "anthropic";
    }

    @Override
    String path() {
        return "/v1/messages";
    }

    @Override
    Map<String, String> headers() {
        return key() == null ? Map.of("anthropic-version", VERSION) : Map.of("x-api-key", key(), "anthropic-version", VERSION);
    }

    static Map<String, Object> inputSchema() {
        return Map.of("type", "object", "required", List.of("table_description", "columns"), "properties", Map.of(
                "table_description", Map.of("type", "string"),
                "columns", Map.of("type", "array", "items", Map.of("type", "object", "required", List.of("name", "description"),
                        "properties", Map.of("name", Map.of("type", "string"), "description", Map.of("type", "string"))))));
    }

    @Override
    public LlmReply describe(String model, String system, String tableDocument, int maxTokens) throws LlmException {
        Map<String, Object> body = Map.of(
                "model", model,
                "max_tokens", maxTokens,
                "system", system,
                "tools", List.of(Map.of("name", TOOL, "description", "Record one description for the table and each of its columns.",
                        "input_schema", inputSchema())),
                "tool_choice", Map.of("type", "tool", "name", TOOL),
                "messages", List.of(Map.of("role", "user", "content", tableDocument)));
        JsonNode response = post(body);
        JsonNode input = null;
        for (JsonNode block : response.path("content")) {
            if ("tool_use".equals(block.path("type").asText()) && TOOL.equals(block.path("name").asText())) {
                input = block.get("input");
            }
        }
        JsonNode usage = response.path("usage");
        return reply(input, response, usage.path("input_tokens").asLong(), usage.path("output_tokens").asLong(), endpoint());
    }
}
