package dev.schemabrain.retrieve;

import dev.schemabrain.semantic.model.Aggregation;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How people say an aggregation: the words a metric's document uses for its own, and the one a question asks for.
 * Only averages, counts and totals are read from a question: "highest" or "top" usually ranks groups of a total, it
 * does not ask for a maximum.
 */
final class AggregationWords {

    /** Checked in this order: "average number of seats" is an average, "total number of orders" a count. */
    private static final List<Asked> ASKED = List.of(
            new Asked(Aggregation.AVG, Pattern.compile("\\b(average|avg|mean|typical|typically)\\b")),
            new Asked(Aggregation.COUNT, Pattern.compile("\\b(how many|number of|count of|count)\\b")),
            new Asked(Aggregation.SUM, Pattern.compile("\\b(total|how much|sum of|sum)\\b")));

    private record Asked(Aggregation agg, Pattern words) {
    }

    /** A question bounded or broken down in time: a period, a calendar grain or its adverb, a year, "since", "trend". */
    private static final Pattern IN_TIME = Pattern.compile("\\b(today|yesterday|tomorrow|daily|weekly|monthly|quarterly"
            + "|yearly|annually|days?|weeks?|months?|quarters?|years?|ytd|mtd|since|trend|trends|over time"
            + "|january|february|march|april|(in|since|during|last) may|june|july|august|september|october|november|december"
            + "|(19|20)\\d\\d)\\b");

    /** A share of a whole: answered by a ratio metric. */
    private static final Pattern SHARE = Pattern.compile(
            "\\b(percentage|percent|share|proportion|fraction|ratio|rate|conversion)\\b|%");
    /** A total carried over time: answered by a cumulative metric. */
    private static final Pattern RUNNING = Pattern.compile(
            "\\b(running|cumulative|to date|year-to-date|month-to-date|ytd|mtd|so far|trailing|rolling)\\b");

    /** What a question asks of a metric beyond its aggregation: a share, or a running total. */
    enum Shape { SHARE, RUNNING }

    private AggregationWords() {
    }

    /** The aggregation in words, for a metric's document. */
    static String phrase(Aggregation agg) {
        return switch (agg) {
            case SUM -> "total";
            case COUNT -> "number of";
            case COUNT_DISTINCT -> "number of distinct";
            case AVG -> "average";
            case MIN -> "minimum";
            case MAX -> "maximum";
        };
    }

    /** The aggregation a question asks for, if it says. */
    static Optional<Aggregation> asked(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        return ASKED.stream().filter(a -> a.words().matcher(q).find()).map(Asked::agg).findFirst();
    }

    /** The shape a question asks for, if it says: a share ("what percentage") or a running total ("so far"). */
    static Optional<Shape> shape(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        return SHARE.matcher(q).find() ? Optional.of(Shape.SHARE)
                : RUNNING.matcher(q).find() ? Optional.of(Shape.RUNNING) : Optional.empty();
    }

    /** Whether a question asks about a period or a change over time, so the answer needs a time axis. */
    static boolean inTime(String question) {
        return IN_TIME.matcher(question.toLowerCase(Locale.ROOT)).find();
    }

    /**
     * How well a metric's aggregation answers the one asked for, in [0, 1]: "how many" is also half answered by a
     * total (a sum of quantities counts units).
     */
    static double fit(Aggregation asked, Aggregation metric) {
        if (asked == metric || (asked == Aggregation.COUNT && metric == Aggregation.COUNT_DISTINCT)) {
            return 1;
        }
        return asked == Aggregation.COUNT && metric == Aggregation.SUM ? 0.5 : 0;
    }
}
