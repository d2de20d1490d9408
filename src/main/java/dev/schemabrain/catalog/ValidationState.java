package dev.schemabrain.catalog;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * How validated a fact is: inferred (draft), applied from a project file, confirmed by a person, or rejected by a
 * person (kept so re-inference does not draft it again, and never served).
 */
public enum ValidationState {
    DRAFT, APPLIED, CONFIRMED, REJECTED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
