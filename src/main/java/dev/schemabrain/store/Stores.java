package dev.schemabrain.store;

import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Opens the store a {@link StoreLocation} names. */
public final class Stores {

    private static final Pattern SCHEMA_PARAM = Pattern.compile("([?&])schema=([^&]*)");
    private static final Pattern SCHEMA_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private Stores() {
    }

    /** Opens an existing store; a PostgreSQL schema that was never written opens and reads as empty. */
    public static Store open(StoreLocation location) throws StoreException {
        return location instanceof StoreLocation.SqliteFile f ? SqliteStore.open(f.path())
                : PostgresStore.open((StoreLocation.PostgresSchema) location);
    }

    /** Opens the store, creating the SQLite file when there is none (a PostgreSQL schema is created by the first write). */
    public static Store openOrCreate(StoreLocation location) throws StoreException {
        return location instanceof StoreLocation.SqliteFile f ? SqliteStore.openOrCreate(f.path())
                : PostgresStore.open((StoreLocation.PostgresSchema) location);
    }

    /** Whether there may be a store to read: a SQLite file with content; a PostgreSQL store always may. */
    public static boolean exists(StoreLocation location) {
        return !(location instanceof StoreLocation.SqliteFile f) || SqliteStore.exists(f.path());
    }

    /**
     * Refuses, before any work, a SQLite store that cannot be written (its file, or its existing directory, is
     * read-only): an index run would otherwise introspect the whole source first. A missing directory is created later.
     */
    public static void checkWritable(StoreLocation location) throws StoreException {
        if (location instanceof StoreLocation.SqliteFile f && Files.isDirectory(f.path().toAbsolutePath().getParent())
                && !SqliteStore.writable(f.path())) {
            throw new StoreException(SqliteStore.readOnlyMessage(f.path()));
        }
    }

    /**
     * Deletes a SQLite store a run created and did not commit, with SQLite's files beside it; best effort (a
     * leftover empty file is still recognised as an unwritten store). A PostgreSQL transaction leaves nothing.
     */
    public static void deleteUnwritten(StoreLocation location) {
        if (!(location instanceof StoreLocation.SqliteFile file)) {
            return;
        }
        for (String suffix : new String[]{"", "-wal", "-shm", "-journal"}) {
            try {
                Files.deleteIfExists(Path.of(file.path() + suffix));
            } catch (IOException ignored) {
                // best effort, as above
            }
        }
    }

    /** The SQLite file, when the store is one: file-only concerns (privacy, the audit file beside it) need it. */
    public static Optional<Path> file(StoreLocation location) {
        return location instanceof StoreLocation.SqliteFile f ? Optional.of(f.path()) : Optional.empty();
    }

    /**
     * Reads {@code --store} (a path, or a {@code postgresql://} / {@code postgres://} URL with an optional
     * {@code ?schema=NAME}), {@code --store-schema} and {@code --store-url-env} (the URL, with its password,
     * from the environment).
     *
     * @param schemaOption the schema named on the command line, or null
     * @param urlEnv       the environment variable holding the URL, or null
     */
    public static StoreLocation location(String store, String schemaOption, String urlEnv, Map<String, String> env)
            throws StoreException {
        String value = store;
        if (urlEnv != null) {
            value = env.get(urlEnv);
            if (value == null || value.isBlank()) {
                throw new StoreException("The environment variable " + urlEnv + " is not set or empty; export it with"
                        + " the store URL (postgresql://user:password@host/database), or pass --store.");
            }
        }
        String lower = value.strip().toLowerCase(Locale.ROOT);
        if (!lower.startsWith("postgresql://") && !lower.startsWith("postgres://")) {
            if (urlEnv != null) {
                throw new StoreException("The environment variable " + urlEnv + " holds no postgresql:// URL; put the"
                        + " store URL in it, or pass a file with --store PATH.");
            }
            if (schemaOption != null) {
                throw new StoreException("--store-schema applies to a PostgreSQL store only; drop it or pass"
                        + " --store postgresql://host/database.");
            }
            return new StoreLocation.SqliteFile(Path.of(value));
        }
        String url = value.strip();
        String schema = null;
        Matcher m = SCHEMA_PARAM.matcher(url);
        if (m.find()) {
            schema = m.group(2);
            String rest = url.substring(m.end());
            url = url.substring(0, m.start()) + (rest.startsWith("&") ? m.group(1) + rest.substring(1) : rest);
        }
        if (schemaOption != null) {
            schema = schemaOption;
        }
        schema = schema == null ? StoreLocation.DEFAULT_SCHEMA : schema;
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new StoreException("The store schema must be lower-case letters, digits and underscores (at most 63,"
                    + " not starting with a digit); pass another --store-schema.");
        }
        SourceUrl parsed;
        try {
            parsed = SourceUrl.parse(url);
        } catch (SourceException e) {
            throw new StoreException(e.getMessage().replace("source URL", "store URL"), e);
        }
        if (!parsed.kind().equals(SourceKind.POSTGRESQL) || parsed.database() == null) {
            throw new StoreException("The store URL names no database; write it as postgresql://user@host:port/database.");
        }
        return new StoreLocation.PostgresSchema(parsed, schema);
    }
}
