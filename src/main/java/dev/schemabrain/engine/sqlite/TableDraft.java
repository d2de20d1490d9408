package dev.schemabrain.engine.sqlite;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One table while the pragma queries fill it in. Foreign keys stay raw until every table is known,
 * because SQLite may leave the referenced columns implicit (the parent's primary key) and spells
 * the parent's name however the DDL did.
 */
final class TableDraft {

    private static final Logger LOG = LoggerFactory.getLogger(TableDraft.class);

    /** One pragma_foreign_key_list id; {@code to} entries are null when the DDL named no columns. */
    private record RawForeignKey(String parent, List<String> from, List<String> to) {
    }

    private final String name;
    private final TableKind kind;
    private final List<Column> columns = new ArrayList<>();
    private final Map<Integer, String> primaryKey = new TreeMap<>();
    private final Map<Integer, RawForeignKey> foreignKeys = new LinkedHashMap<>();
    private final Map<String, List<String>> uniques = new LinkedHashMap<>();
    private Long rowEstimate;

    TableDraft(String name, TableKind kind) {
        this.name = name;
        this.kind = kind;
    }

    String name() {
        return name;
    }

    void rowEstimate(Long estimate) {
        rowEstimate = estimate;
    }

    /** @param keyPosition 1-based position in the primary key, 0 when not part of it */
    void addColumn(Column column, int keyPosition) {
        columns.add(column);
        if (keyPosition > 0) {
            primaryKey.put(keyPosition, column.name());
        }
    }

    void addForeignKeyColumn(int id, String parent, String from, String to) {
        RawForeignKey fk = foreignKeys.computeIfAbsent(id, k -> new RawForeignKey(parent, new ArrayList<>(), new ArrayList<>()));
        fk.from().add(from);
        fk.to().add(to);
    }

    /** A null column is an expression: such an index constrains no column set, so it is dropped at build. */
    void addUniqueColumn(String index, String column) {
        uniques.computeIfAbsent(index, k -> new ArrayList<>()).add(column);
    }

    /** @param tables every draft by lower-cased name, to resolve foreign-key parents */
    Table build(Function<String, Optional<TableDraft>> tables) {
        List<ForeignKey> fks = new ArrayList<>();
        foreignKeys.values().forEach(raw -> resolve(raw, tables).ifPresent(fks::add));
        List<UniqueConstraint> uqs = new ArrayList<>();
        uniques.forEach((index, cols) -> {
            if (!cols.contains(null)) {
                uqs.add(new UniqueConstraint(index, cols));
            }
        });
        return new Table(QualifiedName.of(SqliteCatalogReader.SCHEMA, name), kind, rowEstimate, null,
                columns, List.copyOf(primaryKey.values()), fks, uqs, null);
    }

    /** Empty when the parent or its columns cannot be found: SQLite accepts such keys, the catalog cannot. */
    private Optional<ForeignKey> resolve(RawForeignKey raw, Function<String, Optional<TableDraft>> tables) {
        Optional<TableDraft> parent = tables.apply(raw.parent().toLowerCase(Locale.ROOT));
        if (parent.isEmpty()) {
            LOG.debug("{}: foreign key to unknown table {} skipped", name, raw.parent());
            return Optional.empty();
        }
        // Lists that may hold null (a column not found), so not Stream.toList(), which rejects null lookups.
        List<String> targetColumns = raw.to().contains(null)
                ? new ArrayList<>(parent.get().primaryKey.values())
                : raw.to().stream().map(parent.get()::canonicalColumn).collect(Collectors.toList());
        List<String> from = raw.from().stream().map(this::canonicalColumn).collect(Collectors.toList());
        if (targetColumns.size() != from.size() || targetColumns.contains(null) || from.contains(null)) {
            LOG.debug("{}: foreign key to {} does not match its columns, skipped", name, raw.parent());
            return Optional.empty();
        }
        // SQLite keeps no constraint names in its pragmas; name it after its columns, PostgreSQL style.
        String fkName = name + "_" + String.join("_", from) + "_fkey";
        return Optional.of(new ForeignKey(fkName, from, QualifiedName.of(SqliteCatalogReader.SCHEMA, parent.get().name), targetColumns));
    }

    /** SQLite identifiers are case-insensitive; the catalog uses the spelling of the column definition. */
    private String canonicalColumn(String spelled) {
        return columns.stream().map(Column::name).filter(c -> c.equalsIgnoreCase(spelled)).findFirst().orElse(null);
    }
}
