package dev.schemabrain.mcp.envelope;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The next call that should work (charter principle 3). {@code suggestedRewrite} and
 * {@code wideningHint} belong to refusals only; {@link ToolError} enforces that.
 */
public record Recovery(@JsonProperty("suggested_tool") String suggestedTool,
                       @JsonProperty("suggested_args") Map<String, Object> suggestedArgs,
                       @JsonProperty("fuzzy_matches") List<String> fuzzyMatches,
                       @JsonProperty("suggested_rewrite") String suggestedRewrite,
                       @JsonProperty("widening_hint") String wideningHint) {

    public Recovery {
        suggestedArgs = suggestedArgs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(suggestedArgs));
        fuzzyMatches = fuzzyMatches == null ? List.of() : List.copyOf(fuzzyMatches);
        if (fuzzyMatches.size() > 3) {
            throw new IllegalArgumentException("at most 3 fuzzy matches, got " + fuzzyMatches.size());
        }
    }

    /** Call {@code tool} with {@code args} next. */
    public static Recovery call(String tool, Map<String, Object> args) {
        return new Recovery(tool, args, List.of(), null, null);
    }

    public Recovery withFuzzyMatches(List<String> matches) {
        return new Recovery(suggestedTool, suggestedArgs, matches, suggestedRewrite, wideningHint);
    }
}
