package dev.schemabrain.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRotation;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.ClientText;
import dev.schemabrain.audit.Head;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.store.StoreLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
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

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keyed audit chain on real SQLite files, as a local attacker with the files (but not the key)
 * and a curious reader of rows would try it. Appends/s on this machine go to target/security/audit-append.txt.
 */
class AuditChainTest {

    static final AuditKey KEY = AuditKey.of("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    static final List<String> figures = new ArrayList<>();

    @TempDir
    Path dir;

    Path store() {
        return dir.resolve("s.db");
    }

    /** An indexed-looking store: migrated, so it has the witness table. */
    Path migratedStore() throws Exception {
        try (SqliteStore s = SqliteStore.openOrCreate(store())) {
            s.write(c -> null);
        }
        return store();
    }

    static AuditEntry call(String tool, String argsHash) {
        return new AuditEntry("src", "client/1", tool, AuditEntry.Phase.CALL, "success", null, List.of(), argsHash, null, null, 1L);
    }

    VerifyResult verify(Optional<WitnessFile> witness, Optional<Head> expect) throws Exception {
        return AuditVerifier.verify(store(), new AuditVerifier.Options(Optional.of(KEY), witness, expect, OptionalLong.empty()));
    }

    @AfterAll
    static void writeFigures() throws IOException {
        Path report = Path.of("target", "security", "audit-append.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, String.join("\n", figures) + "\n");
    }

    // ------------------------------------------------------------------ item 6: the argument hash

    @Test
    void fiftyNineCandidateEmailsCannotBeTestedAgainstARowWithoutTheKey() throws Exception {
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < 59; i++) {
            candidates.add("user" + i + "@example.com");
        }
        String looked = candidates.get(41);
        Map<String, Object> args = Map.of("name", "customer_count",
                "filters", List.of(Map.of("column", "customer.email", "op", "eq", "value", looked)));
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("get_metric", ArgsHash.of(KEY, args)));
        }
        String stored;
        try (AuditLog log = AuditLog.openExisting(store())) {
            stored = log.list(1, OptionalLong.empty()).get(0).entry().argsHash();
        }
        int matchesWithoutKey = 0;
        int matchesWithAnotherKey = 0;
        int matchesWithTheKey = 0;
        AuditKey guess = AuditKey.of(new byte[32]);
        for (String candidate : candidates) {
            Map<String, Object> tried = Map.of("name", "customer_count",
                    "filters", List.of(Map.of("column", "customer.email", "op", "eq", "value", candidate)));
            byte[] canonical = JSON.writeValueAsString(JSON.convertValue(tried, Object.class)).getBytes(StandardCharsets.UTF_8);
            if (HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical)).equals(stored)) {
                matchesWithoutKey++;
            }
            if (ArgsHash.of(guess, tried).equals(stored)) {
                matchesWithAnotherKey++;
            }
            if (ArgsHash.of(KEY, tried).equals(stored)) {
                matchesWithTheKey++;
            }
        }
        assertEquals(0, matchesWithoutKey, "plain sha256 of the canonical arguments (the old rule) finds nothing");
        assertEquals(0, matchesWithAnotherKey);
        assertEquals(1, matchesWithTheKey, "the operator, who holds the key, can still find the call");
        figures.add("argument hash guesses matched without the key: " + matchesWithoutKey + " / " + candidates.size());
    }

    // ------------------------------------------------------------------ item 1: the key

    @Test
    void theKeyIsGeneratedPrivateAndNeverShown() throws Exception {
        Path file = dir.resolve("config/schemabrain/audit.key");
        AuditKey generated = AuditKey.resolve(Optional.of(file), Map.of(), true);
        String text = Files.readString(file).strip();
        assertAll(() -> assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file))),
                () -> assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))),
                () -> assertEquals(generated.id(), AuditKey.resolve(Optional.of(file), Map.of(), false).id(), "read back, the same key"),
                () -> assertFalse(generated.toString().contains(text)));
    }

    @Test
    void aKeyOthersCanReadIsRefusedWithoutShowingIt() throws Exception {
        Path file = dir.resolve("config/schemabrain/audit.key");
        AuditKey.resolve(Optional.of(file), Map.of(), true);
        String text = Files.readString(file).strip();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        AuditException readable = assertThrows(AuditException.class, () -> AuditKey.resolve(Optional.of(file), Map.of(), false));
        assertAll(() -> assertTrue(readable.getMessage().contains("chmod 600"), readable.getMessage()),
                () -> assertFalse(readable.getMessage().contains(text), "the key never appears in a message"));
    }

    @Test
    void aMissingKeyFileNamesTheOption() {
        AuditException missing = assertThrows(AuditException.class,
                () -> AuditKey.resolve(Optional.of(dir.resolve("none.key")), Map.of(), false));
        assertTrue(missing.getMessage().contains("--audit-key"), missing.getMessage());
    }

    @Test
    void aTooShortKeyIsRefusedWithoutShowingIt() {
        String shortKey = "c2hvcnQ=";
        AuditException tooShort = assertThrows(AuditException.class,
                () -> AuditKey.resolve(Optional.empty(), Map.of(AuditKey.ENV, shortKey), false));
        assertFalse(tooShort.getMessage().contains(shortKey));
    }

    /** KEY's 32 ASCII bytes, encoded both ways an operator may put them in the environment. */
    @ParameterizedTest(name = "{0} in the environment")
    @CsvSource({"base64, MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
            "hex, 3031323334353637383961626364656630313233343536373839616263646566"})
    void aKeyInTheEnvironmentIsRead(String encoding, String key) throws Exception {
        assertEquals(KEY.id(), AuditKey.resolve(Optional.empty(), Map.of(AuditKey.ENV, key), false).id(), encoding + " in the environment");
    }

    @Test
    void aLogWrittenWithAnotherKeyIsNamedAsSuch() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("list_indexed_schemas", null));
        }
        AuditKey other = AuditKey.of(new byte[32]);
        AuditException verify = assertThrows(AuditException.class, () -> AuditVerifier.verify(store(),
                new AuditVerifier.Options(Optional.of(other), Optional.empty(), Optional.empty(), OptionalLong.empty())));
        assertTrue(verify.getMessage().startsWith("The audit key (key id " + other.id() + ") does not match"), verify.getMessage());
        AuditException serve = assertThrows(AuditException.class, () -> AuditLog.open(store(), other, Optional.empty()));
        assertTrue(serve.getMessage().contains("written with another audit key"), serve.getMessage());
    }

    // ------------------------------------------------------------------ item 8: the witness

    @Test
    void theWitnessCatchesTruncationRollbackAndReusedIdsAndTheServerRefusesToContinue() throws Exception {
        migratedStore();
        WitnessFile witness = new WitnessFile(dir.resolve("witness.log"));
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.of(witness))) {
            for (int i = 0; i < 10; i++) {
                log.append(call("describe_table", null));
            }
        }
        assertEquals(10, AuditWitnessStore.read(store()).orElseThrow().rowCount());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(witness.path())));
        assertTrue(verify(Optional.of(witness), Optional.empty()).intact());
        Path copy = dir.resolve("older.audit.db");
        Files.copy(AuditLog.fileFor(store()), copy);

        try (AuditLog log = AuditLog.open(store(), KEY, Optional.of(witness))) {
            log.append(call("describe_table", null));
            log.append(call("describe_table", null));
            // Truncated while the server runs: its next append finds the log behind the witness.
            covertly("DELETE FROM audit_log WHERE id > 9");
            AuditException behind = assertThrows(AuditException.class, () -> log.append(call("describe_table", null)));
            assertTrue(behind.getMessage().contains("is behind the witness in the store"), behind.getMessage());
        }
        VerifyResult reused = verify(Optional.of(witness), Optional.empty());
        assertFalse(reused.intact());
        assertEquals(OptionalLong.of(10), reused.firstBadId(), reused.toString());
        assertTrue(reused.problem().contains("ids reused"), reused.problem());
        AuditException refused = assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()));
        assertTrue(refused.getMessage().contains("truncated, deleted, replaced or rolled back"), refused.getMessage());

        Files.copy(copy, AuditLog.fileFor(store()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        VerifyResult rolledBack = verify(Optional.empty(), Optional.empty());
        assertFalse(rolledBack.intact());
        assertTrue(rolledBack.problem().startsWith("the log ends at row 10 but the witness in the store says it held 12 rows"),
                rolledBack.problem());
    }

    @Test
    void aMissingLogIsBrokenNotEmptyWhenAWitnessRemembersIt() throws Exception {
        migratedStore();
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("list_indexed_schemas", null));
        }
        Files.delete(AuditLog.fileFor(store()));
        VerifyResult r = verify(Optional.empty(), Optional.empty());
        assertFalse(r.intact());
        assertTrue(r.problem().contains("is missing or empty, but the witness in the store says it held 1 rows"), r.problem());
        AuditException serve = assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()));
        assertTrue(serve.getMessage().contains("is behind the witness in the store"), serve.getMessage());
    }

    @Test
    void rotationIsTheOneDeliberateWayToStartANewLog() throws Exception {
        migratedStore();
        WitnessFile witness = new WitnessFile(dir.resolve("witness.log"));
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.of(witness))) {
            log.append(call("a", null));
            log.append(call("b", null));
        }
        covertly("DELETE FROM audit_log WHERE id = 2");
        AuditVerifier.Options options = new AuditVerifier.Options(Optional.of(KEY), Optional.of(witness), Optional.empty(),
                OptionalLong.empty());
        AuditException broken = assertThrows(AuditException.class,
                () -> AuditRotation.rotate(store(), options, false, java.time.Clock.systemUTC()));
        assertTrue(broken.getMessage().contains("--even-if-broken"), broken.getMessage());
        AuditRotation.Archived a = AuditRotation.rotate(store(), options, true, java.time.Clock.systemUTC());
        assertEquals(1, a.head().count());
        assertTrue(Files.exists(a.log()) && a.witnessFile().isPresent() && Files.exists(a.witnessFile().get()), a.toString());
        assertFalse(Files.exists(AuditLog.fileFor(store())));
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.of(witness))) {
            assertEquals(1, log.append(call("fresh", null)), "a new chain from row 1");
        }
        assertTrue(verify(Optional.of(witness), Optional.empty()).intact());
    }

    @Test
    void anExpectedHeadKeptElsewhereCatchesARollbackOfEverything() throws Exception {
        migratedStore();
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("a", null));
        }
        Path saved = dir.resolve("saved");
        Files.createDirectories(saved);
        Files.copy(store(), saved.resolve("s.db"));
        Files.copy(AuditLog.fileFor(store()), saved.resolve("s.audit.db"));
        Head head;
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("b", null));
            head = log.head();
        }
        Files.copy(saved.resolve("s.db"), store(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(saved.resolve("s.audit.db"), AuditLog.fileFor(store()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(verify(Optional.empty(), Optional.empty()).intact(), "store and log rolled back together agree with each other");
        VerifyResult r = verify(Optional.empty(), Optional.of(head));
        assertFalse(r.intact());
        assertTrue(r.problem().contains("the expected head says it held 2 rows"), r.problem());
        assertEquals(Optional.of(head), Head.parse(head.toString()));
    }

    @Test
    void aBusyStoreLeavesTheWitnessLaggingAndNeverBlocksTheAppend() throws Exception {
        migratedStore();
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("a", null));
            log.flush();   // the witness follows each fsync, which the flusher does right after an append
            try (Connection index = DriverManager.getConnection("jdbc:sqlite:" + store()); Statement st = index.createStatement()) {
                st.execute("BEGIN IMMEDIATE");   // what an index run holds for its whole write
                log.append(call("b", null));
                log.append(call("c", null));
                log.flush();   // b and c are durable; their witness finds the store busy and is left behind
                st.execute("ROLLBACK");
            }
            assertEquals(1, AuditWitnessStore.read(store()).orElseThrow().rowCount(), "the witness lags, the chain is ahead");
            assertTrue(verify(Optional.empty(), Optional.empty()).intact(), "a lagging witness is not tampering");
            log.append(call("d", null));
            log.flush();
            assertEquals(4, AuditWitnessStore.read(store()).orElseThrow().rowCount(), "and catches up after the next append");
        }
    }

    @Test
    void closingCatchesUpAWitnessABusyStoreLeftBehind() throws Exception {
        migratedStore();
        try (Connection index = DriverManager.getConnection("jdbc:sqlite:" + store()); Statement st = index.createStatement()) {
            AuditLog log = AuditLog.open(store(), KEY, Optional.empty());
            log.append(call("a", null));
            log.flush();
            st.execute("BEGIN IMMEDIATE");
            log.append(call("b", null));
            log.flush();   // durable; its witness finds the store busy
            assertEquals(1, AuditWitnessStore.read(store()).orElseThrow().rowCount());
            Thread release = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    st.execute("ROLLBACK");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            release.start();
            log.close();   // the store frees up while the log closes: the last row gets its witness
            release.join();
        }
        assertEquals(2, AuditWitnessStore.read(store()).orElseThrow().rowCount(),
                "a clean stop leaves the store vouching for the last row, so cutting it off is caught");
    }

    /** Appends/s per witness setup, for the report (no bound asserted: that is a benchmark's job). */
    @Test
    void appendsPerSecond() throws Exception {
        int n = 200;
        Path bare = dir.resolve("bare/s.db");
        Files.createDirectories(bare.getParent());
        figures.add(appends("row only (no store, so no witness)", bare, Optional.empty(), n));
        figures.add(appends("row + store witness", migratedStore(), Optional.empty(), n));
        figures.add(appends("row + store witness + witness file", store(), Optional.of(new WitnessFile(dir.resolve("w.log"))), n));
        assertEquals(2L * n, verify(Optional.empty(), Optional.empty()).rowsChecked());
    }

    static String appends(String what, Path store, Optional<WitnessFile> witness, int n) throws Exception {
        try (AuditLog log = AuditLog.open(store, KEY, witness)) {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                log.append(call("list_indexed_schemas", null));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return String.format(java.util.Locale.ROOT, "audit appends, %s: %d in %.2f s = %.0f/s (%.1f ms each)",
                    what, n, seconds, n / seconds, seconds * 1000 / n);
        }
    }

    // ------------------------------------------------------------------ items 8, 9: the file itself

    @Test
    void droppedTriggersAreABreakNotSomethingToRecreate() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("a", null));
        }
        sql(AuditLog.fileFor(store()), "DROP TRIGGER audit_log_no_delete");
        VerifyResult r = verify(Optional.empty(), Optional.empty());
        assertFalse(r.intact());
        assertTrue(r.problem().startsWith("the log's trigger audit_log_no_delete is missing"), r.problem());
        AuditException serve = assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()));
        assertTrue(serve.getMessage().contains("was altered (its trigger audit_log_no_delete is missing)"), serve.getMessage());
        sql(AuditLog.fileFor(store()), "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT 1; END");
        assertTrue(verify(Optional.empty(), Optional.empty()).problem().contains("was changed"), "a toothless trigger is no trigger");
    }

    @Test
    void theLogIsPrivateAndAPlantedOneIsRefused() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("a", null));
        }
        Path file = AuditLog.fileFor(store());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertTrue(assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()))
                .getMessage().contains("chmod 600"));
        VerifyResult planted = verify(Optional.empty(), Optional.empty());
        assertFalse(planted.intact(), "a log anyone could have rewritten does not verify");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        if (isRoot()) {
            Files.setAttribute(file, "unix:uid", 65534);
            assertTrue(assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()))
                    .getMessage().contains("belongs to another user"));
        }
    }

    @Test
    void unlinkingTheFileWhileOpenStopsAppends() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("a", null));
            Files.delete(AuditLog.fileFor(store()));
            AuditException gone = assertThrows(AuditException.class, () -> log.append(call("b", null)));
            assertTrue(gone.getMessage().contains("was deleted while the server ran"), gone.getMessage());
        }
    }

    @Test
    void replacingTheFileWhileOpenStopsAppends() throws Exception {
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        try (AuditLog log = AuditLog.open(other.resolve("s.db"), KEY, Optional.empty())) {
            log.append(call("a", null));
            Path f = AuditLog.fileFor(other.resolve("s.db"));
            Files.copy(f, other.resolve("copy"));
            Files.move(other.resolve("copy"), f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            AuditException replaced = assertThrows(AuditException.class, () -> log.append(call("b", null)));
            assertTrue(replaced.getMessage().contains("was replaced while the server ran"), replaced.getMessage());
        }
    }

    // ------------------------------------------------------------------ old logs, started rows

    @Test
    void aKeylessLogVerifiesOnlyWithoutAKeyAndIsNotContinued() throws Exception {
        Path file = AuditLog.fileFor(store());
        writeKeylessLog(file, 3);
        VerifyResult keyless = AuditVerifier.verify(store(), new AuditVerifier.Options(Optional.empty(), Optional.empty(),
                Optional.empty(), OptionalLong.empty()));
        assertTrue(keyless.intact(), keyless.toString());
        assertTrue(keyless.warnings().get(0).contains("without an audit key"), keyless.warnings().toString());
        // With a key configured it is what a downgrade looks like (anyone can write the keyless rule): broken.
        VerifyResult withKey = verify(Optional.empty(), Optional.empty());
        assertFalse(withKey.intact());
        assertTrue(withKey.problem().startsWith("the log has no audit key (no audit_meta) although one is configured"),
                withKey.problem());
        // Serve does not sign it as keyed by continuing it: one sentence, with the way to a new log.
        AuditException refused = assertThrows(AuditException.class, () -> AuditLog.open(store(), KEY, Optional.empty()));
        assertTrue(refused.getMessage().contains("has no audit key") && refused.getMessage().contains("audit rotate --even-if-broken"),
                refused.getMessage());
        AuditRotation.rotate(store(), new AuditVerifier.Options(Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.empty()), false, java.time.Clock.systemUTC());
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(call("keyed", null));
        }
        VerifyResult fresh = verify(Optional.empty(), Optional.empty());
        assertTrue(fresh.intact(), fresh.toString());
        assertEquals(1, fresh.rowsChecked());
    }

    @Test
    void aStartedQueryWithoutOutcomeIsAWarningNotTampering() throws Exception {
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            log.append(new AuditEntry("src", "c/1", "get_metric", AuditEntry.Phase.STARTED, "started", null, List.of(), "h1", "fp1", null, null));
            log.append(new AuditEntry("src", "c/1", "get_metric", AuditEntry.Phase.COMPLETED, "success", null, List.of(), "h1", "fp1", 3L, 4L));
            log.append(new AuditEntry("src", "c/1", "get_metric", AuditEntry.Phase.STARTED, "started", null, List.of(), "h2", "fp2", null, null));
        }
        VerifyResult r = verify(Optional.empty(), Optional.empty());
        assertTrue(r.intact());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("row 3 started a metric query but no completed row follows")
                && w.endsWith("this is not tampering")), r.warnings().toString());
        assertFalse(r.warnings().stream().anyMatch(w -> w.startsWith("row 1 ")), r.warnings().toString());
    }

    // ------------------------------------------------------------------ item 7: client text

    @Test
    void clientTextIsCapped() {
        String hostile = "x".repeat(4 * 1024 * 1024) + "\r\u001b[2K";
        String cleaned = ClientText.clean(hostile);
        assertEquals(ClientText.MAX + 1, cleaned.length(), "128 characters and an ellipsis");
    }

    @Test
    void clientTextCannotDriveATerminal() {
        String escapes = ClientText.clean("claude\r\u001b[2K\n\u202Eevil\u2028x\u0000");
        assertEquals("claude??[2K??evil?x?", escapes);
    }

    @Test
    void printableClientTextIsKept() {
        assertEquals("Claude Desktop/0.9 — ünïcode 名前", ClientText.clean("Claude Desktop/0.9 — ünïcode 名前"));
    }

    // ------------------------------------------------------------------ the served catalog

    @Test
    void witnessWritesDoNotReloadTheCatalogButAReindexDoes() throws Exception {
        Path demo = dir.resolve("demo.sqlite");
        DemoDatabase.create(demo);
        SourceUrl url = SourceUrl.parse("sqlite:" + demo);
        new Indexer().run(url, Sources.open(url), store(), false, IndexListener.SILENT);
        StoreCatalogProvider provider = new StoreCatalogProvider(StoreLocation.file(store()), () -> null, Optional.empty());
        ServedCatalog first = provider.current().orElseThrow();
        try (AuditLog log = AuditLog.open(store(), KEY, Optional.empty())) {
            for (int i = 0; i < 3; i++) {
                log.append(call("list_indexed_schemas", null));
                assertSame(first, provider.current().orElseThrow(), "a witness write is not a catalog change");
            }
        }
        assertEquals(3, AuditWitnessStore.read(store()).orElseThrow().rowCount(), "the witnesses were written into the store");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE audit_probe (id INTEGER PRIMARY KEY, note TEXT)");
        }
        new Indexer().run(url, Sources.open(url), store(), false, IndexListener.SILENT);
        ServedCatalog second = provider.current().orElseThrow();
        assertNotSame(first, second, "a re-index is picked up without a restart");
        assertTrue(second.catalog().tables().stream().anyMatch(t -> t.name().table().equals("audit_probe")));
    }

    // ------------------------------------------------------------------ helpers

    void covertly(String... statements) throws Exception {
        List<String> all = new ArrayList<>(List.of("DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete"));
        all.addAll(List.of(statements));
        all.add("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        all.add("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        sql(AuditLog.fileFor(store()), all.toArray(String[]::new));
    }

    static void sql(Path file, String... statements) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** A log as the keyless build wrote it: its schema, sha256 chain, no audit_meta. */
    static void writeKeylessLog(Path file, int rows) throws Exception {
        sql(file, """
                CREATE TABLE audit_log (
                    id               INTEGER PRIMARY KEY,
                    occurred_at      TEXT NOT NULL,
                    source_id        TEXT,
                    caller           TEXT,
                    tool             TEXT NOT NULL,
                    phase            TEXT NOT NULL,
                    status           TEXT NOT NULL,
                    error_kind       TEXT,
                    pii_categories   TEXT NOT NULL,
                    args_hash        TEXT,
                    sql_fingerprint  TEXT,
                    row_count        INTEGER,
                    duration_ms      INTEGER,
                    prev_hash        TEXT NOT NULL,
                    chain_hash       TEXT NOT NULL
                )""", "PRAGMA application_id = " + 0x53424155);
        String prev = "0".repeat(64);
        for (int id = 1; id <= rows; id++) {
            prev = insertKeyless(file, id, "old-client", prev);
        }
        sql(file, "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
                "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    static String insertKeyless(Path file, int id, String caller, String prev) throws Exception {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("id", id);
        content.put("occurred_at", "2026-01-01T00:00:0" + id + "Z");
        content.put("source_id", null);
        content.put("caller", caller);
        content.put("tool", "list_indexed_schemas");
        content.put("phase", "call");
        content.put("status", "success");
        content.put("error_kind", null);
        content.put("pii_categories", List.of());
        content.put("args_hash", null);
        content.put("sql_fingerprint", null);
        content.put("row_count", null);
        content.put("duration_ms", null);
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update(HexFormat.of().parseHex(prev));
        d.update(JSON.writeValueAsString(JSON.convertValue(content, Object.class)).getBytes(StandardCharsets.UTF_8));
        String hash = HexFormat.of().formatHex(d.digest());
        sql(file, "INSERT OR REPLACE INTO audit_log (id, occurred_at, caller, tool, phase, status, pii_categories, prev_hash, chain_hash)"
                + " VALUES (" + id + ", '" + content.get("occurred_at") + "', '" + caller + "', 'list_indexed_schemas', 'call', 'success', '[]', '"
                + prev + "', '" + hash + "')");
        return hash;
    }

    /** Rewrites row {@code id} and every keyless row after it with the old rule, as an attacker without the key can. */
    static void rewriteKeyless(Path file, int id, String caller) throws Exception {
        String prev;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT chain_hash FROM audit_log WHERE id = " + (id - 1))) {
            prev = rs.getString(1);
        }
        sql(file, "DROP TRIGGER IF EXISTS audit_log_no_delete");
        for (int i = id; i <= 3; i++) {
            sql(file, "DELETE FROM audit_log WHERE id = " + i);
            prev = insertKeyless(file, i, i == id ? caller : "old-client", prev);
        }
        sql(file, "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
    }
}
