package dev.schemabrain.mcp.envelope;

import dev.schemabrain.error.ErrorKind;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Objects;

/**
 * What failed, why, and what to call next.
 *
 * @param piiCategories for refusals, only the blocked categories; empty otherwise
 */
public record ToolError(@JsonProperty("kind") ErrorKind kind,
                        @JsonProperty("message") String message,
                        @JsonProperty("recovery") Recovery recovery,
                        @JsonProperty("pii_categories") List<String> piiCategories) {

    public ToolError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(recovery, "recovery");
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("an error needs a message");
        }
        piiCategories = piiCategories == null ? List.of() : List.copyOf(piiCategories);
        if (!kind.isRefusal() && (recovery.suggestedRewrite() != null || recovery.wideningHint() != null)) {
            throw new IllegalArgumentException("suggested_rewrite and widening_hint are for refusal kinds only, not " + kind.wireName());
        }
    }

    public static ToolError of(ErrorKind kind, String message, Recovery recovery) {
        return new ToolError(kind, message, recovery, List.of());
    }
}
