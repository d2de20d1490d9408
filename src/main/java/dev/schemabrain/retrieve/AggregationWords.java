package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Measure;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How people say an aggregation: the words a metric's document uses for its own, and the one a question asks for.
 * Only averages, counts and totals are read from a question, and what is measured where it says: units ("units
 * sold") or money that flowed ("revenue"). "highest" or "top" usually ranks groups of a total, it does not ask for a
 * maximum.
 */
final class AggregationWords {

    /** Checked in this order: "average number of seats" is an average, "total number of orders" a count. */
    private static final List<Asked> ASKED = List.of(
            new Asked(Aggregation.AVG, Pattern.compile("\\b(average|avg|mean|typical|typically)\\b")),
            new Asked(Aggregation.COUNT, Pattern.compile("\\b(how many|number of|count of|count)\\b")),
            new Asked(Aggregation.SUM, Pattern.compile("\\b(total|how much|sum of|sum)\\b")));

    private record Asked(Aggregation agg, Pattern words) {
    }

    /** Money that flowed ("revenue", "sales", "spent"): without another aggregation word, a total is asked. */
    private static final Pattern MONEY = Pattern.compile("\\b(" + MoneyWords.WORDS.replace(' ', '|') + ")\\b");
    /** Things that changed hands, counted out: "units sold", "how many did we sell", "quantity bought". */
    private static final Pattern SOLD = Pattern.compile("\\b(sell|sells|selling|sold|buy|buys|buying|bought|purchased)\\b");
    /** "units" said, not "unit": a unit price is no count of units. */
    private static final Pattern UNITS = Pattern.compile("\\b(units|quantity|quantities)\\b");
    /** A measure column counting units: a line's quantity, units, seats. */
    private static final Pattern UNITS_COLUMN = Pattern.compile("(^|_)(quantity|quantities|qty|units|seats)(_|$)");
    /** A level of units (in stock, on order, remaining): never what was sold. */
    private static final Pattern LEVEL = Pattern.compile("(^|_)(stock|on_order|on_hand|remaining|available|balance)(_|$)");

    /** What a question asks to be counted out beyond rows: units of something, or units that were sold. */
    enum Units { ANY, SOLD }

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

    /** The aggregation a question asks for, if it says; money that flowed is a total unless asked otherwise. */
    static Optional<Aggregation> asked(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        return ASKED.stream().filter(a -> a.words().matcher(q).find()).map(Asked::agg).findFirst()
                .or(() -> MONEY.matcher(q).find() ? Optional.of(Aggregation.SUM) : Optional.empty());
    }

    /**
     * Whether the question counts units rather than rows: "units", "quantity", or "how many" with a sale's verb
     * ("how many textbooks did we sell" sums the lines' quantity, it does not count textbooks).
     */
    static Optional<Units> units(String question) {
        String q = question.toLowerCase(Locale.ROOT);
        boolean said = UNITS.matcher(q).find();
        if (SOLD.matcher(q).find() && (said || q.contains("how many"))) {
            return Optional.of(Units.SOLD);
        }
        return said ? Optional.of(Units.ANY) : Optional.empty();
    }

    /** Whether a sum of this column answers units asked: a quantity of units, and for units sold not a level. */
    static boolean countsUnits(Units asked, String column) {
        String c = Identifiers.toSnakeCase(column).toLowerCase(Locale.ROOT);
        return UNITS_COLUMN.matcher(c).find() && (asked == Units.ANY || !LEVEL.matcher(c).find());
    }

    /** What a question asks of a measure: its aggregation, units counted out, money. */
    static Ask ask(String question) {
        return new Ask(asked(question), units(question), MONEY.matcher(question.toLowerCase(Locale.ROOT)).find());
    }

    record Ask(Optional<Aggregation> agg, Optional<Units> units, boolean money) {

        /**
         * How well a measure answers, in [0, 1]. A sum of units answers units asked fully; units sold are counted
         * by rows only where a row is one unit, so a count half answers them; money asked is no sum of units.
         */
        double fit(Measure measure) {
            boolean sumOfUnits = measure.agg() == Aggregation.SUM && measure.column() != null
                    && countsUnits(units.orElse(Units.ANY), measure.column());
            if (units.isPresent()) {
                if (sumOfUnits) {
                    return 1;
                }
                if (units.get() == Units.SOLD && (measure.agg() == Aggregation.COUNT || measure.agg() == Aggregation.COUNT_DISTINCT)) {
                    return 0.5;
                }
            } else if (money && sumOfUnits) {
                return 0;
            }
            return agg.map(a -> AggregationWords.fit(a, measure.agg())).orElse(0.0);
        }
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
