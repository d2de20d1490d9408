package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit chain in a PostgreSQL store (a fresh schema of a real server per test): several logs with
 * connections of their own append to one linear chain, the triggers refuse every change, and verify
 * catches what a database superuser can still do, given a witness kept outside the database.
 */
class PostgresAuditChainTest {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static final AuditKey KEY = AuditKey.of("a test key of thirty-two bytes!!".getBytes(StandardCharsets.US_ASCII));

    @TempDir
    Path dir;
    String schema;
    StoreLocation store;

    @BeforeEach
    void freshSchema() throws Exception {
        schema = "audit_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        store = Stores.location(TestPostgres.url("postgres") + "?schema=" + schema, null, null, Map.of());
    }

    private static AuditEntry entry(String tool, int n) {
        return new AuditEntry("src1", "claude/1", tool, AuditEntry.Phase.CALL, "success", null, List.of("email"),
                "args" + n, null, 7L, 3L);
    }

    private VerifyResult verify(Optional<WitnessFile> witness) throws AuditException {
        return AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(KEY), witness, Optional.empty(),
                OptionalLong.empty()));
    }

    private void sql(String... statements) throws SQLException {
        try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
            st.execute("SET search_path TO " + schema);
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    @Test
    void threeLogsOnOneStoreAppendToOneLinearChain() throws Exception {
        int logs = 3;
        int threads = 4;
        int each = 25;
        List<AuditLog> open = new ArrayList<>();
        for (int i = 0; i < logs; i++) {
            open.add(AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW));
        }
        ExecutorService pool = Executors.newFixedThreadPool(logs * threads);
        List<Future<Long>> ids = new ArrayList<>();
        for (int l = 0; l < logs; l++) {
            AuditLog log = open.get(l);
            for (int t = 0; t < threads * each; t++) {
                int n = l * 1000 + t;
                ids.add(pool.submit(() -> log.append(entry("describe_table", n))));
            }
        }
        Set<Long> written = new HashSet<>();
        for (Future<Long> f : ids) {
            written.add(f.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        open.forEach(AuditLog::close);
        int rows = logs * threads * each;
        assertEquals(rows, written.size(), "every append got its own row");
        assertEquals(rows, TestPostgres.count("postgres", "SELECT count(*) FROM " + schema + ".audit_log"));
        assertEquals(rows, TestPostgres.count("postgres", "SELECT count(DISTINCT prev_hash) FROM " + schema + ".audit_log"),
                "no two rows share a predecessor: the chain never forks across instances");
        VerifyResult result = verify(Optional.empty());
        assertTrue(result.intact(), result.toString());
        assertEquals(rows, result.rowsChecked());
        assertEquals(List.of(), result.warnings(), "the store's witness covers the chain");
        try (AuditLog log = AuditLog.openExisting(store)) {
            assertEquals(rows, log.head().count());
            assertEquals(5, log.list(5, OptionalLong.empty()).size());
            assertEquals("email", log.list(1, OptionalLong.empty()).get(0).entry().piiCategories().get(0));
        }
    }

    @Test
    void theTriggersRefuseUpdateDeleteAndTruncateEvenToTheOwner() throws Exception {
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW)) {
            log.append(entry("describe_table", 1));
            log.append(entry("describe_table", 2));
        }
        for (String change : List.of("UPDATE audit_log SET status = 'error' WHERE id = 1", "DELETE FROM audit_log WHERE id = 2",
                "TRUNCATE audit_log", "UPDATE audit_meta SET value = 'x' WHERE name = 'key_id'", "DELETE FROM audit_meta",
                "TRUNCATE audit_meta")) {
            SQLException refused = assertThrows(SQLException.class, () -> sql(change), change);
            assertTrue(refused.getMessage().contains("is append-only"), refused.getMessage());
        }
        assertTrue(verify(Optional.empty()).intact());
    }

    @Test
    void aRowsRoleIsStoredListedAndCoveredByItsHash() throws Exception {
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW)) {
            log.append(entry("describe_table", 1));
            log.append(entry("get_metric", 2).withRole("support", List.of("customer.support_rep_id")));
            assertEquals(List.of(2L), log.list(10, OptionalLong.empty(), List.of(), Optional.of("support")).stream()
                    .map(AuditRecord::id).toList());
            assertEquals(List.of("customer.support_rep_id"), log.list(1, OptionalLong.empty()).get(0).entry().rowFilters());
        }
        assertTrue(verify(Optional.empty()).intact());
        // A superuser who changes the role with the triggers off is caught by the chain.
        sql("SET session_replication_role = replica", "UPDATE audit_log SET role = 'analyst' WHERE id = 2");
        assertEquals(OptionalLong.of(2), verify(Optional.empty()).firstBadId());
    }

    @Test
    void aDisabledTriggerIsTamperingServeAndVerifyReport() throws Exception {
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW)) {
            log.append(entry("describe_table", 1));
        }
        sql("ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change");
        VerifyResult result = verify(Optional.empty());
        assertFalse(result.intact());
        assertTrue(result.problem().contains("audit_log_no_change is disabled"), result.problem());
        AuditException serve = assertThrows(AuditException.class,
                () -> AuditLog.open(store, KEY, Optional.empty(), AuditDurability.EVERY_ROW));
        assertTrue(serve.getMessage().contains("was altered (its trigger audit_log_no_change is disabled)"), serve.getMessage());
    }

    @Test
    void rowsDeletedByASuperuserAreCaughtByTheWitnesses() throws Exception {
        WitnessFile file = new WitnessFile(dir.resolve("witness"));
        try (AuditLog log = AuditLog.open(store, KEY, Optional.of(file), AuditDurability.EVERY_ROW)) {
            for (int i = 0; i < 5; i++) {
                log.append(entry("describe_table", i));
            }
        }
        // Tail rows go, triggers bypassed the way only the owner or a superuser can.
        sql("SET session_replication_role = replica", "DELETE FROM audit_log WHERE id > 3");
        VerifyResult caught = verify(Optional.empty());
        assertFalse(caught.intact());
        assertTrue(caught.problem().contains("the witness in the store says it held 5 rows"), caught.problem());

        // The same superuser also deletes the store's witness: the chain's signed mark says there was one.
        sql("DELETE FROM audit_witness");
        VerifyResult inside = verify(Optional.empty());
        assertFalse(inside.intact(), inside.toString());
        assertTrue(inside.problem().startsWith("the store holds no witness of this log, but the log's signed mark says"),
                inside.problem());
        VerifyResult outside = verify(Optional.of(file));
        assertFalse(outside.intact(), outside.toString());
    }

    @Test
    void anIndexedStoreNeverServedHasAnEmptyChain() throws Exception {
        try (Store s = Stores.openOrCreate(store)) {
            s.write(c -> null);   // what the first index run does to the schema: every migration, V7's tables among them
        }
        VerifyResult result = verify(Optional.empty());
        assertTrue(result.intact() && result.rowsChecked() == 0 && result.warnings().isEmpty(), result.toString());
        try (AuditLog log = AuditLog.openExisting(store)) {
            assertEquals(Head.EMPTY, log.head());
            assertEquals(List.of(), log.list(10, OptionalLong.empty()));
        }
    }

    @Test
    void anotherKeyIsRefusedSoTheFleetSharesOne() throws Exception {
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            log.append(entry("describe_table", 1));
        }
        AuditKey other = AuditKey.of("another key of thirty-two bytes!".getBytes(StandardCharsets.US_ASCII));
        AuditException e = assertThrows(AuditException.class,
                () -> AuditLog.open(store, other, Optional.empty(), AuditDurability.EVERY_ROW));
        assertTrue(e.getMessage().contains("every instance on one store needs the same key"), e.getMessage());
    }

    @Test
    void aStartedRowIsCommittedWhenItsAppendReturnsInEitherMode() throws Exception {
        for (AuditDurability mode : AuditDurability.values()) {
            try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), mode)) {
                long id = log.append(new AuditEntry("src1", "claude/1", "get_metric", AuditEntry.Phase.STARTED, "started", null,
                        List.of(), "args", "fp", null, null));
                long call = log.append(entry("describe_table", 1));
                // Read through another connection: both rows are committed, not merely written.
                assertEquals(2, TestPostgres.count("postgres", "SELECT count(*) FROM " + schema + ".audit_log WHERE id IN ("
                        + id + ", " + call + ")"), mode.toString());
            }
        }
    }
}
