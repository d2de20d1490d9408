package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * When a table's rows happened. Each date or time column gets a score: named for the table's own event (order_date on
 * orders) is best, then named for an event (issued_at, created_at); a generic date or timestamp next; a deadline or a later change
 * (due_date, shipped_date, canceled_at, return_date) last. Never one: a birth date (it describes a person, not
 * when the row happened, and it is PII) and bookkeeping stamps (updated_at, last_update), which move whenever
 * anyone edits the row. The default time axis of an entity's metrics.
 */
public final class EventTime {

    /** Named for the table's own event (order_date on orders, rental_date on rental). */
    public static final int OWN_EVENT = 4;
    /** Named for an event a row records. */
    public static final int EVENT = 3;
    /** A date or timestamp without a telling name. */
    public static final int GENERIC = 2;
    /** Some other date or time column. */
    public static final int OTHER = 1;
    /** A deadline or a later step of the row's life. */
    public static final int LATER = 0;

    private static final Pattern EVENT_WORD = Pattern.compile(
            "(^|_)(issued|ordered|order|placed|invoiced|invoice|occurred|created|create|started|start|sold|sale|paid|payment"
                    + "|rental|rented|purchased|purchase|transaction|booked|booking|viewed|visited|sent|received|hired|hire"
                    + "|joined|registered|signup|event|logged|posted)(_|$)");
    /** A date by its name; as_of and snapshot name the moment a row's levels were read (a position's as_of). */
    private static final Pattern GENERIC_WORD = Pattern.compile(
            "(^|_)(date|time|at|on|timestamp|day|when|ts|asof|snapshot)(_|$)|(^|_)as_of(_|$)");
    private static final Pattern LATER_WORD = Pattern.compile(
            "(^|_)(due|end|ends|ended|expires|expiry|expired|canceled|cancelled|deleted|resolved|closed|shipped|delivered"
                    + "|required|return|returned|finished|completed)(_|$)");
    private static final Pattern BOOKKEEPING = Pattern.compile("(^|_)(updated|update|modified|changed|synced|touched)(_|$)");
    private static final Pattern PERSONAL = Pattern.compile("(^|_)(birth|birthday|birthdate|dob|born)(_|$)");

    private EventTime() {
    }

    /** The column's score in its table, or empty when it is not a date or time or can never be an event time. */
    public static OptionalInt score(Table t, Column c) {
        OptionalInt score = score(c);
        if (score.isPresent() && score.getAsInt() >= GENERIC && namesTheTable(t, c)) {
            return OptionalInt.of(OWN_EVENT);
        }
        return score;
    }

    /** Whether a word of the column's name is the table's name, singular (order_date on orders). */
    private static boolean namesTheTable(Table t, Column c) {
        String[] tableWords = Identifiers.toSnakeCase(t.name().table()).toLowerCase(Locale.ROOT).split("_");
        String stem = singular(tableWords[tableWords.length - 1]);
        if (stem.length() < 3) {
            return false;
        }
        for (String word : Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT).split("_")) {
            if (singular(word).equals(stem)) {
                return true;
            }
        }
        return false;
    }

    private static String singular(String word) {
        return word.endsWith("ies") ? word.substring(0, word.length() - 3) + "y"
                : word.endsWith("s") && !word.endsWith("ss") ? word.substring(0, word.length() - 1) : word;
    }

    /** A stamp that moves whenever anyone edits the row (updated_at, last_update): neither an event nor a dimension. */
    static boolean isBookkeeping(Column c) {
        return BOOKKEEPING.matcher(Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT)).find();
    }

    /** The column's score by its name alone. */
    public static OptionalInt score(Column c) {
        if (TypeClass.of(c) != TypeClass.TEMPORAL) {
            return OptionalInt.empty();
        }
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        // When a row stopped being in use (delisted_at, offboarded_at) says nothing of when it happened.
        if (PERSONAL.matcher(name).find() || BOOKKEEPING.matcher(name).find() || RowSignals.endsLife(c.name())) {
            return OptionalInt.empty();
        }
        if (LATER_WORD.matcher(name).find()) {
            return OptionalInt.of(LATER);
        }
        if (EVENT_WORD.matcher(name).find()) {
            return OptionalInt.of(EVENT);
        }
        return OptionalInt.of(GENERIC_WORD.matcher(name).find() ? GENERIC : OTHER);
    }

    /** The table's columns that may be an event time, best first (then in table order). */
    public static List<Column> candidates(Table t) {
        return t.columns().stream().filter(c -> score(c).isPresent())
                .sorted(Comparator.comparingInt((Column c) -> -score(t, c).getAsInt()).thenComparingInt(Column::position))
                .toList();
    }

    /** The table's own best event time. */
    public static Optional<String> of(Table t) {
        return candidates(t).stream().findFirst().map(Column::name);
    }
}
