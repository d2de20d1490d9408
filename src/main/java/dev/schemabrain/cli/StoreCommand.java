package dev.schemabrain.cli;

import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreCopy;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;

/** {@code schemabrain store copy}: move a store between a SQLite file and PostgreSQL (SPEC §10.4). */
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

    private StoreLocation location(String option, String value, String env) throws StoreException {
        if ((value == null) == (env == null)) {
            throw new StoreException("Give " + option + " PATH|URL or " + option + "-url-env VAR (one of them).");
        }
        return Stores.location(value, null, env, main.env);
    }
}
