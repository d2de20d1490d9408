package dev.schemabrain.mcp.args;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of checking call arguments: either the {@link Arguments} or the violations, never both.
 *
 * @param violations       seed 001 messages in a fixed order (declared arguments in declaration
 *                         order, then unknown arguments in the caller's order), at most
 *                         {@link #MAX_VIOLATIONS}; empty when valid
 * @param unknownArguments every argument name the schema doesn't declare, in the caller's order and
 *                         not truncated (for fuzzy "did you mean" matching); empty when valid
 * @param accepted         the declared arguments the caller gave whose values passed, by name (what a
 *                         corrected call can keep); empty when valid
 */
public record Validation(Arguments arguments, List<String> violations, List<String> unknownArguments,
                         Map<String, Object> accepted) {

    /** A caller who gets everything wrong gets the first few problems, not a wall of text. */
    public static final int MAX_VIOLATIONS = 5;

    public Validation {
        violations = violations == null ? List.of() : List.copyOf(violations.subList(0, Math.min(MAX_VIOLATIONS, violations.size())));
        unknownArguments = unknownArguments == null ? List.of() : List.copyOf(unknownArguments);
        accepted = accepted == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(accepted));
        if ((arguments == null) == violations.isEmpty()) {
            throw new IllegalArgumentException("a validation has either arguments or violations");
        }
    }

    static Validation valid(Arguments arguments) {
        return new Validation(arguments, List.of(), List.of(), Map.of());
    }

    static Validation invalid(List<String> violations, List<String> unknownArguments, Map<String, Object> accepted) {
        return new Validation(null, violations, unknownArguments, accepted);
    }

    public boolean isValid() {
        return arguments != null;
    }

    /** The validated arguments; asking for them after a failed validation is a programming error. */
    @Override
    public Arguments arguments() {
        if (arguments == null) {
            throw new IllegalStateException("invalid arguments: " + message());
        }
        return arguments;
    }

    /** The first violation, e.g. {@code missing required argument 'q'}. */
    public String firstMessage() {
        requireInvalid();
        return violations.get(0);
    }

    /** All reported violations joined with "; ", for an invalid_argument error message. */
    public String message() {
        requireInvalid();
        return String.join("; ", violations);
    }

    private void requireInvalid() {
        if (arguments != null) {
            throw new IllegalStateException("the arguments are valid; there is no message");
        }
    }
}
