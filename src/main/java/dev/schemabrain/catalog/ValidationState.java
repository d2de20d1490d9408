package dev.schemabrain.catalog;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How validated a fact is: inferred (draft), applied from a project file, or confirmed by a person. */
public enum ValidationState {
    DRAFT, APPLIED, CONFIRMED;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
