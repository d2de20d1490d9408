package dev.schemabrain.store;

import dev.schemabrain.engine.SourceUrl;

import java.nio.file.Path;

/**
 * Where {@code --store} points: a SQLite file, or a schema of a PostgreSQL database. {@link #toString()}
 * is the display form (never a password), so a location can go into any message as it is.
 */
public sealed interface StoreLocation permits StoreLocation.SqliteFile, StoreLocation.PostgresSchema {

    String DEFAULT_SCHEMA = "schemabrain";

    /**
     * The file of a SQLite store, and the file of its audit log: beside it ({@code NAME.audit.db}) unless placed
     * elsewhere, as a store on a read-only mount needs.
     */
    record SqliteFile(Path path, Path auditFile) implements StoreLocation {

        public SqliteFile(Path path) {
            this(path, besideStore(path));
        }

        /** {@code schemabrain.db} → {@code schemabrain.audit.db}, in the same directory. */
        public static Path besideStore(Path storePath) {
            String name = storePath.getFileName().toString();
            String base = name.endsWith(".db") ? name.substring(0, name.length() - 3) : name;
            return storePath.resolveSibling(base + ".audit.db");
        }

        @Override
        public String toString() {
            return path.toString();
        }
    }

    /** A schema of a PostgreSQL database; {@code url} holds the credentials, its display form does not. */
    record PostgresSchema(SourceUrl url, String schema) implements StoreLocation {
        @Override
        public String toString() {
            return url.displayUrl() + " (schema " + schema + ")";
        }
    }

    static StoreLocation file(Path path) {
        return new SqliteFile(path);
    }
}
