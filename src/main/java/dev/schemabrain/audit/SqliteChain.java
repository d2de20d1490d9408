package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.StoreLocation;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The chain in its own SQLite file beside a SQLite store: appends never wait for an index run's write
 * transaction. IMMEDIATE transactions take the file's write lock at BEGIN, so appenders of several
 * processes queue there; a commit reaches the WAL, and {@link #force} fsyncs it.
 */
final class SqliteChain implements ChainStore {

    private final Path file;
    private final Connection connection;   // null: there is no log file (reading only)
    private final Object fileKey;          // null: opened for reading, nothing to compare
    private final AuditWitnessStore.Witnesses witnesses;
    private final Path store;

    SqliteChain(Path file, Path store, Connection connection, Object fileKey, int witnessBusyMillis) {
        this.file = file;
        this.store = store;
        this.connection = connection;
        this.fileKey = fileKey;
        this.witnesses = new AuditWitnessStore.Writer(store, witnessBusyMillis);
    }

    Path file() {
        return file;
    }

    @Override
    public String name() {
        return file.toString();
    }

    @Override
    public StoreLocation location() {
        return new StoreLocation.SqliteFile(store, file);
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public void lockHead(Connection c) {
        // BEGIN IMMEDIATE took the file's write lock already.
    }

    /** The file at the path must still be the one opened: not unlinked, not replaced. */
    @Override
    public void checkSame() throws AuditException {
        if (fileKey == null) {
            return;
        }
        Object now;
        try {
            now = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (NoSuchFileException gone) {
            now = null;
        } catch (IOException e) {
            throw new AuditException("The audit log " + file + " cannot be checked (" + e.getClass().getSimpleName()
                    + "); the server stops answering until it can record.", e);
        }
        if (now == null || !now.equals(fileKey)) {
            throw new AuditException("The audit log " + file + " was " + (now == null ? "deleted" : "replaced")
                    + " while the server ran, so nothing more is recorded or answered; run schemabrain audit verify and"
                    + " restart the server.", null);
        }
    }

    /** fdatasync of the WAL: every commit written into it so far survives a power cut. */
    @Override
    public void force() throws IOException {
        Path wal = file.resolveSibling(file.getFileName() + "-wal");
        // A log from before WAL mode (a keyless one being adopted) commits into the file itself.
        try (FileChannel channel = FileChannel.open(Files.exists(wal) ? wal : file, StandardOpenOption.READ)) {
            channel.force(false);
        }
    }

    @Override
    public boolean hasLog() throws SQLException {
        return connection != null && AuditSchema.hasLog(connection);
    }

    @Override
    public String problem(boolean keyless) throws SQLException {
        return AuditSchema.problem(connection, keyless);
    }

    @Override
    public void beginRead(Connection c) {
        // The first SELECT of the transaction holds the snapshot (see AuditLog's read).
    }

    @Override
    public void endRead(Connection c) {
        // Nothing was changed on the connection.
    }

    @Override
    public AuditWitnessStore.Witnesses witnesses() {
        return witnesses;
    }

    @Override
    public void close() {
        witnesses.close();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Every append committed or rolled back before it returned.
            }
        }
    }
}
