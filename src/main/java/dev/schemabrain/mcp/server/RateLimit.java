package dev.schemabrain.mcp.server;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many source calls (get_metric) one caller may make: {@code perSecond} sustained, with up to
 * {@code burst} at once after a quiet spell. {@link #OFF} lets every call through.
 */
public record RateLimit(double perSecond, int burst) {

    /** No limit: for benchmarks and operators who front the server with their own. */
    public static final RateLimit OFF = new RateLimit(Double.POSITIVE_INFINITY, Integer.MAX_VALUE);

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*/\\s*(s|sec|second|m|min|minute|h|hour)");

    public RateLimit {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException("a rate limit needs a positive rate and a burst of at least 1");
        }
    }

    /**
     * Parses {@code 2/s}, {@code 90/min}, {@code 1000/h} or {@code off}.
     *
     * @throws IllegalArgumentException with a sentence saying what is accepted
     */
    public static RateLimit parse(String text, int burst) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("off")) {
            return OFF;
        }
        Matcher m = RATE.matcher(t);
        if (!m.matches() || burst < 1) {
            throw new IllegalArgumentException("a rate is written N/s, N/min or N/h (or off), with a burst of at least 1");
        }
        double n = Double.parseDouble(m.group(1));
        double seconds = switch (m.group(2).charAt(0)) {
            case 'm' -> 60;
            case 'h' -> 3600;
            default -> 1;
        };
        if (n <= 0) {
            throw new IllegalArgumentException("a rate must be above zero; use off to turn the limit off");
        }
        return new RateLimit(n / seconds, burst);
    }

    public boolean isOff() {
        return Double.isInfinite(perSecond);
    }

    /** "2 calls per second", "90 calls per minute": in the largest unit where the count is whole. */
    public String describe() {
        if (isOff()) {
            return "no limit";
        }
        if (whole(perSecond * 60) && !whole(perSecond)) {
            return calls(perSecond * 60) + " per minute";
        }
        if (whole(perSecond * 3600) && !whole(perSecond * 60)) {
            return calls(perSecond * 3600) + " per hour";
        }
        return calls(perSecond) + " per second";
    }

    private static boolean whole(double v) {
        return Math.abs(v - Math.rint(v)) < 1e-9;
    }

    private static String calls(double v) {
        String n = whole(v) ? String.valueOf(Math.round(v)) : String.format(Locale.ROOT, "%.2f", v);
        return n + (n.equals("1") ? " call" : " calls");
    }
}
