package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;

import java.util.List;
import java.util.Map;

/**
 * The SDK's check of a tool's structuredContent against its outputSchema, for the one outputSchema our tools publish
 * (an object with the envelope's required fields), made on the answer as built: the SDK's default serialised every
 * answer to JSON text to validate it, 22% of the Java time of an HTTP call. Every answer is held to the strict
 * envelope schema by the tests; this check is exactly the published one.
 */
public final class EnvelopeOutputCheck implements JsonSchemaValidator {

    private static final Map<String, Object> PUBLISHED = EnvelopeSchema.published();
    @SuppressWarnings("unchecked")
    private static final List<String> REQUIRED = List.copyOf((List<String>) PUBLISHED.get("required"));

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        if (!PUBLISHED.equals(schema)) {
            return ValidationResponse.asInvalid("this tool's outputSchema is not the envelope's, the only one SchemaBrain publishes");
        }
        List<String> missing = missing(structuredContent);
        // The text is only read when a result has no content, and every result carries the envelope's text.
        return missing.isEmpty() ? ValidationResponse.asValid(null)
                : ValidationResponse.asInvalid("the answer is not an envelope: it lacks " + String.join(", ", missing));
    }

    private static List<String> missing(Object content) {
        if (content instanceof SerializedEnvelope serialized) {
            return missing(serialized.tree());
        }
        if (content instanceof JsonNode node && node.isObject()) {
            return REQUIRED.stream().filter(key -> !node.has(key)).toList();
        }
        if (content instanceof Map<?, ?> map) {
            return REQUIRED.stream().filter(key -> !map.containsKey(key)).toList();
        }
        return REQUIRED;
    }
}
