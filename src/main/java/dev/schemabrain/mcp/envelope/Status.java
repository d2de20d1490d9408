package dev.schemabrain.mcp.envelope;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** The outcome of a tool call (charter principle 1): never a boolean. */
public enum Status {
    /** Ran and returned the requested data. */
    SUCCESS,
    /** Ran, nothing matched; not an error. */
    EMPTY,
    /** Some data with a caveat, e.g. rows truncated at the row cap. */
    PARTIAL,
    /** Ran through a fallback path; {@code degradation_reason} says which. */
    DEGRADED,
    /** Could not process; {@code error} says why and what to do next. */
    ERROR,
    /** Ran cleanly and chose to refuse (PII, policy, allowlist). */
    REFUSED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The statuses that carry an error object and no data. */
    public boolean isFailure() {
        return this == ERROR || this == REFUSED;
    }
}
