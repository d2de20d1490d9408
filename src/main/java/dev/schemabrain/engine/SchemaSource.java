package dev.schemabrain.engine;

import dev.schemabrain.error.SourceException;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.SourceKind;
import java.util.Optional;

/**
 * One engine's introspection. Implementations read the catalog with set-based queries (a handful
 * of statements, not one per table), skip partition children, and collect sample values under
 * {@link dev.schemabrain.catalog.SamplePolicy}.
 */
public interface SchemaSource extends AutoCloseable {

    SourceKind kind();

    Catalog introspect(IntrospectionOptions options) throws SourceException;

    /**
     * A cheap token that changes whenever anything {@link #introspect} reads could have changed:
     * definitions, comments, row estimates and row changes. Equal tokens let a re-index skip the
     * source and the store entirely. A token may change without a real change (that only costs a full
     * run), but must never stay the same across one. Engines that cannot vouch for this return empty.
     */
    default Optional<String> catalogToken() throws SourceException {
        return Optional.empty();
    }

    /**
     * After {@link #introspect}: one sentence (lower case first, for a prefix) saying which tables' keys the role could not see and what to grant, or
     * empty when every key was readable. Without keys no join is drafted, so index and doctor say it.
     */
    default Optional<String> unreadKeys() {
        return Optional.empty();
    }

    @Override
    default void close() {
    }
}
