package dev.schemabrain.mcp.envelope;

import dev.schemabrain.error.DegradationReason;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.InferenceMethod;
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
 * The JSON Schema (2020-12) of {@link Envelope}, in two strengths.
 * <ul>
 *   <li>{@link #published()} is every tool's MCP {@code outputSchema}: an object with the envelope's eight
 *   fields, all required. It is repeated in tools/list for every tool (13 times), so it holds the shape
 *   only: statuses and the rest are in docs/envelope.md and the strict schema.</li>
 *   <li>{@link #strict} adds the closed sets (error kinds, inference methods, degradation reasons, the
 *   served tool names for hints and recoveries) and the status invariants as conditionals; the charter
 *   lint and the tests hold every answer to it.</li>
 * </ul>
 * Every envelope valid against the strict schema is valid against the published one.
 */
public final class EnvelopeSchema {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEMPLATE = load("envelope.schema.json");
    private static final String PUBLISHED = load("envelope.published.schema.json");

    private EnvelopeSchema() {
    }

    /** The outputSchema of every tool. */
    public static Map<String, Object> published() {
        return parse(PUBLISHED);
    }

    /** The full schema for a server offering {@code toolNames}. */
    public static Map<String, Object> strict(Collection<String> toolNames) {
        if (toolNames.isEmpty()) {
            throw new IllegalArgumentException("an envelope schema needs at least one tool name for follow_up_hints");
        }
        List<Object> reasons = withNull(Arrays.stream(DegradationReason.values()).map(DegradationReason::wireName).toList());
        String schema = TEMPLATE
                .replace("\"@ERROR_KINDS@\"", array(Arrays.stream(ErrorKind.values()).map(ErrorKind::wireName).toList()))
                .replace("\"@INFERENCE_METHODS@\"", array(Arrays.stream(InferenceMethod.values()).map(InferenceMethod::wireName).toList()))
                .replace("\"@DEGRADATION_REASONS@\"", array(reasons))
                .replace("\"@TOOL_NAMES@\"", array(List.copyOf(toolNames)))
                .replace("\"@TOOL_NAMES_OR_NULL@\"", array(withNull(toolNames)));
        return parse(schema);
    }

    private static Map<String, Object> parse(String schema) {
        try {
            return JSON.readValue(schema, new TypeReference<>() { });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the bundled envelope schema is not JSON", e);
        }
    }

    private static List<Object> withNull(Collection<String> values) {
        List<Object> list = new ArrayList<>(values);
        list.add(null);
        return list;
    }

    private static String array(List<?> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String load(String resource) {
        try (InputStream in = EnvelopeSchema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
