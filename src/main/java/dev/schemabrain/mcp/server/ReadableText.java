package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.audit.ClientText;

import java.util.List;

/**
 * The prose of an answer (an error's message, its recovery's rewrite, widening hint and fuzzy matches)
 * made safe to show, the way the audit makes a client's text safe: control characters (NUL, CR, LF, ESC),
 * bidirectional overrides and zero-width characters become '?'. A message may quote what the client sent
 * (a malformed name); it must not forge lines in a log or reorder text on the reader's screen. Not cut:
 * the tools bound their own quotes. JSON data (suggested_args) stays as sent: it is escaped as JSON.
 */
public final class ReadableText {

    /** Longer than any message; {@link ClientText} cuts at a bound, which prose here must not hit. */
    private static final int UNBOUNDED = Integer.MAX_VALUE - 1;
    private static final List<String> RECOVERY_TEXTS = List.of("suggested_rewrite", "widening_hint");

    private ReadableText() {
    }

    public static String clean(String text) {
        return ClientText.clean(text, UNBOUNDED);
    }

    /** Cleans an envelope's prose in place (the tree {@code Envelope.toTree()} made). */
    static void cleanEnvelope(JsonNode envelope) {
        if (!(envelope.get("error") instanceof ObjectNode error)) {
            return;
        }
        cleanField(error, "message");
        if (error.get("recovery") instanceof ObjectNode recovery) {
            RECOVERY_TEXTS.forEach(field -> cleanField(recovery, field));
            if (recovery.get("fuzzy_matches") instanceof ArrayNode matches) {
                for (int i = 0; i < matches.size(); i++) {
                    if (matches.get(i).isTextual()) {
                        matches.set(i, clean(matches.get(i).asText()));
                    }
                }
            }
        }
    }

    private static void cleanField(ObjectNode node, String field) {
        if (node.get(field) != null && node.get(field).isTextual()) {
            node.put(field, clean(node.get(field).asText()));
        }
    }
}
