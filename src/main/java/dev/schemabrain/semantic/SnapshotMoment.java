package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.semantic.model.NonAdditive;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a table's date is the moment of a snapshot (a balance per account per day, stock per product per site per
 * day), and of what: then a level is summed across the things at each one's last moment in a period, never across
 * moments. The schema says so in one of two ways:
 * <ul>
 * <li>the date is part of a key with other columns (account_id, balance_date): those columns name the thing;</li>
 * <li>the date or the table is named for a snapshot (as_of, snapshot_date, daily_balances): the thing is what the
 *     table's required foreign keys point at (each customer's balance), or the whole table when it has none.</li>
 * </ul>
 * Any other dated table (orders with an amount outstanding) records things at their current level, not moments.
 */
final class SnapshotMoment {

    /** A column named for the moment a level was read. */
    private static final Pattern MOMENT = Pattern.compile(
            "^(as_?of|asof)(_|$)|(^|_)(as_of|snapshot|snapshotted|snap|valuation|reporting|census|eod)(_|$)");
    /** A table named for levels read at moments. */
    private static final Pattern TABLE = Pattern.compile(
            "(^|_)(snapshot|snapshots|daily|weekly|monthly|eod|history|histories)(_|$)");

    private SnapshotMoment() {
    }

    /**
     * @param column the table's own time column (the metric's time dimension)
     * @return the non_additive a level on {@code table} takes, or empty when the column is not a snapshot's moment
     */
    static Optional<NonAdditive> of(Table table, String column) {
        Optional<Column> moment = table.column(column).filter(c -> TypeClass.of(c) == TypeClass.TEMPORAL);
        if (moment.isEmpty()) {
            return Optional.empty();
        }
        List<List<String>> keys = new ArrayList<>();
        keys.add(table.primaryKey());
        table.uniqueConstraints().stream().map(UniqueConstraint::columns).forEach(keys::add);
        for (List<String> key : keys) {
            if (key.size() > 1 && key.contains(column)) {
                return Optional.of(last(column, key.stream().filter(k -> !k.equals(column)).toList()));
            }
        }
        if (!MOMENT.matcher(words(column)).find() && !TABLE.matcher(words(table.name().table())).find()) {
            return Optional.empty();
        }
        List<String> things = new ArrayList<>();
        for (ForeignKey fk : table.foreignKeys()) {
            boolean required = fk.columns().stream().allMatch(k -> table.column(k).map(c -> !c.nullable()).orElse(false));
            if (required) {
                fk.columns().stream().filter(k -> !things.contains(k)).forEach(things::add);
            }
        }
        return Optional.of(last(column, things));
    }

    private static NonAdditive last(String column, List<String> things) {
        return new NonAdditive(column, NonAdditive.Window.LAST, things);
    }

    private static String words(String name) {
        return Identifiers.toSnakeCase(name).toLowerCase(Locale.ROOT);
    }
}
