package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The audit chain on real SQLite files: it verifies, it detects every kind of tampering, it stays linear under load and crashes. */
class AuditLogTest {

    @TempDir
    Path dir;

    static final AuditKey KEY = AuditKey.of("a test key of thirty-two bytes!!".getBytes(StandardCharsets.US_ASCII));

    private Path store() {
        return dir.resolve("schemabrain.db");
    }

    private static AuditEntry entry(String tool, int n) {
        return new AuditEntry("src1", "claude/1", tool, AuditEntry.Phase.CALL, "success", null, List.of(), "args" + n, null, null, 3L);
    }

    private void appendSome(int n) throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            for (int i = 0; i < n; i++) {
                log.append(entry("describe_table", i));
            }
        }
    }

    /**
     * What someone with the file and sqlite3 can do: drop the triggers, change rows, and put the exact
     * triggers back so that only the chain can tell.
     */
    private void tamper(String... statements) throws SQLException {
        tamper(AuditLog.fileFor(store()), statements);
    }

    static void tamper(Path auditFile, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + auditFile);
             Statement st = c.createStatement()) {
            st.execute("DROP TRIGGER audit_log_no_update");
            st.execute("DROP TRIGGER audit_log_no_delete");
            for (String sql : statements) {
                st.execute(sql);
            }
            st.execute("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log\nBEGIN\n    SELECT RAISE(ABORT, 'audit_log is append-only'); END");
            st.execute("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log\nBEGIN\n    SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        }
    }

    private VerifyResult verify() throws Exception {
        return verify(store(), OptionalLong.empty());
    }

    static VerifyResult verify(Path store, OptionalLong since) throws Exception {
        return AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(KEY), Optional.empty(), Optional.empty(), since));
    }

    @Test
    void aStartedRowIsDurableWhenItsAppendReturnsOtherRowsByTheNextFsyncAndTheWitnessFollowsTheFsync() throws Exception {
        WitnessFile witness = new WitnessFile(dir.resolve("witness.log"));
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.of(witness))) {
            log.append(entry("describe_table", 0));
            long started = log.append(new AuditEntry("src1", "claude/1", "get_metric", AuditEntry.Phase.STARTED, "started",
                    null, List.of(), "args", "fingerprint", null, null));
            assertTrue(log.durableRows() >= started, "fsynced before the SQL may leave");
            assertTrue(lastWitnessed(witness) >= started, "and witnessed");
            for (int i = 1; i <= 20; i++) {
                log.append(entry("describe_table", i));
            }
            log.flush();
            assertEquals(22, log.durableRows());
            assertEquals(22, lastWitnessed(witness), "the witness vouches for what the fsync covered");
        }
    }

    private static long lastWitnessed(WitnessFile witness) throws Exception {
        return witness.read().witnesses().stream().mapToLong(w -> w.head().count()).max().orElse(0);
    }

    @Test
    void aReaderInTheMiddleOfAScanNeverHoldsUpTheServerAppendingToTheLog() throws Exception {
        appendSome(5);
        try (AuditLog serving = AuditLog.open(store(), KEY, Optional.empty(), AuditDurability.STARTED_ROWS);
             AuditLog reading = AuditLog.openExisting(store())) {
            long[] appendMillis = {-1};
            int[] seen = {0};
            // A history check or an audit verify paused inside its read snapshot, while the server records a call.
            reading.scan(OptionalLong.of(1), (r, unreadable) -> {
                if (seen[0]++ == 0) {
                    long start = System.nanoTime();
                    try {
                        serving.append(entry("describe_table", 99));
                    } catch (AuditException e) {
                        throw new IllegalStateException(e);
                    }
                    appendMillis[0] = (System.nanoTime() - start) / 1_000_000;
                }
                return true;
            });
            assertTrue(appendMillis[0] >= 0 && appendMillis[0] < 2_000,
                    "the append waited " + appendMillis[0] + " ms for the reader (its busy timeout is 10 s)");
            assertEquals(5, seen[0], "the reader's snapshot is the log as it was when its scan began");
        }
    }

    @Test
    void theChainStartsAtGenesisAndLinksEveryRow() throws Exception {
        appendSome(5);
        try (AuditLog log = AuditLog.openExisting(store())) {
            List<AuditRecord> rows = log.list(100, OptionalLong.empty());
            assertEquals(5, rows.size());
            assertEquals(AuditLog.GENESIS, rows.get(0).prevHash());
            assertAll(IntStream.range(1, rows.size()).<Executable>mapToObj(i -> () -> assertAll("row " + rows.get(i).id(),
                    () -> assertEquals(rows.get(i - 1).chainHash(), rows.get(i).prevHash()),
                    () -> assertEquals(rows.get(i - 1).id() + 1, rows.get(i).id()))));
            assertEquals(ChainRows.chainHash(KEY, rows.get(0).chainHash(), null, rows.get(1).id(), rows.get(1).occurredAt(), rows.get(1).entry()),
                    rows.get(1).chainHash(), "HMAC of the previous hash and the row's canonical JSON");
            // The first row of a log this build created is bound to its signed mark: deleting the mark breaks it.
            KeyedMark mark = KeyedMark.parse(log.meta().mark()).orElseThrow();
            assertEquals(1, mark.boundFrom());
            assertEquals(ChainRows.chainHash(KEY, AuditLog.GENESIS, mark.binding(), rows.get(0).id(), rows.get(0).occurredAt(),
                    rows.get(0).entry()), rows.get(0).chainHash(), "HMAC of genesis, the mark's MAC and the row's canonical JSON");
            assertNotEquals(ChainRows.chainHash(null, AuditLog.GENESIS, null, rows.get(0).id(), rows.get(0).occurredAt(), rows.get(0).entry()),
                    rows.get(0).chainHash(), "not the keyless sha256 anyone could recompute");
            assertEquals(List.of(4L, 5L), log.list(2, OptionalLong.empty()).stream().map(AuditRecord::id).toList());
            assertEquals(new Head(5, rows.get(4).chainHash()), log.head());
        }
        assertEquals(VerifyResult.intact(5, List.of(noWitnessWarning())), verify());
        assertEquals(3, verify(store(), OptionalLong.of(3)).rowsChecked());
    }

    @Test
    void triggersRejectUpdateAndDelete() throws Exception {
        appendSome(2);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + AuditLog.fileFor(store()));
             Statement st = c.createStatement()) {
            SQLException update = assertThrows(SQLException.class, () -> st.execute("UPDATE audit_log SET status = 'error'"));
            assertTrue(update.getMessage().contains("append-only"), update.getMessage());
            assertThrows(SQLException.class, () -> st.execute("DELETE FROM audit_log WHERE id = 1"));
        }
        assertTrue(verify().intact());
    }

    @Test
    void anUpdatedRowIsNamed() throws Exception {
        appendSome(6);
        tamper("UPDATE audit_log SET status = 'refused' WHERE id = 4");
        VerifyResult r = verify();
        assertFalse(r.intact());
        assertEquals(OptionalLong.of(4), r.firstBadId());
        assertTrue(r.problem().contains("altered"), r.problem());
    }

    @Test
    void aDeletedRowBreaksTheLinkOfTheNext() throws Exception {
        appendSome(6);
        tamper("DELETE FROM audit_log WHERE id = 3");
        VerifyResult r = verify();
        assertEquals(OptionalLong.of(4), r.firstBadId());
        assertTrue(r.problem().contains("jump from 2 to 4: rows in between were deleted"), r.problem());
    }

    @Test
    void aRowInsertedInTheMiddleIsCaught() throws Exception {
        appendSome(4);
        // In the middle: the rows from 3 on moved up to make room, and a forged row took id 3.
        tamper("UPDATE audit_log SET id = id + 100 WHERE id >= 3",
                "UPDATE audit_log SET id = id - 99 WHERE id >= 103",
                "INSERT INTO audit_log SELECT 3, occurred_at, source_id, caller, 'get_metric', phase, status, error_kind,"
                        + " pii_categories, args_hash, sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash,"
                        + " role, row_filters FROM audit_log WHERE id = 4");
        assertEquals(OptionalLong.of(3), verify().firstBadId());
    }

    @Test
    void aRowInsertedAtTheEndIsCaught() throws Exception {
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        try (AuditLog log = AuditLog.open(other.resolve("schemabrain.db"), KEY, Optional.empty())) {
            log.append(entry("a", 1));
            log.append(entry("b", 2));
        }
        // At the end, linked to the head but with a made-up hash.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + AuditLog.fileFor(other.resolve("schemabrain.db")));
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO audit_log SELECT 3, occurred_at, source_id, caller, tool, phase, status, error_kind,"
                    + " pii_categories, args_hash, sql_fingerprint, row_count, duration_ms, chain_hash, '"
                    + "ab".repeat(32) + "', role, row_filters FROM audit_log WHERE id = 2");
        }
        assertEquals(OptionalLong.of(3), verify(other.resolve("schemabrain.db"), OptionalLong.empty()).firstBadId());
    }

    @Test
    void reorderedRowsAreCaught() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(entry("first", 1));
            log.append(entry("second", 2));
            log.append(entry("third", 3));
        }
        // Swap rows 1 and 2 completely (hashes included): each now sits at the other's id.
        tamper("UPDATE audit_log SET id = 100 WHERE id = 1", "UPDATE audit_log SET id = 1 WHERE id = 2",
                "UPDATE audit_log SET id = 2 WHERE id = 100");
        VerifyResult r = verify();
        assertEquals(OptionalLong.of(1), r.firstBadId(), r.toString());
    }

    @Test
    void verifySinceChecksTheLinkIntoTheRange() throws Exception {
        appendSome(6);
        tamper("UPDATE audit_log SET caller = 'mallory' WHERE id = 2");
        assertTrue(verify(store(), OptionalLong.of(3)).intact(), "rows 3..6 still verify against row 2's stored hash");
        assertEquals(OptionalLong.of(2), verify(store(), OptionalLong.of(2)).firstBadId());
    }

    @Test
    void concurrentCallersAndTwoProcessesFormOneLinearChain() throws Exception {
        int threads = 8;
        int each = 200;
        try (AuditLog a = AuditLog.open(store(), KEY, Optional.empty()); AuditLog b = AuditLog.open(store(), KEY, Optional.empty())) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                AuditLog log = t % 2 == 0 ? a : b;   // two connections, as two server processes would have
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        log.append(entry("t" + thread, i));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            VerifyResult r = verify();
            assertEquals(VerifyResult.intact(threads * each, List.of(noWitnessWarning())), r);
            Set<String> hashes = new HashSet<>();
            a.list(threads * each, OptionalLong.empty()).forEach(row -> hashes.add(row.prevHash()));
            assertEquals(threads * each, hashes.size(), "no two rows share a predecessor: the chain never forks");
        }
    }

    @Test
    void appendsArrivingDuringABatchShareTheNextOne() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            ExecutorService pool = Executors.newFixedThreadPool(5);
            List<Future<Long>> ids = new ArrayList<>();
            synchronized (log) {   // the first batch's writer waits here, as on a slow fsync
                ids.add(pool.submit(() -> log.append(entry("first", 0))));
                while (log.waiting() != 0) {
                    Thread.sleep(5);   // until the first append has taken its batch
                }
                for (int i = 1; i <= 4; i++) {
                    int n = i;
                    ids.add(pool.submit(() -> log.append(entry("queued", n))));
                }
                while (log.waiting() < 4) {
                    Thread.sleep(5);
                }
            }
            Set<Long> written = new HashSet<>();
            for (Future<Long> f : ids) {
                written.add(f.get(30, TimeUnit.SECONDS));
            }
            pool.shutdown();
            assertEquals(4, log.lastBatchSize(), "the four appends that waited were written in one transaction");
            assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), written, "every append got its own row");
        }
        assertEquals(VerifyResult.intact(5, List.of(noWitnessWarning())), verify());
    }

    @Test
    void aKilledWriterLeavesAChainThatVerifies() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process victim = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                AppendForever.class.getName(), store().toString()).redirectErrorStream(true).start();
        // AppendForever appends under the same test key.
        try (BufferedReader out = new BufferedReader(new InputStreamReader(victim.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.equals("appending"));
            assertEquals("appending", line, "the writer started its burst");
            Thread.sleep(300);
            victim.destroyForcibly();   // SIGKILL, mid-transaction more often than not
            assertTrue(victim.waitFor(30, TimeUnit.SECONDS));
        }
        VerifyResult r = verify();
        assertTrue(r.intact(), r.toString());
        assertTrue(r.rowsChecked() > 20, "rows written before the kill are all there: " + r);
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(entry("after", 1));
        }
        assertTrue(verify().intact(), "the chain continues after the crash");
    }

    @Test
    void argumentsAreHashedCanonically() {
        assertEquals(ArgsHash.of(KEY, Map.of("b", 1, "a", List.of("x"))),
                ArgsHash.of(KEY, new TreeMap<>(Map.of("a", List.of("x"), "b", 1))));
    }

    @Test
    void otherArgumentsHashOtherwise() {
        assertNotEquals(ArgsHash.of(KEY, Map.of("a", 1)), ArgsHash.of(KEY, Map.of("a", 2)));
    }

    @Test
    void anArgumentHashIs64HexDigits() {
        assertEquals(64, ArgsHash.of(KEY, Map.of()).length());
    }

    static String noWitnessWarning() {
        return "no witness of this log exists outside it (the store has none: it was busy, missing or"
                + " written by an older build), so rows removed from its end cannot be ruled out; keep"
                + " 'schemabrain audit head' elsewhere and pass it as --expect-head";
    }

    @Test
    void aMissingStoreIsAClearError() {
        AuditException e = assertThrows(AuditException.class, () -> AuditLog.openExisting(dir.resolve("nowhere.db")));
        assertTrue(e.getMessage().startsWith("There is no store at"), e.getMessage());
    }
}
