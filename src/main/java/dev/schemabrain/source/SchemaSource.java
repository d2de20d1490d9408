package dev.schemabrain.source;

import dev.schemabrain.catalog.Catalog;

/**
 * One engine's introspection. Implementations read the catalog with set-based queries (a handful
 * of statements, not one per table), skip partition children, and collect sample values under
 * {@link dev.schemabrain.catalog.SamplePolicy}.
 */
public interface SchemaSource extends AutoCloseable {

    SourceKind kind();

    Catalog introspect(IntrospectionOptions options) throws SourceException;

    @Override
    default void close() {
    }
}
