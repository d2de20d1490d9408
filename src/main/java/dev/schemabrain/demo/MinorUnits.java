package dev.schemabrain.demo;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Money kept in minor units, as the demo database keeps it ({@code total_cents}): get_metric answers the stored
 * integer and says "cents" only in the metric's name and description, so the demo labels the unit and shows the
 * amount in major units beside it rather than a bare 7025820.
 */
final class MinorUnits {

    private static final Pattern CENTS = Pattern.compile("(^|_)cents(_|$)");

    private MinorUnits() {
    }

    /** Whether {@code metric}'s values are in cents, as its name says. */
    static boolean inCents(String metric) {
        return CENTS.matcher(metric.toLowerCase(Locale.ROOT)).find();
    }

    /** "7025820 cents (70,258.20)". */
    static String label(long cents) {
        return cents + " cents (" + String.format(Locale.ROOT, "%,.2f", BigDecimal.valueOf(cents, 2)) + ")";
    }
}
