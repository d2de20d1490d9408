package dev.schemabrain.pii;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A use of one column the operator permits in {@code pii_policy.yaml}, lifting one
 * disclosure rule for that column only: for a tagged column one of the metric rules, for an untagged one what
 * {@link ChannelPolicy} withholds by default (samples of free text, value-index entries). An allowance never lifts the block list: a blocked category
 * (the catastrophic floor included) is refused in every role whatever is allowed.
 */
public enum Allowance {
    /** group_by over the column ("revenue by employee last name"). */
    GROUP_BY,
    /** eq, ne, in and not_in filters on a direct identifier (membership tests). */
    FILTER_EQ,
    /** lt, lte, gt and gte filters (range tests, a binary-search oracle). */
    FILTER_RANGE,
    /** MIN or MAX over the column (one person's value). */
    MIN_MAX,
    /** The column as a time dimension (each bucket a personal date). */
    TIME_DIMENSION,
    /** Sample values of an untagged free-text column ({@link FreeText}); a tagged column never keeps samples. */
    SAMPLES,
    /** Value-index entries of an untagged free-text column or of a text column of a person table ({@link ChannelPolicy}). */
    VALUE_INDEX;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the value and the allowed ones */
    public static Allowance fromWireName(String name) {
        for (Allowance a : values()) {
            if (a.wireName().equals(name)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown allowance '" + name + "'; the allowances are "
                + Arrays.stream(values()).map(Allowance::wireName).collect(Collectors.joining(", ")));
    }
}
