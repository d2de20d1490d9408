package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code check} reports: tables and columns the live source has and the store does not (added), the store
 * has and the source no longer does (removed), and columns whose type changed. Descriptions, samples and row
 * counts are not drift: a re-index refreshes them anyway.
 */
public final class SchemaDrift {

    public enum Kind { ADDED, REMOVED, RETYPED }

    /** One difference; {@code column} is empty for a whole table. */
    public record Change(Kind kind, QualifiedName table, Optional<String> column, String storedType, String liveType) {

        @Override
        public String toString() {
            // A name is the database's text: a control character in it must not start a line of its own.
            String what = column.map(c -> "column " + table + "." + c).orElse("table " + table)
                    .replaceAll("[\\p{Cntrl}\\p{Zl}\\p{Zp}]", "?");
            return switch (kind) {
                case ADDED -> "+ " + what + (liveType == null ? "" : " (" + liveType + ")");
                case REMOVED -> "- " + what;
                case RETYPED -> "~ " + what + ": " + storedType + " -> " + liveType;
            };
        }
    }

    private SchemaDrift() {
    }

    public static List<Change> between(Catalog stored, Catalog live) {
        Map<QualifiedName, Table> before = stored.byName();
        Map<QualifiedName, Table> after = live.byName();
        List<Change> out = new ArrayList<>();
        for (Table t : after.values()) {
            Table old = before.get(t.name());
            if (old == null) {
                out.add(new Change(Kind.ADDED, t.name(), Optional.empty(), null, null));
                continue;
            }
            for (Column c : t.columns()) {
                Optional<Column> was = old.column(c.name());
                if (was.isEmpty()) {
                    out.add(new Change(Kind.ADDED, t.name(), Optional.of(c.name()), null, c.dataType()));
                } else if (!was.get().dataType().equalsIgnoreCase(c.dataType())) {
                    out.add(new Change(Kind.RETYPED, t.name(), Optional.of(c.name()), was.get().dataType(), c.dataType()));
                }
            }
            for (Column c : old.columns()) {
                if (t.column(c.name()).isEmpty()) {
                    out.add(new Change(Kind.REMOVED, t.name(), Optional.of(c.name()), c.dataType(), null));
                }
            }
        }
        for (Table t : before.values()) {
            if (!after.containsKey(t.name())) {
                out.add(new Change(Kind.REMOVED, t.name(), Optional.empty(), null, null));
            }
        }
        return out;
    }
}
