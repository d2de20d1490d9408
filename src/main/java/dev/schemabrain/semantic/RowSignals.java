package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a table's columns say about which of its rows a metric should count: a status whose settled values are the
 * real money (paid, succeeded, completed…), a test/sandbox flag and a soft-delete column whose rows are never
 * counted, and the currency its amounts are in. Read from the column's declared domain, else its indexed values,
 * else its samples; names decide which column is which.
 *
 * @param entity      the entity the columns belong to (filters and references are {@code entity.column})
 * @param status      the status column, if one is recognisable
 * @param exclusions  default filters every metric of the entity carries (test rows, soft-deleted rows)
 * @param currency    {@code entity.column} of the currency beside its amounts, if any
 * @param currencies  the currencies the column is known to hold (none when its values are unknown)
 */
record RowSignals(String entity, Optional<Status> status, List<Exclusion> exclusions, Optional<String> currency,
                  List<String> currencies) {

    RowSignals {
        exclusions = List.copyOf(exclusions);
        currencies = List.copyOf(currencies);
    }

    /**
     * A status column.
     *
     * @param values  the values known (declared, indexed or sampled), empty when none are
     * @param settled the values whose rows are real money or a completed transaction
     * @param live    the values of a thing that currently counts (active), for snapshots such as MRR
     * @param source  where the values came from, said in descriptions
     */
    record Status(String reference, List<String> values, List<String> settled, List<String> live, String source) {
        Status {
            values = List.copyOf(values);
            settled = List.copyOf(settled);
            live = List.copyOf(live);
        }

        List<String> others(List<String> kept) {
            return values.stream().filter(v -> !kept.contains(v)).toList();
        }
    }

    /**
     * A default filter and how a description says it: "test rows (bookings.is_test)".
     *
     * @param test whether it leaves out test rows, which make every row under them not real too (a retired unit's
     *             past leases stay real: only a test flag travels to the rows that reference it)
     */
    record Exclusion(Filter filter, String phrase, boolean test) {
    }

    private static final Pattern STATUS_NAME = Pattern.compile("(^|_)status(_|$)");
    /** Names that are a status only when their values say so (a customer's state is a region). */
    private static final Pattern MAYBE_STATUS_NAME = Pattern.compile("(^|_)(state|stage|outcome|result|disposition)(_|$)");
    /** The words of a status whose rows went through: paid, completed, and for goods shipped and on their way. */
    private static final Set<String> SETTLED = Set.of("paid", "settled", "complete", "completed", "succeeded", "success",
            "successful", "captured", "confirmed", "fulfilled", "delivered", "posted", "cleared", "collected", "processed",
            "shipped", "transit", "dispatched", "won");
    /** A word that undoes a settled one: "payment_failed", "not_paid", "refund_completed". */
    private static final Set<String> UNSETTLED = Set.of("failed", "fail", "failure", "void", "voided", "refund", "refunded",
            "reversed", "reversal", "cancelled", "canceled", "declined", "not", "pending", "draft", "error", "rejected",
            "chargeback", "disputed", "expired", "unpaid", "partially", "partial", "lost", "returned", "abandoned");
    private static final Set<String> LIVE = Set.of("active", "live", "current");
    private static final Pattern TEST_FLAG = Pattern.compile("(^|_)(test|testing|sandbox|demo|dummy|fake)(_|$)");
    private static final Pattern LIVE_FLAG = Pattern.compile("^(is_)?live(_?mode)?$");
    /**
     * A row that is no longer in use: deleted, or retired, delisted, offboarded (its own count leaves it out). Archived
     * is not among them: an archived tariff or project is history that still counts (the utility hold-out's rule).
     */
    private static final Pattern NO_LONGER = Pattern.compile(
            "(^|_)(deleted|removed|deletion|retired|delisted|offboarded|deactivated|decommissioned)(_|$)");
    private static final Pattern CURRENCY = Pattern.compile("(^|_)(currency|ccy)(_|$)");

    /**
     * Read once per entity and table object: a metric's compile asks on every get_metric (its entity's table and its
     * parents'), and a served catalog's tables never change; a reload brings new objects. Bounded, so the tables of
     * catalogs served before are not kept for long.
     */
    private static final Map<Seen, RowSignals> SEEN = new ConcurrentHashMap<>();
    private static final int SEEN_AT_MOST = 4_096;

    /** A table by identity: a record's equals and hash would walk every column on each lookup. */
    private record Seen(String entity, Table table) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Seen other && other.table == table && other.entity.equals(entity);
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(table) + entity.hashCode();
        }
    }

    static RowSignals of(String entity, Table t) {
        Seen key = new Seen(entity, t);
        RowSignals known = SEEN.get(key);
        if (known != null) {
            return known;
        }
        if (SEEN.size() >= SEEN_AT_MOST) {
            SEEN.clear();
        }
        RowSignals read = read(entity, t);
        SEEN.put(key, read);
        return read;
    }

    private static RowSignals read(String entity, Table t) {
        Optional<Status> status = Optional.empty();
        List<Exclusion> exclusions = new ArrayList<>();
        Optional<String> currency = Optional.empty();
        List<String> currencies = List.of();
        for (Column c : t.columns()) {
            String name = Identifiers.toSnakeCase(c.name());
            String ref = entity + "." + c.name();
            Optional<Status> s = status(ref, name, c);
            if (s.isPresent() && (status.isEmpty() || status.get().settled().isEmpty() && !s.get().settled().isEmpty())) {
                status = s;   // the status with settled values wins over payment_status-less siblings
            }
            exclusion(ref, name, c).ifPresent(exclusions::add);
            if (currency.isEmpty() && CURRENCY.matcher(name).find() && (isText(c) || isReference(t, c))) {
                currency = Optional.of(ref);
                currencies = known(c);
            }
        }
        return new RowSignals(entity, status, exclusions, currency, currencies);
    }

    private static Optional<Status> status(String ref, String name, Column c) {
        boolean named = STATUS_NAME.matcher(name).find();
        if (!named && !MAYBE_STATUS_NAME.matcher(name).find() || !isText(c)) {
            return Optional.empty();
        }
        List<String> values = known(c);
        List<String> settled = values.stream().filter(RowSignals::isSettled).toList();
        List<String> live = values.stream().filter(v -> LIVE.contains(Identifiers.toSnakeCase(v))).toList();
        boolean speaksOfMoney = values.stream().anyMatch(v -> Arrays.stream(Identifiers.toSnakeCase(v).split("_"))
                .anyMatch(w -> SETTLED.contains(w) || UNSETTLED.contains(w)));
        if (!named && !speaksOfMoney) {
            return Optional.empty();
        }
        String source = c.domain() != null ? "declared" : !c.values().isEmpty() ? "indexed" : values.isEmpty() ? "" : "sampled";
        return Optional.of(new Status(ref, values, settled, live, source));
    }

    /** A value that says the transaction went through: a settled word and no word undoing it. */
    static boolean isSettled(String value) {
        List<String> w = Arrays.asList(Identifiers.toSnakeCase(value).split("_"));
        return w.stream().anyMatch(SETTLED::contains) && w.stream().noneMatch(UNSETTLED::contains);
    }

    private static Optional<Exclusion> exclusion(String ref, String name, Column c) {
        TypeClass type = TypeClass.of(c);
        boolean flag = type == TypeClass.BOOLEAN || type == TypeClass.NUMBER && name.startsWith("is_");
        var ended = NO_LONGER.matcher(name);
        if (ended.find()) {
            String what = ended.group(2).equals("deleted") || ended.group(2).equals("deletion") ? "soft-deleted" : ended.group(2);
            if (type == TypeClass.TEMPORAL) {
                return Optional.of(new Exclusion(new Filter(ref, FilterOp.IS_NULL, null), what + " rows (" + ref + " set)", false));
            }
            if (flag) {
                return Optional.of(new Exclusion(new Filter(ref, FilterOp.EQ, no(type, false)), what + " rows (" + ref + ")", false));
            }
        }
        if (flag && TEST_FLAG.matcher(name).find()) {
            return Optional.of(new Exclusion(new Filter(ref, FilterOp.EQ, no(type, false)), "test rows (" + ref + ")", true));
        }
        if (flag && LIVE_FLAG.matcher(name).find()) {
            return Optional.of(new Exclusion(new Filter(ref, FilterOp.EQ, no(type, true)), "test-mode rows (" + ref + " false)", true));
        }
        return Optional.empty();
    }

    /** false / true as the column stores it: a boolean, or 0 / 1 in a number column. */
    private static Object no(TypeClass type, boolean value) {
        return type == TypeClass.BOOLEAN ? (Object) value : (Object) (value ? 1L : 0L);
    }

    private static List<String> known(Column c) {
        if (c.domain() != null && c.domain().categorical() && !c.domain().values().isEmpty()) {
            return c.domain().values();
        }
        return !c.values().isEmpty() ? c.values() : c.samples().stream().distinct().toList();
    }

    private static boolean isText(Column c) {
        TypeClass type = TypeClass.of(c);
        return type == TypeClass.TEXT || type == TypeClass.CATEGORICAL;
    }

    private static boolean isReference(Table t, Column c) {
        return t.foreignKeys().stream().anyMatch(fk -> fk.columns().contains(c.name()));
    }

    /** A column that says when a row stopped being in use (deleted_at, retired_at): never the time a row happened. */
    static boolean endsLife(String columnName) {
        return NO_LONGER.matcher(Identifiers.toSnakeCase(columnName)).find();
    }
}
