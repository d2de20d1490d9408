package dev.schemabrain.cli;

import dev.schemabrain.served.ScopedView;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Role;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.ColumnGrants.TableColumns;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the server may read of one indexed source, the way serve decides it: every column but those whose PII tag is
 * on the block list (serve's, else the store's, else the floor), on the tables some role of the access policy may
 * see. A role cleared for a category (never one of the floor's) needs the columns it may see in clear, so a column is
 * served when any role that sees its table may read it. This is what {@code grants} grants and doctor tries.
 *
 * @param tables  every indexed table (each gets a REVOKE)
 * @param served  the columns served, per table with at least one
 * @param blocked the columns withheld, with why
 * @param block   the block list in force
 */
record ServedColumns(List<QualifiedName> tables, List<TableColumns> served, List<Withheld> blocked, BlockList block) {

    /** A column the server never reads, and why: its blocked categories, or no role sees its table. */
    record Withheld(QualifiedName table, String column, String why) {
        @Override
        public String toString() {
            return table + "." + column + " (" + why + ")";
        }
    }

    ServedColumns {
        tables = List.copyOf(tables);
        served = List.copyOf(served);
        blocked = List.copyOf(blocked);
    }

    int servedColumns() {
        return served.stream().mapToInt(t -> t.columns().size()).sum();
    }

    /** @throws UserError when the store holds no catalog of {@code url} */
    static ServedColumns read(StoreLocation location, SourceUrl url, Optional<BlockList> serverBlock,
                              Optional<AccessPolicy> policy) throws SchemaBrainException {
        if (!Stores.exists(location)) {
            throw new UserError("There is no store at " + location + "; run 'schemabrain index' first, or pass --store.");
        }
        Catalog catalog;
        PiiTags tags;
        BlockList block;
        try (Store store = Stores.open(location)) {
            catalog = store.read(c -> CatalogRepository.catalog(c, url.sourceId()));
            tags = store.read(PiiRepository::tags);
            Optional<BlockList> stored = store.read(PiiRepository::blockList);
            block = serverBlock.orElse(stored.orElse(BlockList.FLOOR));
        }
        if (catalog.tables().isEmpty()) {
            throw new UserError("The store " + location + " has no catalog for " + url.displayUrl()
                    + "; run 'schemabrain index' on that source first.");
        }
        return of(catalog, tags, block, policy);
    }

    static ServedColumns of(Catalog catalog, PiiTags tags, BlockList block, Optional<AccessPolicy> policy) {
        List<QualifiedName> tables = new ArrayList<>();
        List<TableColumns> served = new ArrayList<>();
        List<Withheld> blocked = new ArrayList<>();
        for (Table t : catalog.tables()) {
            tables.add(t.name());
            // Without an access policy every caller sees every table, cleared for nothing.
            List<Set<PiiCategory>> readers = policy.isEmpty() ? List.of(block.categories())
                    : policy.get().roles().values().stream().filter(r -> r.allows(t.name()))
                    .map(r -> withoutCleared(block.categories(), r)).toList();
            if (readers.isEmpty()) {
                t.columns().stream().findFirst().ifPresent(c -> blocked.add(new Withheld(t.name(), c.name(),
                        "no role of the access policy sees the table")));
                continue;
            }
            List<String> columns = new ArrayList<>();
            for (Column c : t.columns()) {
                PiiTag tag = tags.tag(t.name(), c.name());
                if (readers.stream().anyMatch(r -> tag.blockedBy(r).isEmpty())) {
                    columns.add(c.name());
                } else {
                    blocked.add(new Withheld(t.name(), c.name(), tag.blockedBy(block.categories()).stream().sorted()
                            .map(PiiCategory::wireName).collect(Collectors.joining(", "))));
                }
            }
            if (!columns.isEmpty()) {
                served.add(new TableColumns(t.name(), columns));
            }
        }
        return new ServedColumns(tables, served, blocked, block);
    }

    /** The block list a role works under: its clearance lifted, never the floor's (as serve's ScopedView does). */
    private static Set<PiiCategory> withoutCleared(Set<PiiCategory> block, Role role) {
        EnumSet<PiiCategory> out = block.isEmpty() ? EnumSet.noneOf(PiiCategory.class) : EnumSet.copyOf(block);
        out.removeIf(c -> role.piiClearance().contains(c.wireName()) && !PiiCategory.CATASTROPHIC_FLOOR.contains(c));
        return out;
    }
}
