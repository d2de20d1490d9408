package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.error.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * {@code audit rotate}: the one deliberate way to start a new log. The current log is verified, moved
 * aside under a timestamped name (with the witness file, when one is named), and the store's witness
 * is cleared, so the next serve starts a new chain instead of refusing a log that looks deleted. A log
 * that does not verify is only archived when the operator says so: it is evidence.
 */
public final class AuditRotation {

    /** What was archived: the old log's head, and where it went. */
    public record Archived(Head head, Path log, Optional<Path> witnessFile, VerifyResult verified) {
    }

    private AuditRotation() {
    }

    public static Archived rotate(Path storePath, AuditVerifier.Options options, boolean evenIfBroken, Clock clock)
            throws AuditException {
        return rotate(new StoreLocation.SqliteFile(storePath), options, evenIfBroken, clock);
    }

    /** As {@link #rotate(Path, AuditVerifier.Options, boolean, Clock)}, for a log kept where {@code location} says. */
    public static Archived rotate(StoreLocation.SqliteFile location, AuditVerifier.Options options, boolean evenIfBroken,
                                  Clock clock) throws AuditException {
        Path file = location.auditFile();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new AuditException("There is no audit log at " + file + " to rotate.", null);
        }
        VerifyResult verified = AuditVerifier.verify(location, options);
        if (!verified.intact() && !evenIfBroken) {
            throw new AuditException("The audit log does not verify (" + verified.problem() + "); keep it as evidence, and"
                    + " rotate with --even-if-broken to archive it and start a new log.", null);
        }
        Head head;
        try (AuditLog log = AuditLog.openExisting(location)) {
            head = log.head();
        }
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(clock.instant());
        String name = file.getFileName().toString();
        Path archived = file.resolveSibling(name.substring(0, name.length() - ".db".length()) + "." + stamp + ".db");
        try {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
                st.execute("PRAGMA wal_checkpoint(TRUNCATE)");   // the archive is one self-contained file
            }
            Files.move(file, archived, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(file.resolveSibling(name + "-wal"));
            Files.deleteIfExists(file.resolveSibling(name + "-shm"));
            Optional<Path> witness = Optional.empty();
            if (options.witnessFile().isPresent()) {
                Path w = options.witnessFile().get().path();
                if (Files.exists(w, LinkOption.NOFOLLOW_LINKS)) {
                    Path wa = w.resolveSibling(w.getFileName() + "." + stamp);
                    Files.move(w, wa, StandardCopyOption.ATOMIC_MOVE);
                    witness = Optional.of(wa);
                }
            }
            AuditWitnessStore.clear(location.path());
            return new Archived(head, archived, witness, verified);
        } catch (SQLException | IOException e) {
            throw new AuditException("The audit log " + file + " could not be archived (" + e.getMessage() + "); nothing"
                    + " was cleared, retry after checking the directory's permissions.", e);
        } catch (StoreException e) {
            throw new AuditException(e.getMessage(), e);
        }
    }
}
