package dev.schemabrain.cli;

import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreCopy;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.files.PrivateFiles;
import org.sqlite.SQLiteConfig;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code schemabrain store copy}: move a store between a SQLite file and PostgreSQL;
 * {@code store backup}: one consistent copy of a SQLite store and its audit log.
 */
@Command(name = "store", mixinStandardHelpOptions = true,
        description = "Operations on the store itself.")
final class StoreCommand extends CommandGroup {

    @Command(name = "copy", mixinStandardHelpOptions = true,
            description = "Copy every table of one store into another (SQLite <-> PostgreSQL) in one transaction, then"
                    + " print the catalog digest of both sides; they must be equal or nothing is written.")
    int copy(@Option(names = "--from", paramLabel = "PATH|URL", description = "The store to copy.") String from,
             @Option(names = "--from-url-env", paramLabel = "VAR",
                     description = "Read the PostgreSQL URL of the store to copy from this environment variable.") String fromEnv,
             @Option(names = "--to", paramLabel = "PATH|URL", description = "The store to write.") String to,
             @Option(names = "--to-url-env", paramLabel = "VAR",
                     description = "Read the PostgreSQL URL of the store to write from this environment variable.") String toEnv,
             @Option(names = "--replace", description = "Overwrite a target that holds a store already.") boolean replace)
            throws StoreException {
        StoreLocation source = location("--from", from, fromEnv);
        StoreLocation target = location("--to", to, toEnv);
        if (source.toString().equals(target.toString())) {
            throw new StoreException("--from and --to name the same store; pass another --to.");
        }
        PrintWriter out = main.out();
        try (Store a = Stores.open(source); Store b = Stores.openOrCreate(target)) {
            StoreCopy.Result result = StoreCopy.copy(a, b, replace);
            out.println("Copied " + result.rows() + " rows from " + source + " to " + target + ".");
            out.println("digest of " + source + ": sha256:" + StoreCopy.digest(a));
            out.println("digest of " + target + ": sha256:" + StoreCopy.digest(b));
        }
        return 0;
    }

    @Command(name = "backup", mixinStandardHelpOptions = true,
            description = {"Make one consistent copy of a SQLite store and its audit log: DEST and DEST's audit file"
                    + " (backup.db -> backup.audit.db), each with SQLite's VACUUM INTO, so a running server need not stop.",
                    "The store is copied first and the log second, so the copied log is never behind the witness the"
                            + " copied store holds; the copy is then verified with the audit key. Copying the .db file"
                            + " alone leaves a store whose audit chain is missing."})
    int backup(@Parameters(paramLabel = "DEST", description = "The new store file; it and its audit file must not exist.")
               Path dest) throws SchemaBrainException {
        Path source = Stores.file(main.store()).orElseThrow(() -> new StoreException("store backup copies a SQLite store;"
                + " a PostgreSQL store is backed up with pg_dump of its schema, or copied to a file with 'store copy'."))
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(source)) {
            throw new StoreException("There is no store at " + source + "; pass --store with the file to back up.");
        }
        Path target = dest.toAbsolutePath().normalize();
        Path sourceLog = main.auditStore().auditFile().toAbsolutePath().normalize();
        Path targetLog = AuditLog.fileFor(target);
        for (Path p : List.of(target, targetLog)) {
            if (p.equals(source) || p.equals(sourceLog) || Files.exists(p)) {
                throw new StoreException(p + " exists already; a backup never overwrites, so pass a new DEST.");
            }
        }
        if (!Files.isDirectory(target.getParent())) {
            throw new StoreException("The directory " + target.getParent() + " does not exist; create it, or pass"
                    + " another DEST.");
        }
        PrintWriter out = main.out();
        // The store first: its witness then names a head the log copied after it holds (the chain only grows).
        vacuumInto(source, target);
        if (!Files.exists(sourceLog)) {
            out.println("Backed up " + source + " to " + target + " (the store has no audit log yet).");
            return 0;
        }
        vacuumInto(sourceLog, targetLog);
        out.println("Backed up " + source + " to " + target + ", and its audit log to " + targetLog + ".");
        Optional<AuditKey> key = main.env.get(AuditKey.ENV) != null || Files.exists(AuditKey.defaultFile(main.env))
                ? Optional.of(AuditKey.resolve(Optional.empty(), main.env, false)) : Optional.empty();
        // Not the witness file: the live server may have appended past the copied log meanwhile.
        VerifyResult verified = AuditVerifier.verify(target, new AuditVerifier.Options(key, Optional.empty(),
                Optional.empty(), OptionalLong.empty()));
        if (!verified.intact()) {
            throw new StoreException("The copy's audit chain does not verify (" + verified.problem() + "); keep the"
                    + " original, and run 'schemabrain audit verify' on it.");
        }
        out.println("audit chain of the copy intact: " + verified.rowsChecked() + " rows verified.");
        return 0;
    }

    /** A consistent snapshot of one SQLite file, read in one transaction, written 0600 and moved into place. */
    private static void vacuumInto(Path from, Path to) throws SchemaBrainException {
        Path partial = to.resolveSibling(to.getFileName() + ".partial");
        try {
            Files.deleteIfExists(partial);
            PrivateFiles.create(partial); // VACUUM INTO fills an empty file, keeping its 0600 mode.
            SQLiteConfig config = new SQLiteConfig();
            config.setReadOnly(true);
            config.setBusyTimeout(10_000);
            try (Connection c = config.createConnection("jdbc:sqlite:" + from);
                 PreparedStatement vacuum = c.prepareStatement("VACUUM INTO ?")) {
                vacuum.setString(1, partial.toString());
                vacuum.execute();
            }
            Files.move(partial, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (SQLException | IOException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // The sentence below is the failure that matters.
            }
            throw new StoreException("Cannot copy " + from + " to " + to + " (" + e.getMessage() + "); check the"
                    + " disk space and the permissions of both directories.", e);
        }
    }

    private StoreLocation location(String option, String value, String env) throws StoreException {
        if ((value == null) == (env == null)) {
            throw new StoreException("Give " + option + " PATH|URL or " + option + "-url-env VAR (one of them).");
        }
        return Stores.location(value, null, env, main.env);
    }
}
