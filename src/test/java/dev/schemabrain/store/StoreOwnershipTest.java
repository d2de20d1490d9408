package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.SecurityFigures;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29, item 15, on the embedded PostgreSQL with real roles: a store schema owned by an indexer role, a
 * serving role with the documented grants, and a second role given, one way at a time, the power to change what
 * is served. serve and doctor refuse each, naming statements that, run as given, make the store its owner's again.
 */
class StoreOwnershipTest {

    private static final String DB = "t29mine_store";
    private static final String SCHEMA = "sbowned";
    private static final String OWNER = "t29mine_owner";
    private static final String OTHER = "t29mine_mallory";
    private static final String SERVE = "t29mine_serve";

    @TempDir
    static Path dir;
    static String store;

    @BeforeAll
    static void indexedAsTheOwner() throws Exception {
        TestPostgres.createDatabase(DB);
        sql("postgres", "DROP ROLE IF EXISTS " + OTHER, "DROP ROLE IF EXISTS " + SERVE, "DROP ROLE IF EXISTS " + OWNER,
                "CREATE ROLE " + OWNER + " LOGIN", "CREATE ROLE " + OTHER + " LOGIN", "CREATE ROLE " + SERVE + " LOGIN");
        sql(DB, "GRANT CREATE ON DATABASE " + DB + " TO " + OWNER);
        Path source = dir.resolve("src.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE person (id INTEGER PRIMARY KEY, ssn TEXT, city TEXT)");
        }
        store = TestPostgres.url(DB).replace("postgres@", OWNER + "@") + "?schema=" + SCHEMA;
        InProcessCli.Result r = InProcessCli.run("--store", store, "index", "--source", "sqlite:" + source);
        assertEquals(0, r.exitCode(), r.stderr());
        // The serving role exactly as docs/deployment.md grants it: never a reason to refuse.
        sql(DB, "GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + SERVE,
                "GRANT SELECT ON ALL TABLES IN SCHEMA " + SCHEMA + " TO " + SERVE,
                "GRANT INSERT ON " + SCHEMA + ".audit_log, " + SCHEMA + ".audit_meta TO " + SERVE,
                "GRANT INSERT, UPDATE ON " + SCHEMA + ".audit_witness TO " + SERVE,
                "GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + OTHER);
    }

    private static void sql(String database, String... statements) throws Exception {
        try (Connection c = TestPostgres.connect(database); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    private static Optional<String> refusal() throws Exception {
        try (Store s = Stores.open(Stores.location(store, null, null, Map.of()))) {
            StoreOwnership.check(s);
            return Optional.empty();
        } catch (StoreException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The statements the refusal names, after "run ", to be run as they are. */
    private static List<String> fixes(String message) {
        String statements = message.substring(message.lastIndexOf(" run ") + 5);
        statements = statements.endsWith(".") ? statements.substring(0, statements.length() - 1) : statements;
        return List.of(statements.split("; "));
    }

    @Test
    void everyWayAnotherRoleCouldWriteTheStoreIsRefusedWithItsRevoke() throws Exception {
        assertEquals(Optional.empty(), refusal(), "the owner and the documented serving grants");
        InProcessCli.Result clean = InProcessCli.run("--store", store, "doctor");
        assertTrue(clean.stdout().contains("ok    store: only its owner role can write it"), clean.stdout());
        SecurityFigures.record("15 documented serving grants accepted (no false refusal)", 1, 1);

        List<String> attacks = List.of(
                "GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + SCHEMA + " TO " + OTHER,
                "GRANT CREATE ON SCHEMA " + SCHEMA + " TO " + OTHER,
                "ALTER TABLE " + SCHEMA + ".pii_tags OWNER TO " + OTHER,
                "GRANT " + OWNER + " TO " + OTHER,
                "GRANT UPDATE (description) ON " + SCHEMA + ".catalog_columns TO " + OTHER,
                "GRANT INSERT ON " + SCHEMA + ".auth_tokens TO PUBLIC",
                "GRANT DELETE ON " + SCHEMA + ".pii_tags TO " + SERVE,
                "GRANT TRIGGER ON " + SCHEMA + ".auth_tokens TO " + OTHER,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + OWNER + " IN SCHEMA " + SCHEMA + " GRANT INSERT, UPDATE ON TABLES TO " + OTHER,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + OWNER + " GRANT DELETE ON TABLES TO PUBLIC");
        int held = 0;
        List<String> failures = new ArrayList<>();
        for (String attack : attacks) {
            sql(DB, attack);
            Optional<String> refused = refusal();
            InProcessCli.Result doctor = InProcessCli.run("--store", store, "doctor");
            boolean doctorFails = doctor.exitCode() == 2 && doctor.stdout().lines().anyMatch(l -> l.startsWith("FAIL  store: Refusing"));
            boolean restored = false;
            if (refused.isPresent()) {
                sql(DB, fixes(refused.get()).toArray(String[]::new));
                restored = refusal().isEmpty();
            }
            if (refused.isPresent() && doctorFails && restored) {
                held++;
            } else {
                failures.add(attack + " -> refused " + refused + ", doctor " + doctor.exitCode() + ", restored " + restored);
            }
        }
        SecurityFigures.record("15 ways another role could write a PostgreSQL store refused by serve and doctor, fixed by the named statements",
                held, attacks.size());
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void serveRefusesInOneSentenceNamingTheRevoke() throws Exception {
        sql(DB, "GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + SCHEMA + " TO " + OTHER);
        try {
            InProcessCli.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> InProcessCli.run("--store", store, "serve"));
            assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
            assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
            assertTrue(r.stderr().contains("REVOKE DELETE, INSERT, UPDATE ON") && r.stderr().contains("FROM " + OTHER), r.stderr());
            assertFalse(r.stderr().contains("\tat "), r.stderr());
        } finally {
            sql(DB, "REVOKE INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + SCHEMA + " FROM " + OTHER);
        }
    }
}
