package dev.schemabrain.audit;

import com.sun.net.httpserver.HttpServer;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.index.Fingerprints;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29's audit cases (items 6–8) on real SQLite files, as an attacker with write access to the store and
 * the log but not the key would try them: a downgrade to the keyless rule, a deleted store witness, a deleted or
 * altered mark, a rollback of store and log together, and a reader matching SQL fingerprints. A case counts as
 * detected when verify says broken and serve refuses to continue the log. Figures: target/security/audit-tamper.txt.
 */
class AuditTamperTest {

    static final AuditKey KEY = AuditKey.of(HexFormat.of().parseHex("7a".repeat(32)));
    static final Map<String, Boolean> cases = new LinkedHashMap<>();
    static final List<String> notes = new ArrayList<>();
    static final int CALLS = 6;

    @TempDir
    Path dir;

    @AfterAll
    static void figures() throws IOException {
        long detected = cases.values().stream().filter(b -> b).count();
        StringBuilder out = new StringBuilder("audit tamper cases detected (verify broken and serve refuses): " + detected
                + " / " + cases.size() + "\n");
        cases.forEach((name, ok) -> out.append(ok ? "  detected      " : "  NOT detected  ").append(name).append('\n'));
        notes.forEach(n -> out.append(n).append('\n'));
        Path report = Path.of("target", "security", "audit-tamper.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
    }

    // ------------------------------------------------------------------ item 6: downgrade, deleted witness

    @Test
    void aDowngradeToTheKeylessRuleWithLegacyRowsCoveringEveryRowIsBroken() throws Exception {
        Path store = served("downgrade");
        Path log = AuditLog.fileFor(store);
        covertly(log, "DELETE FROM audit_meta WHERE name = 'legacy_rows'",
                "INSERT INTO audit_meta (name, value) VALUES ('legacy_rows', '" + CALLS + "')");
        rewriteKeyless(log);
        sql(store, "DELETE FROM audit_witness");
        detected("keyless rule, legacy_rows = row count, store witness deleted", store);
    }

    @Test
    void aDowngradeThatAlsoRemovesAuditMetaIsBroken() throws Exception {
        Path store = served("downgrade-no-meta");
        Path log = AuditLog.fileFor(store);
        covertly(log, "DROP TABLE audit_meta");
        rewriteKeyless(log);
        sql(store, "DELETE FROM audit_witness");
        VerifyResult r = detected("keyless rule, audit_meta dropped, store witness deleted", store);
        assertTrue(r.problem().contains("no audit key"), r.problem());
    }

    @Test
    void aTruncatedLogWhoseStoreWitnessWasDeletedIsBroken() throws Exception {
        Path store = served("truncate");
        covertly(AuditLog.fileFor(store), "DELETE FROM audit_log WHERE id > " + (CALLS - 2));
        sql(store, "DELETE FROM audit_witness");
        VerifyResult r = detected("rows cut off the end, store witness deleted", store);
        assertTrue(r.problem().contains("the store holds no witness of this log"), r.problem());
    }

    @Test
    void deletingTheMarkBreaksTheRowBoundToIt() throws Exception {
        Path store = served("no-mark");
        covertly(AuditLog.fileFor(store), "DELETE FROM audit_meta WHERE name = 'mark'",
                "DELETE FROM audit_log WHERE id > " + (CALLS - 2));
        sql(store, "DELETE FROM audit_witness");
        VerifyResult r = detected("signed mark deleted, rows cut off, store witness deleted", store);
        assertEquals(OptionalLong.of(1), r.firstBadId(), r.toString());
    }

    @Test
    void aMarkWithoutItsStoreWitnessFlagDoesNotVerify() throws Exception {
        Path store = served("mark-flag");
        String mark = metaValue(AuditLog.fileFor(store), "mark");
        String[] p = mark.split(":");
        assertEquals("1", p[3], "the store existed, so the mark says it keeps the witness");
        covertly(AuditLog.fileFor(store), "DELETE FROM audit_meta WHERE name = 'mark'",
                "INSERT INTO audit_meta (name, value) VALUES ('mark', '" + p[0] + ":" + p[1] + ":" + p[2] + ":0:" + p[4] + "')",
                "DELETE FROM audit_log WHERE id > " + (CALLS - 2));
        sql(store, "DELETE FROM audit_witness");
        detected("mark's store-witness flag cleared (MAC kept), rows cut off, store witness deleted", store);
    }

    @Test
    void serveRefusesALogWhoseRowWasEdited() throws Exception {
        Path store = served("edited");
        covertly(AuditLog.fileFor(store), "UPDATE audit_log SET caller = 'mallory' WHERE id = 2");
        detected("a middle row edited, triggers put back (serve must not continue it)", store);
    }

    @Test
    void serveStartsFromTheStoreWitnessAndItsHistoryCheckStopsALogEditedBeforeIt() throws Exception {
        Path store = served("edited-before-witness");
        covertly(AuditLog.fileFor(store), "UPDATE audit_log SET caller = 'mallory' WHERE id = 2");
        // The open checks only the rows since the store's signed witness, so it starts; the history check then
        // reads the whole chain and stops the log before it takes another row.
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty())) {
            assertTrue(log.awaitHistoryCheck(30_000));
            AuditException refused = Assertions.assertThrows(AuditException.class, () -> log.append(entry(1000)));
            assertTrue(refused.getMessage().contains("does not verify (its content does not match its chain_hash")
                    && refused.getMessage().contains("at row 2") && refused.getMessage().contains("stopped recording"),
                    refused.getMessage());
        }
        // An intact log's history check leaves it recording.
        Path intact = served("intact-history");
        try (AuditLog log = AuditLog.open(intact, KEY, Optional.empty())) {
            assertTrue(log.awaitHistoryCheck(30_000));
            log.append(entry(1000));
        }
        assertTrue(verify(intact, Optional.empty()).intact());
    }

    @Test
    void theHistoryCheckWaitsForItsPaceAndStillStopsALogEditedBeforeTheWitness() throws Exception {
        Path store = served("paced-history");
        covertly(AuditLog.fileFor(store), "UPDATE audit_log SET caller = 'mallory' WHERE id = 2");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger paced = new AtomicInteger();
        Runnable pace = () -> {
            paced.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (AuditLog log = AuditLog.open(new StoreLocation.SqliteFile(store), KEY, Optional.empty(),
                AuditDurability.EVERY_ROW, pace)) {
            // A server's start goes first: held by its pace, the check has read nothing yet.
            assertFalse(log.awaitHistoryCheck(300));
            assertEquals(1, paced.get());
            log.append(entry(1000));
            release.countDown();
            assertTrue(log.awaitHistoryCheck(30_000));
            AuditException refused = Assertions.assertThrows(AuditException.class,
                    () -> log.append(entry(1001)));
            assertTrue(refused.getMessage().contains("at row 2"), refused.getMessage());
        }
    }

    @Test
    void aVerificationRunsItsPaceAfterEveryThousandRows() throws Exception {
        Path store = migratedStore("pace-rows");
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            for (int i = 1; i <= 2_500; i++) {
                log.append(entry(i));
            }
        }
        AtomicInteger paced = new AtomicInteger();
        VerifyResult r = AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(KEY), Optional.empty(),
                Optional.empty(), OptionalLong.empty(), paced::incrementAndGet));
        assertTrue(r.intact(), r.toString());
        assertEquals(2, paced.get(), "after rows 1,000 and 2,000 of " + r.rowsChecked());
    }

    @Test
    void aLogOfAnEarlierBuildIsMarkedOnItsFirstServeAndStillVerifies() throws Exception {
        Path store = migratedStore("earlier");
        Path log = AuditLog.fileFor(store);
        try (AuditLog opened = AuditLog.open(store, KEY, Optional.empty())) {
            assertEquals(Head.EMPTY, opened.head());
        }
        // What the previous build left: keyed rows, no mark, no binding.
        covertly(log, "DELETE FROM audit_meta WHERE name = 'mark'");
        String prev = AuditLog.GENESIS;
        for (int id = 1; id <= 3; id++) {
            AuditEntry e = entry(id);
            String hash = ChainRows.chainHash(KEY, prev, null, id, "2026-11-01T00:00:0" + id + "Z", e);
            sql(log, "INSERT INTO audit_log (id, occurred_at, source_id, caller, tool, phase, status, pii_categories, args_hash,"
                    + " sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash) VALUES (" + id + ", '2026-11-01T00:00:0" + id
                    + "Z', 'src', 'client/1', 'get_metric', 'completed', 'success', '[]', '" + e.argsHash() + "', NULL, 1, 2, '"
                    + prev + "', '" + hash + "')");
            prev = hash;
        }
        assertTrue(verify(store, Optional.empty()).intact(), verify(store, Optional.empty()).toString());
        try (AuditLog opened = AuditLog.open(store, KEY, Optional.empty())) {
            opened.append(entry(4));
        }
        assertEquals("0:" + AuditLog.GENESIS + ":4:1", metaValue(log, "mark").substring(0, 70));
        VerifyResult r = verify(store, Optional.empty());
        assertTrue(r.intact() && r.warnings().isEmpty(), r.toString());
    }

    @Test
    void aVerifyThatReadAuditMetaBeforeAnotherServerMarkedTheLogReadsItAgain() throws Exception {
        Path store = migratedStore("race");
        try (AuditLog opened = AuditLog.open(store, KEY, Optional.empty())) {
            assertEquals(Head.EMPTY, opened.head());
        }
        covertly(AuditLog.fileFor(store), "DELETE FROM audit_meta WHERE name = 'mark'");   // an earlier build's empty log
        try (AuditLog stale = AuditLog.openExisting(store)) {
            try (AuditLog other = AuditLog.open(store, KEY, Optional.empty())) {   // marks it, binds row 1
                other.append(entry(1));
            }
            AuditVerifier.Options o = new AuditVerifier.Options(Optional.of(KEY), Optional.empty(), Optional.empty(),
                    OptionalLong.empty());
            assertFalse(AuditVerifier.verify(stale, o).intact(), "with the audit_meta read before the mark, row 1 looks forged");
            VerifyResult r = AuditVerifier.verifyFresh(stale, o);
            assertTrue(r.intact(), r.toString());
        }
    }

    @Test
    void aServedLogVerifiesWithoutWarningsAndAStorelessOneWarns() throws Exception {
        VerifyResult served = verify(served("clean"), Optional.empty());
        assertTrue(served.intact() && served.warnings().isEmpty(), served.toString());
        Path storeless = dir.resolve("storeless").resolve("s.db");
        Files.createDirectories(storeless.getParent());
        try (AuditLog log = AuditLog.open(storeless, KEY, Optional.empty())) {
            log.append(entry(1));
        }
        VerifyResult r = verify(storeless, Optional.empty());
        assertTrue(r.intact(), r.toString());
        assertTrue(r.warnings().get(0).startsWith("no witness of this log exists outside it"), r.warnings().toString());
    }

    // ------------------------------------------------------------------ item 7: keyed SQL fingerprints

    @Test
    void aReaderWithoutTheKeyCannotMatchDryRunFingerprintsToRows() throws Exception {
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < 36; i++) {
            candidates.add(Fingerprints.sha256("SELECT users.role, count(*) FROM users WHERE users.id = ? -- shape " + i)
                    .substring(0, 16));
        }
        String victim = candidates.get(17);
        Path store = migratedStore("fingerprint");
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty())) {
            log.append(new AuditEntry("src", "victim/1", "get_metric", AuditEntry.Phase.STARTED, "started", null, List.of(),
                    ArgsHash.of(KEY, Map.of("name", "x")), victim, null, null));
            log.append(new AuditEntry("src", "victim/1", "get_metric", AuditEntry.Phase.COMPLETED, "success", null, List.of(),
                    ArgsHash.of(KEY, Map.of("name", "x")), victim, 1L, 2L));
        }
        List<String> stored = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + AuditLog.fileFor(store)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sql_fingerprint FROM audit_log ORDER BY id")) {
            while (rs.next()) {
                stored.add(rs.getString(1));
            }
        }
        long matched = candidates.stream().filter(stored::contains).count();
        notes.add("sql_fingerprint candidates a reader without the key matches to a row: " + matched + " / " + candidates.size());
        assertEquals(0, matched, stored.toString());
        assertEquals(List.of(SqlFingerprint.of(KEY, victim), SqlFingerprint.of(KEY, victim)), stored);
        assertNotEquals(SqlFingerprint.of(KEY, victim), SqlFingerprint.of(AuditKey.of(new byte[32]), victim));
        VerifyResult r = verify(store, Optional.empty());
        assertTrue(r.intact() && r.warnings().isEmpty(), "the started row pairs with its completed row: " + r);

        // The operator, with the key, finds a tool answer's rows by its plain fingerprint.
        InProcessCli.Result listed = InProcessCli.run(Map.of(AuditKey.ENV, "7a".repeat(32)), "--store", store.toString(),
                "audit", "list", "--json", "--fingerprint", victim);
        assertEquals(0, listed.exitCode(), listed.stderr());
        assertEquals(2, listed.stdout().split("\"phase\"").length - 1, listed.stdout());
    }

    // ------------------------------------------------------------------ item 8: published heads, rollback

    @Test
    void aRollbackOfStoreAndLogTogetherIsBrokenAgainstAPublishedHead() throws Exception {
        Path store = served("rollback");
        Path backup = dir.resolve("rollback-backup");
        copyDir(store.getParent(), backup);
        Path published = dir.resolve("elsewhere").resolve("audit.head");
        Files.createDirectories(published.getParent());
        Map<String, String> env = Map.of(AuditKey.ENV, "7a".repeat(32), WitnessFile.ENV, published.toString());
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty())) {
            log.append(entry(CALLS + 1));
        }
        InProcessCli.Result head = InProcessCli.run(env, "--store", store.toString(), "audit", "head", "--publish",
                published.toString());
        assertEquals(0, head.exitCode(), head.stdout() + head.stderr());
        assertTrue(head.stdout().contains("published head " + (CALLS + 1) + ":"), head.stdout());
        copyDir(backup, store.getParent());

        VerifyResult without = verify(store, Optional.empty());
        notes.add("whole rollback of store and log without an external head: " + (without.intact() ? "NOT detected"
                : "detected") + " (expected: nothing inside the store can tell)");
        InProcessCli.Result verified = InProcessCli.run(env, "--store", store.toString(), "audit", "verify");
        boolean verifyBroken = verified.exitCode() == 1 && verified.stdout().startsWith("audit chain broken");
        boolean serveRefused = refused(store, Optional.of(new WitnessFile(published)));
        cases.put("store and log rolled back together to an older backup, head published to a file ($"
                + WitnessFile.ENV + ")", verifyBroken && serveRefused);
        assertTrue(verifyBroken, verified.stdout());
        assertTrue(serveRefused);
    }

    @Test
    void aHeadIsPublishedToSyslogAndAnHttpSink() throws Exception {
        Path store = served("publish");
        Map<String, String> env = Map.of(AuditKey.ENV, "7a".repeat(32));
        try (DatagramSocket syslog = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            syslog.setSoTimeout(5_000);
            AtomicReference<String> posted = new AtomicReference<>();
            HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            sink.createContext("/heads", x -> {
                posted.set(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                x.sendResponseHeaders(204, -1);
                x.close();
            });
            sink.start();
            try {
                InProcessCli.Result r = InProcessCli.run(env, "--store", store.toString(), "audit", "head",
                        "--publish", "syslog://127.0.0.1:" + syslog.getLocalPort(),
                        "--publish", "http://127.0.0.1:" + sink.getAddress().getPort() + "/heads?token=secret");
                assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
                assertFalse(r.stdout().contains("secret"), r.stdout());
                DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                syslog.receive(p);
                String line = new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
                String head = r.stdout().lines().findFirst().orElseThrow();
                assertTrue(line.startsWith("<109>1 ") && line.contains("schemabrain audit head " + head + " mac="), line);
                assertTrue(posted.get().contains("\"head\":\"" + head + "\""), posted.get());
                assertFalse(line.contains("7a7a7a") || posted.get().contains("7a7a7a"), "the key never leaves");
            } finally {
                sink.stop(0);
            }
        }
    }

    @Test
    void doctorWarnsWithoutAnExternalWitness() throws Exception {
        Path store = served("doctor");
        InProcessCli.Result none = InProcessCli.run(Map.of("HOME", dir.toString()), "--store", store.toString(), "doctor");
        assertTrue(none.stdout().contains("warn  audit witness: none outside the store"), none.stdout());
        InProcessCli.Result some = InProcessCli.run(Map.of("HOME", dir.toString(), WitnessFile.ENV,
                dir.resolve("w.head").toString()), "--store", store.toString(), "doctor");
        assertTrue(some.stdout().contains("ok    audit witness: " + dir.resolve("w.head")), some.stdout());
    }

    // ------------------------------------------------------------------ helpers

    VerifyResult detected(String name, Path store) throws Exception {
        VerifyResult r = verify(store, Optional.empty());
        boolean serveRefused = refused(store, Optional.empty());
        cases.put(name, !r.intact() && serveRefused);
        assertFalse(r.intact(), name + ": " + r);
        assertTrue(serveRefused, name + ": serve continued the log");
        return r;
    }

    /**
     * Serve's open must refuse with one sentence, or, when the store's witness let it check only the rows since,
     * its history check must stop the log: the next append is refused with one sentence. Never continued.
     */
    static boolean refused(Path store, Optional<WitnessFile> witness) {
        try (AuditLog log = AuditLog.open(store, KEY, witness)) {
            assertTrue(log.awaitHistoryCheck(30_000), "the history check ends");
            log.append(entry(999));
            return false;
        } catch (AuditException e) {
            assertTrue(e.getMessage().endsWith(".") && !e.getMessage().contains("\n") && !e.getMessage().contains("Exception"),
                    e.getMessage());
            return true;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    static VerifyResult verify(Path store, Optional<WitnessFile> witness) throws AuditException {
        return AuditVerifier.verify(store, new AuditVerifier.Options(Optional.of(KEY), witness, Optional.empty(),
                OptionalLong.empty()));
    }

    Path migratedStore(String name) throws Exception {
        Path store = dir.resolve(name).resolve("s.db");
        Files.createDirectories(store.getParent());
        try (SqliteStore s = SqliteStore.openOrCreate(store)) {
            s.write(c -> null);
        }
        return store;
    }

    /** A migrated store whose log a server wrote {@link #CALLS} rows into and closed. */
    Path served(String name) throws Exception {
        Path store = migratedStore(name);
        try (AuditLog log = AuditLog.open(store, KEY, Optional.empty())) {
            for (int i = 1; i <= CALLS; i++) {
                log.append(entry(i));
            }
        }
        return store;
    }

    static AuditEntry entry(int i) {
        return new AuditEntry("src", "client/1", "get_metric", AuditEntry.Phase.COMPLETED, "success", null, List.of(),
                ArgsHash.of(KEY, Map.of("i", i)), null, 1L, 2L);
    }

    static void sql(Path file, String... statements) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    /** Drops every append-only trigger, runs the statements, and puts back the triggers of the tables still there. */
    static void covertly(Path log, String... statements) throws Exception {
        List<String> all = new ArrayList<>(List.of("DROP TRIGGER IF EXISTS audit_log_no_update",
                "DROP TRIGGER IF EXISTS audit_log_no_delete", "DROP TRIGGER IF EXISTS audit_meta_no_update",
                "DROP TRIGGER IF EXISTS audit_meta_no_delete"));
        all.addAll(List.of(statements));
        sql(log, all.toArray(String[]::new));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + log)) {
            boolean meta = AuditSchema.hasMeta(c);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
                st.execute("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
                if (meta) {
                    st.execute("CREATE TRIGGER audit_meta_no_update BEFORE UPDATE ON audit_meta BEGIN SELECT RAISE(ABORT, 'audit_meta is append-only'); END");
                    st.execute("CREATE TRIGGER audit_meta_no_delete BEFORE DELETE ON audit_meta BEGIN SELECT RAISE(ABORT, 'audit_meta is append-only'); END");
                }
            }
            String problem = AuditSchema.problem(c, !meta);
            assertEquals(null, problem, "the schema looks untouched");
        }
    }

    /** Rechains every row with the keyless rule (sha256), as anyone with the file can. */
    static void rewriteKeyless(Path log) throws Exception {
        List<AuditRecord> rows = new ArrayList<>();
        try (AuditLog read = AuditLog.openExisting(log.resolveSibling("s.db"))) {
            read.scan(OptionalLong.empty(), (r, unreadable) -> rows.add(r));
        }
        List<String> updates = new ArrayList<>();
        String prev = AuditLog.GENESIS;
        for (AuditRecord r : rows) {
            String hash = ChainRows.chainHash(null, prev, null, r.id(), r.occurredAt(), r.entry());
            updates.add("UPDATE audit_log SET prev_hash = '" + prev + "', chain_hash = '" + hash + "' WHERE id = " + r.id());
            prev = hash;
        }
        covertly(log, updates.toArray(String[]::new));
    }

    static String metaValue(Path log, String name) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + log); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM audit_meta WHERE name = '" + name + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(to)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("s.")).toList()) {
                Files.delete(f);
            }
        }
        try (var files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }
}
