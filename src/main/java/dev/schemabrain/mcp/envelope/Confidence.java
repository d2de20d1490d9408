package dev.schemabrain.mcp.envelope;

import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.catalog.InferenceMethod;
import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * HIGH / MEDIUM / LOW, always derived (charter 1.2 principle 4): from the two-axis provenance of a
 * fact, or from a retrieval score. Never hard-coded by a tool.
 */
public enum Confidence {
    LOW, MEDIUM, HIGH;

    /**
     * confirmed → HIGH; applied + a trusted method → HIGH, other applied → MEDIUM; draft + a trusted
     * method → MEDIUM, other draft → LOW.
     */
    public static Confidence derive(ValidationState state, InferenceMethod method) {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(method, "method");
        return switch (state) {
            case CONFIRMED -> HIGH;
            case APPLIED -> method.trusted() ? HIGH : MEDIUM;
            case DRAFT -> method.trusted() ? MEDIUM : LOW;
            case REJECTED -> LOW;   // never served; here for completeness
        };
    }

    /** Retrieval confidence from a score in [0, 1]: ≥ 0.8 HIGH, ≥ 0.5 MEDIUM, else LOW. */
    public static Confidence fromScore(double score) {
        if (score >= 0.8) {
            return HIGH;
        }
        return score >= 0.5 ? MEDIUM : LOW;
    }

    /** A list's confidence is its worst row's; empty when the list is empty. */
    public static Optional<Confidence> worst(Collection<Confidence> rows) {
        return rows.stream().min(Comparator.naturalOrder());
    }
}
