package dev.schemabrain.error;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * Why a tool answered through a fallback path (status {@code degraded}): the one list the compiler raises
 * and the envelope carries, as {@link ErrorKind} is for errors.
 */
public enum DegradationReason {
    FAN_OUT_JOIN, MISSING_ORDER_BY_WITH_LIMIT, TIME_DIMENSION_UNAVAILABLE,
    /** Charter 1.4: groups about fewer than K people were left out of the answer. */
    SMALL_GROUPS_SUPPRESSED,
    /**
     * A filter on an entity reached one-to-many (payments filtered on their refunds' dates) keeps the rows that have at
     * least one matching related row: the number answers "rows with such a related row", not a plain filter.
     */
    FILTERED_THROUGH_RELATED_ROWS;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
