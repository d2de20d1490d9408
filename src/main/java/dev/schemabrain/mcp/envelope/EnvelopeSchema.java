package dev.schemabrain.mcp.envelope;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schema (2020-12) of {@link Envelope}, published as every tool's MCP {@code outputSchema}.
 * The closed sets (error kinds, inference methods, degradation reasons) come from the enums, and
 * {@code follow_up_hints} is restricted to the names of the tools actually served, so a client can
 * check that a hint names a real tool.
 */
public final class EnvelopeSchema {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEMPLATE = load();

    private EnvelopeSchema() {
    }

    /** The schema for a server offering {@code toolNames}. */
    public static Map<String, Object> forTools(Collection<String> toolNames) {
        if (toolNames.isEmpty()) {
            throw new IllegalArgumentException("an envelope schema needs at least one tool name for follow_up_hints");
        }
        List<Object> reasons = new ArrayList<>(Arrays.stream(DegradationReason.values()).map(DegradationReason::wireName).toList());
        reasons.add(null);
        String schema = TEMPLATE
                .replace("\"@ERROR_KINDS@\"", array(Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName).toList()))
                .replace("\"@INFERENCE_METHODS@\"", array(Arrays.stream(InferenceMethod.values()).map(InferenceMethod::wireName).toList()))
                .replace("\"@DEGRADATION_REASONS@\"", array(reasons))
                .replace("\"@TOOL_NAMES@\"", array(List.copyOf(toolNames)));
        try {
            return JSON.readValue(schema, new TypeReference<>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the bundled envelope schema is not JSON", e);
        }
    }

    private static String array(List<?> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String load() {
        try (InputStream in = EnvelopeSchema.class.getResourceAsStream("envelope.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("envelope.schema.json is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
