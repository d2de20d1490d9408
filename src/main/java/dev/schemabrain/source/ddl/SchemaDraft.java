package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Everything the script defined so far, by name. Names are kept as written and looked up exactly
 * first, then ignoring case, because a script may spell one table {@code Actor} and {@code actor}.
 * {@link #finish()} applies what can only be done once the whole script is read: inheritance,
 * folding partitions into their parent, and resolving foreign key targets.
 */
final class SchemaDraft {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaDraft.class);

    private final Map<QualifiedName, TableDraft> tables = new LinkedHashMap<>();
    private final Map<String, TableDraft> byFoldedName = new HashMap<>();

    /**
     * Adds a definition; the same name again replaces the earlier one unless {@code keepExisting}
     * (IF NOT EXISTS). Names differing only in case are different tables, as quoting allows.
     */
    void add(TableDraft table, boolean keepExisting) {
        if (tables.containsKey(table.name) && keepExisting) {
            return;
        }
        tables.remove(table.name);
        tables.put(table.name, table);
        byFoldedName.put(folded(table.name), table);
    }

    Optional<TableDraft> find(QualifiedName name) {
        TableDraft exact = tables.get(name);
        if (exact != null) {
            return Optional.of(exact);
        }
        return Optional.ofNullable(byFoldedName.get(folded(name)));
    }

    private static String folded(QualifiedName name) {
        return name.schema().toLowerCase(Locale.ROOT) + '\0' + name.table().toLowerCase(Locale.ROOT);
    }

    /** PostgreSQL {@code INHERITS}: a child lists its parents' columns first, then its own. */
    void resolveInheritance() {
        Map<TableDraft, Boolean> state = new IdentityHashMap<>();
        tables.values().forEach(t -> inherit(t, state));
    }

    private void inherit(TableDraft table, Map<TableDraft, Boolean> state) {
        if (table.inheritsFrom.isEmpty() || state.containsKey(table)) {
            return;
        }
        state.put(table, Boolean.FALSE);
        List<ColumnDraft> merged = new ArrayList<>();
        for (QualifiedName parentName : table.inheritsFrom) {
            find(parentName).ifPresent(parent -> {
                inherit(parent, state);
                parent.columns.stream().filter(c -> indexOf(merged, c.name) < 0).forEach(c -> merged.add(c.inherited()));
            });
        }
        for (ColumnDraft own : table.columns) {
            int at = indexOf(merged, own.name);
            if (at < 0) {
                merged.add(own);
            } else {
                own.notNull |= merged.get(at).notNull;
                own.defaultValue = own.defaultValue != null ? own.defaultValue : merged.get(at).defaultValue;
                merged.set(at, own);
            }
        }
        table.columns.clear();
        table.columns.addAll(merged);
        state.put(table, Boolean.TRUE);
    }

    private static int indexOf(List<ColumnDraft> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name.equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The catalog tables: partitions folded into their root, foreign keys resolved. */
    List<Table> finish() {
        Map<TableDraft, TableDraft> rootOf = new IdentityHashMap<>();
        for (TableDraft table : tables.values()) {
            partitionRoot(table).ifPresent(root -> rootOf.put(table, root));
        }
        Map<TableDraft, List<ForeignKey>> foreignKeys = new IdentityHashMap<>();
        for (TableDraft table : tables.values()) {
            List<ForeignKey> resolved = new ArrayList<>();
            for (ForeignKeyDraft draft : table.foreignKeys) {
                resolve(table, draft, rootOf).ifPresent(resolved::add);
            }
            foreignKeys.put(table, resolved);
        }
        // A partition's keys belong to the partitioned table: union them, once per shape.
        for (TableDraft child : tables.values()) {
            TableDraft root = rootOf.get(child);
            if (root == null) {
                continue;
            }
            root.kind = TableKind.PARTITIONED;
            List<ForeignKey> rootKeys = foreignKeys.get(root);
            for (ForeignKey fk : foreignKeys.get(child)) {
                if (rootKeys.stream().noneMatch(fk::sameShape)) {
                    rootKeys.add(fk);
                }
            }
        }
        List<Table> result = new ArrayList<>();
        for (TableDraft table : tables.values()) {
            if (rootOf.containsKey(table)) {
                continue;
            }
            if (table.partitionOf != null) {
                LOG.debug("partition {} of {}, which the script does not create; kept as a table", table.name, table.partitionOf);
            }
            result.add(build(table, foreignKeys.get(table)));
        }
        return result;
    }

    /** The topmost partitioned table above {@code table}, if it is a partition of one the script defines. */
    private Optional<TableDraft> partitionRoot(TableDraft table) {
        TableDraft current = table;
        Optional<TableDraft> root = Optional.empty();
        for (int hops = 0; current.partitionOf != null && hops < tables.size(); hops++) {
            Optional<TableDraft> parent = find(current.partitionOf);
            if (parent.isEmpty() || parent.get() == table) {
                break;
            }
            root = parent;
            current = parent.get();
        }
        return root;
    }

    private Optional<ForeignKey> resolve(TableDraft owner, ForeignKeyDraft draft, Map<TableDraft, TableDraft> rootOf) {
        Optional<TableDraft> target = find(draft.target()).map(t -> rootOf.getOrDefault(t, t));
        QualifiedName targetName = target.map(t -> t.name).orElse(draft.target());
        List<String> targetColumns = draft.targetColumns().isEmpty()
                ? target.map(t -> List.copyOf(t.primaryKey)).orElse(List.of())
                : draft.targetColumns();
        if (draft.columns().isEmpty() || targetColumns.size() != draft.columns().size()) {
            LOG.debug("foreign key {} of {} does not match the key of {}; skipped", draft.name(), owner.name, targetName);
            return Optional.empty();
        }
        List<String> columns = spelled(owner, draft.columns());
        targetColumns = target.map(t -> spelled(t, draft.targetColumns().isEmpty() ? t.primaryKey : draft.targetColumns()))
                .orElse(targetColumns);
        return Optional.of(new ForeignKey(draft.name(), columns, targetName, targetColumns));
    }

    /** Column names as the table declares them (a key may spell them in another case). */
    private static List<String> spelled(TableDraft table, List<String> names) {
        return names.stream().map(n -> table.column(n).map(c -> c.name).orElse(n)).toList();
    }

    private static Table build(TableDraft table, List<ForeignKey> foreignKeys) {
        List<String> primaryKey = spelled(table, table.primaryKey);
        List<Column> columns = new ArrayList<>();
        for (ColumnDraft c : table.columns) {
            boolean nullable = !c.notNull && !primaryKey.contains(c.name);
            Domain domain = c.domain != null ? c.domain : Domain.ofMySqlColumnType(c.dataType).orElse(null);
            columns.add(new Column(c.name, columns.size() + 1, c.dataType, nullable, c.defaultValue, c.comment, List.of(),
                    List.of(), domain));
        }
        List<UniqueConstraint> uniques = table.uniqueConstraints.stream()
                .map(u -> new UniqueConstraint(u.name(), spelled(table, u.columns())))
                .distinct().toList();
        return new Table(table.name, table.kind, null, table.comment, columns, primaryKey, foreignKeys, uniques, null);
    }
}
