package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.retrieve.KeywordRetriever;
import dev.schemabrain.semantic.JoinGraph;
import dev.schemabrain.store.SchemaSummary;

import java.util.List;
import java.util.function.Supplier;

/**
 * One consistent snapshot of the store as the tools see it: the catalog of every indexed source
 * (merged; tables keep their own schema names) and the structures derived from it, built on first use
 * and shared by every call until the store changes.
 */
public final class ServedCatalog {

    private final List<SchemaSummary> schemas;
    private final Catalog catalog;
    private final Supplier<NameLookup> lookup;
    private final Supplier<JoinGraph> joins;
    private final Supplier<KeywordRetriever> keywords;

    public ServedCatalog(List<SchemaSummary> schemas, Catalog catalog) {
        this.schemas = List.copyOf(schemas);
        this.catalog = catalog;
        this.lookup = memoize(() -> new NameLookup(catalog));
        this.joins = memoize(() -> new JoinGraph(catalog));
        this.keywords = memoize(() -> new KeywordRetriever(catalog));
    }

    public List<SchemaSummary> schemas() {
        return schemas;
    }

    public Catalog catalog() {
        return catalog;
    }

    public NameLookup lookup() {
        return lookup.get();
    }

    public JoinGraph joins() {
        return joins.get();
    }

    public KeywordRetriever keywords() {
        return keywords.get();
    }

    public boolean isEmpty() {
        return catalog.tables().isEmpty();
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        return new Supplier<>() {
            private volatile T value;

            @Override
            public T get() {
                T v = value;
                if (v == null) {
                    synchronized (this) {
                        v = value;
                        if (v == null) {
                            v = supplier.get();
                            value = v;
                        }
                    }
                }
                return v;
            }
        };
    }
}
