package dev.schemabrain.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The red-team's audit tampering cases, as a careless or hostile local user and a hostile client would
 * try them, end to end: the packaged server over real stdio, the CLI, real SQLite files. Each case
 * tampers with a fresh copy of one served store and says whether it was detected (verify exits 1 or
 * says the key does not match, the server refuses to start or withholds the answer, the row is there).
 * Only the CLI, the MCP protocol and the files are used, so the same suite measures any build
 * ({@code -Dschemabrain.jar=...}). The figure goes to target/security/audit.txt.
 */
@SuppressWarnings("unchecked")
class AuditTamperIT {

    static final String KEY_ENV = "SCHEMABRAIN_AUDIT_KEY";
    static final String KEY = "5e".repeat(32);
    static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    @TempDir
    static Path dir;
    static Path demo;
    static Path base;
    static Path early;
    static boolean witnessFile;
    static final Map<String, Boolean> cases = new LinkedHashMap<>();
    static final Map<String, String> evidence = new LinkedHashMap<>();

    /** The served store: calls, a metric (started + completed rows), a snapshot half-way for the rollbacks. */
    @BeforeAll
    static void serveSomeCalls() throws Exception {
        demo = dir.resolve("demo.sqlite");
        DemoDatabase.create(demo);
        base = dir.resolve("base");
        Files.createDirectories(base);
        Cli.Result index = Cli.run(base, "--store", "demo.db", "index", "--source", "sqlite:" + demo);
        assertEquals(0, index.exitCode(), index.stderr());
        // Each server has exited before its files are copied or read: closing a client does not wait for that.
        McpSyncClient first = client(base);
        try {
            for (int i = 0; i < 12; i++) {
                McpStdio.call(first, "describe_table", Map.of("qualified_name", "main.users", "response_format", i % 2 == 0 ? "concise" : "detailed"));
            }
        } finally {
            McpStdio.stop(first);
        }
        early = dir.resolve("early");
        copy(base, early);
        McpSyncClient second = client(base);
        try {
            for (int i = 0; i < 12; i++) {
                McpStdio.call(second, "list_indexed_schemas", Map.of());
            }
            McpStdio.call(second, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.role")));
        } finally {
            McpStdio.stop(second);
        }
        // The cases below cut rows off a log the server left whole: once it has exited, its witness covers every row.
        Path check = fresh("witnessed on exit");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + check.resolve("demo.db")); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT row_count FROM audit_witness")) {
            assertTrue(rs.next(), "the store has no audit witness");
            assertEquals(rows(audit(check)), rs.getLong(1), "rows the store's witness covers once the server has exited");
        }
    }

    @AfterAll
    static void figure() throws IOException {
        long detected = cases.values().stream().filter(b -> b).count();
        StringBuilder out = new StringBuilder("audit tamper cases detected: " + detected + " / " + cases.size() + "\n");
        cases.forEach((name, ok) -> out.append(ok ? "  detected      " : "  NOT detected  ").append(name)
                .append(evidence.containsKey(name) ? "  — " + evidence.get(name) : "").append('\n'));
        Path report = Path.of("target", "security", "audit.txt");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());
        System.out.println(out);
    }

    /** The server of this suite: a source for get_metric, the suite's key, a witness file when the build has one. */
    static McpSyncClient client(Path at) {
        Map<String, String> env = Map.of("SB_IT_SOURCE", "sqlite:" + demo, KEY_ENV, KEY);
        Path store = at.resolve("demo.db");
        try {
            McpSyncClient c = McpStdio.client(store, new StringBuffer(), env, "--url-env", "SB_IT_SOURCE",
                    "--audit-witness", at.resolve("witness.log").toString());
            witnessFile = true;
            return c;
        } catch (RuntimeException olderBuild) {
            // A build without --audit-witness (measured for the before figure) is served without one.
            return McpStdio.client(store, new StringBuffer(), env, "--url-env", "SB_IT_SOURCE");
        }
    }

    static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    static Path fresh(String name) throws IOException {
        Path at = dir.resolve("case-" + name.replaceAll("[^a-z0-9]+", "-"));
        copy(base, at);
        return at;
    }

    static Cli.Result verify(Path at, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("--store", at.resolve("demo.db").toString(), "audit", "verify"));
        args.addAll(List.of(extra));
        return Cli.run(at, Map.of(KEY_ENV, KEY), args.toArray(String[]::new));
    }

    /** Detected: verify says broken (exit 1). */
    static void expectBroken(String name, Path at, String... extra) throws Exception {
        Cli.Result r = verify(at, extra);
        record(name, r.exitCode() == 1 && r.stdout().startsWith("audit chain broken"), r.stdout().strip() + r.stderr().strip());
    }

    static void record(String name, boolean detected, String what) {
        cases.put(name, detected);
        evidence.put(name, what.length() > 300 ? what.substring(0, 300) + "…" : what);
    }

    static void sql(Path auditFile, String... statements) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + auditFile); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    /** Drop the append-only triggers, run the statements, put the exact triggers back: only the chain can tell. */
    static void covertly(Path auditFile, String... statements) throws Exception {
        List<String> all = new ArrayList<>(List.of("DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete"));
        all.addAll(List.of(statements));
        all.add("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        all.add("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        sql(auditFile, all.toArray(String[]::new));
    }

    static Path audit(Path at) {
        return at.resolve("demo.audit.db");
    }

    static long rows(Path auditFile) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + auditFile); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM audit_log")) {
            return rs.getLong(1);
        }
    }

    static void deleteAudit(Path at) throws IOException {
        for (String suffix : List.of("", "-wal", "-shm")) {
            Files.deleteIfExists(at.resolve("demo.audit.db" + suffix));
        }
    }

    /** Rewrites every row's hashes with the keyless rule (sha256 over prev ‖ canonical JSON): what a recomputing attacker does. */
    static void recomputeKeyless(Path auditFile) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + auditFile); Statement st = c.createStatement()) {
            st.execute("DROP TRIGGER audit_log_no_update");
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT id, occurred_at, source_id, caller, tool, phase, status, error_kind,"
                    + " pii_categories, args_hash, sql_fingerprint, row_count, duration_ms FROM audit_log ORDER BY id")) {
                while (rs.next()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    for (String col : List.of("id", "occurred_at", "source_id", "caller", "tool", "phase", "status", "error_kind",
                            "pii_categories", "args_hash", "sql_fingerprint", "row_count", "duration_ms")) {
                        Object v = rs.getObject(col);
                        m.put(col, col.equals("pii_categories") ? JSON.readValue((String) v, List.class) : v);
                    }
                    rows.add(m);
                }
            }
            String prev = "0".repeat(64);
            for (Map<String, Object> m : rows) {
                String hash = sha256Chain(prev, m);
                try (var up = c.prepareStatement("UPDATE audit_log SET prev_hash = ?, chain_hash = ? WHERE id = ?")) {
                    up.setString(1, prev);
                    up.setString(2, hash);
                    up.setLong(3, ((Number) m.get("id")).longValue());
                    up.executeUpdate();
                }
                prev = hash;
            }
            st.execute("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        }
    }

    static String sha256Chain(String prevHex, Map<String, Object> content) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update(HexFormat.of().parseHex(prevHex));
        d.update(JSON.writeValueAsString(JSON.convertValue(content, Object.class)).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(d.digest());
    }

    // ------------------------------------------------------------------ the log's file, row by row

    @Test
    void truncations() throws Exception {
        Path one = fresh("truncate last row");
        long n = rows(audit(one));
        covertly(audit(one), "DELETE FROM audit_log WHERE id = " + n);
        expectBroken("truncate the last row", one);

        Path ten = fresh("truncate last 10 rows");
        covertly(audit(ten), "DELETE FROM audit_log WHERE id > " + (n - 10));
        expectBroken("truncate the last 10 rows", ten);

        Path all = fresh("delete all rows");
        covertly(audit(all), "DELETE FROM audit_log");
        expectBroken("delete all rows", all);

        Path gone = fresh("delete the file");
        deleteAudit(gone);
        expectBroken("delete the audit file", gone);

        Path empty = fresh("empty the file");
        deleteAudit(empty);
        Files.write(audit(empty), new byte[0]);
        expectBroken("replace the audit file with an empty one", empty);
    }

    @Test
    void rewritesAndForgeries() throws Exception {
        Path edited = fresh("edit and recompute");
        covertly(audit(edited), "UPDATE audit_log SET status = 'success', error_kind = NULL WHERE id = 3");
        recomputeKeyless(audit(edited));
        expectBroken("edit a row and recompute the whole chain (keyless rule, no key)", edited);

        Path forged = fresh("append forged");
        long n = rows(audit(forged));
        Map<String, Object> row = new LinkedHashMap<>();
        String head;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + audit(forged)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT chain_hash, occurred_at FROM audit_log WHERE id = " + n)) {
            head = rs.getString(1);
            row.put("id", n + 1);
            row.put("occurred_at", rs.getString(2));
        }
        row.putAll(Map.of("tool", "list_indexed_schemas", "phase", "call", "status", "success", "pii_categories", List.of()));
        for (String k : List.of("source_id", "caller", "error_kind", "args_hash", "sql_fingerprint", "row_count", "duration_ms")) {
            row.put(k, null);
        }
        sql(audit(forged), "INSERT INTO audit_log (id, occurred_at, tool, phase, status, pii_categories, prev_hash, chain_hash)"
                + " VALUES (" + (n + 1) + ", '" + row.get("occurred_at") + "', 'list_indexed_schemas', 'call', 'success', '[]', '"
                + head + "', '" + sha256Chain(head, row) + "')");
        expectBroken("append a forged row", forged);

        Path dropped = fresh("drop triggers");
        sql(audit(dropped), "DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete");
        expectBroken("drop the append-only triggers (verify)", dropped);
        Cli.Result serve = Cli.run(dropped, Map.of(KEY_ENV, KEY), "--store", dropped.resolve("demo.db").toString(), "serve");
        record("drop the append-only triggers (serve refuses to open, does not re-create them)",
                serve.exitCode() == 2 && serve.stderr().contains("was altered"), serve.stderr().strip());

        Path wrongKey = fresh("wrong key");
        Cli.Result r = Cli.run(wrongKey, Map.of(KEY_ENV, "77".repeat(32)), "--store", wrongKey.resolve("demo.db").toString(),
                "audit", "verify");
        record("verify with a wrong key says the key does not match", r.exitCode() != 0
                && (r.stdout() + r.stderr()).contains("does not match"), r.stdout().strip() + r.stderr().strip());
    }

    @Test
    void rollbacksAndReusedIds() throws Exception {
        Path older = fresh("rollback audit file");
        deleteAudit(older);
        for (String suffix : List.of("", "-wal", "-shm")) {
            Path f = early.resolve("demo.audit.db" + suffix);
            if (Files.exists(f)) {
                Files.copy(f, older.resolve(f.getFileName()));
            }
        }
        expectBroken("replace the audit file with an older copy (rollback)", older);

        Path reuse = fresh("truncate then reuse ids");
        long n = rows(audit(reuse));
        covertly(audit(reuse), "DELETE FROM audit_log WHERE id > " + (n - 3));
        boolean refused;
        String what;
        McpSyncClient appender = null;
        try {
            appender = client(reuse);
            McpStdio.call(appender, "list_indexed_schemas", Map.of());
            refused = false;
            what = "the server started on the truncated log and appended";
        } catch (RuntimeException e) {
            refused = true;
            what = "the server refused to start: " + e.getMessage();
        } finally {
            if (appender != null) {
                McpStdio.stop(appender);
            }
        }
        Cli.Result r = verify(reuse);
        record("truncate, then let new appends reuse the ids", refused || (r.exitCode() == 1), what + "; verify: " + r.stdout().strip());

        Path both = dir.resolve("case-rollback-store-and-log");
        copy(early, both);
        Cli.Result head = Cli.run(base, "--store", base.resolve("demo.db").toString(), "audit", "head");
        Cli.Result withHead = verify(both, "--expect-head", head.stdout().strip());
        record("roll back the store and the log together (caught by --expect-head kept elsewhere)",
                withHead.exitCode() == 1, withHead.stdout().strip() + withHead.stderr().strip());

        if (witnessFile) {
            Path noStoreWitness = fresh("truncate and delete store witness");
            covertly(audit(noStoreWitness), "DELETE FROM audit_log WHERE id > " + (n - 2));
            sql(noStoreWitness.resolve("demo.db"), "DELETE FROM audit_witness");
            expectBroken("truncate and delete the store's witness (caught by the witness file)", noStoreWitness,
                    "--audit-witness", noStoreWitness.resolve("witness.log").toString());

            Path forgedWitness = fresh("forge store witness");
            covertly(audit(forgedWitness), "DELETE FROM audit_log WHERE id > " + (n - 2));
            String newHead;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + audit(forgedWitness)); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT chain_hash FROM audit_log WHERE id = " + (n - 2))) {
                newHead = rs.getString(1);
            }
            sql(forgedWitness.resolve("demo.db"), "UPDATE audit_witness SET row_count = " + (n - 2) + ", head_hash = '" + newHead + "'");
            expectBroken("truncate and rewrite the store's witness to match (no key for its MAC)", forgedWitness);
        } else {
            record("truncate and delete the store's witness (caught by the witness file)", false, "no witness file in this build");
            record("truncate and rewrite the store's witness to match (no key for its MAC)", false, "no witness in this build");
        }
    }

    // ------------------------------------------------------------------ issue 29: downgrades, a deleted witness, rollbacks

    /** Detected: verify says broken and serve refuses to start on the log (exit 2, one sentence on stderr). */
    static void expectBrokenAndRefused(String name, Path at, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put(KEY_ENV, KEY);
        List<String> args = List.of("--store", at.resolve("demo.db").toString(), "audit", "verify");
        Cli.Result r = Cli.run(at, all, args.toArray(String[]::new));
        Cli.Result serve = Cli.run(at, all, "--store", at.resolve("demo.db").toString(), "serve");
        record(name, r.exitCode() == 1 && r.stdout().startsWith("audit chain broken") && serve.exitCode() == 2
                && serve.stderr().contains("The audit log") && !serve.stderr().contains("\tat "),
                r.stdout().strip() + "; serve: " + serve.stderr().strip());
    }

    @Test
    void downgradesAndDeletedWitnesses() throws Exception {
        long n = rows(audit(base));
        Path downgrade = fresh("downgrade to keyless");
        covertlyMeta(audit(downgrade), "DELETE FROM audit_meta WHERE name = 'legacy_rows'",
                "INSERT INTO audit_meta (name, value) VALUES ('legacy_rows', '" + n + "')");
        recomputeKeyless(audit(downgrade));
        sql(downgrade.resolve("demo.db"), "DELETE FROM audit_witness");
        expectBrokenAndRefused("keyless rule, legacy_rows = row count, store witness deleted (issue 29)", downgrade, Map.of());

        Path noMeta = fresh("downgrade without audit_meta");
        covertlyMeta(audit(noMeta), "DROP TABLE audit_meta");
        recomputeKeyless(audit(noMeta));
        sql(noMeta.resolve("demo.db"), "DELETE FROM audit_witness");
        expectBrokenAndRefused("keyless rule, audit_meta dropped, store witness deleted", noMeta, Map.of());

        Path cut = fresh("truncate and delete store witness only");
        covertly(audit(cut), "DELETE FROM audit_log WHERE id > " + (n - 2));
        sql(cut.resolve("demo.db"), "DELETE FROM audit_witness");
        expectBrokenAndRefused("truncate and delete the store's witness (no witness file)", cut, Map.of());

        Path both = dir.resolve("case-rollback-store-and-log-published");
        copy(early, both);
        Files.deleteIfExists(both.resolve("witness.log"));
        expectBrokenAndRefused("roll back the store and the log together, head published to $SCHEMABRAIN_AUDIT_WITNESS",
                both, Map.of("SCHEMABRAIN_AUDIT_WITNESS", base.resolve("witness.log").toString()));
    }

    /** As {@link #covertly}, for audit_meta's triggers too. */
    static void covertlyMeta(Path auditFile, String... statements) throws Exception {
        List<String> all = new ArrayList<>(List.of("DROP TRIGGER audit_meta_no_update", "DROP TRIGGER audit_meta_no_delete"));
        all.addAll(List.of(statements));
        sql(auditFile, all.toArray(String[]::new));
        boolean meta;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + auditFile); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1 FROM sqlite_master WHERE name = 'audit_meta'")) {
            meta = rs.next();
        }
        if (meta) {
            sql(auditFile, "CREATE TRIGGER audit_meta_no_update BEFORE UPDATE ON audit_meta BEGIN SELECT RAISE(ABORT, 'audit_meta is append-only'); END",
                    "CREATE TRIGGER audit_meta_no_delete BEFORE DELETE ON audit_meta BEGIN SELECT RAISE(ABORT, 'audit_meta is append-only'); END");
        }
    }

    // ------------------------------------------------------------------ while the server runs

    @Test
    void unlinkingTheLogWhileServingStopsAnswers() throws Exception {
        Path at = fresh("unlink while serving");
        try (McpSyncClient c = client(at)) {
            McpSchema.CallToolResult before = McpStdio.call(c, "list_indexed_schemas", Map.of());
            deleteAudit(at);
            McpSchema.CallToolResult after = McpStdio.call(c, "list_indexed_schemas", Map.of());
            Map<String, Object> env = (Map<String, Object>) after.structuredContent();
            Map<String, Object> error = (Map<String, Object>) env.get("error");
            boolean withheld = !Boolean.TRUE.equals(before.isError()) && error != null && "internal_error".equals(error.get("kind"))
                    && ((String) error.get("message")).contains("audit log");
            record("unlink the audit file while the server runs (the next answer is withheld)", withheld,
                    String.valueOf(error == null ? env.get("status") : error.get("message")));
        }
    }

    @Test
    void plantedFiles() throws Exception {
        Path other = fresh("planted other owner");
        Files.setAttribute(audit(other), "unix:uid", 65534);
        Cli.Result r = serveOnce(other);
        record("a planted audit file owned by another user is refused", r.exitCode() == 2
                && r.stderr().contains("belongs to another user"), r.stderr().strip());

        Path writable = fresh("world writable");
        Files.setPosixFilePermissions(audit(writable), PosixFilePermissions.fromString("rw-rw-rw-"));
        r = serveOnce(writable);
        record("a world-writable audit file is refused", r.exitCode() == 2 && r.stderr().contains("writable by other users"),
                r.stderr().strip());

        Path link = fresh("symlink");
        Path target = link.resolve("elsewhere.audit.db");
        Files.move(audit(link), target);
        Files.createSymbolicLink(audit(link), target);
        r = serveOnce(link);
        record("a symlinked audit file is refused", r.exitCode() == 2 && r.stderr().contains("symbolic link"), r.stderr().strip());

        Path created = dir.resolve("case-new-log");
        Files.createDirectories(created);
        // A freshly indexed store has no audit log yet: the first serve creates it.
        Cli.Result indexed = Cli.run(created, "--store", created.resolve("demo.db").toString(), "index", "--source", "sqlite:" + demo);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        assertTrue(!Files.exists(audit(created)), "index writes no audit log");
        r = serveOnce(created);
        String mode = Files.exists(audit(created))
                ? PosixFilePermissions.toString(Files.getPosixFilePermissions(audit(created))) : "missing";
        record("a new audit file is created 0600", r.exitCode() == 0 && mode.equals("rw-------"), "mode " + mode);
    }

    static Cli.Result serveOnce(Path at) throws Exception {
        return Cli.run(at, Map.of(KEY_ENV, KEY), "--store", at.resolve("demo.db").toString(), "serve");
    }

    // ------------------------------------------------------------------ hostile clients

    @Test
    void rejectedToolCallsLeaveARowAndClientTextIsCleaned() throws Exception {
        Path at = fresh("rejected calls");
        String name = "x".repeat(4 * 1024 * 1024) + "\r\u001b[2K    42 2026-01-01T00:00:00Z forged_line";
        List<String> answers = rawSession(at, List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":" + JSON.writeValueAsString(name) + ",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\",\"arguments\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"list_indexed_schemas\",\"arguments\":[1,2]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"list_indexed_schemas\",\"arguments\":{}}}"));
        assertEquals(5, answers.size(), answers.toString());
        Cli.Result listed = Cli.run(at, "--store", at.resolve("demo.db").toString(), "audit", "list", "--json", "--limit", "10");
        List<Map<String, Object>> rows = JSON.readValue(listed.stdout(), List.class);
        int last = rows.size();
        List<Map<String, Object>> session = rows.subList(Math.max(0, last - 4), last);
        record("tools/call with an unknown tool leaves a row", session.stream().anyMatch(r -> "no_such_tool".equals(r.get("tool"))
                && "error".equals(r.get("status"))), tools(session));
        record("tools/call with no name leaves a row", session.stream().anyMatch(r -> "(none)".equals(r.get("tool"))), tools(session));
        record("tools/call with non-object arguments leaves a row", session.stream().filter(r -> "list_indexed_schemas".equals(r.get("tool"))
                && "error".equals(r.get("status"))).count() == 1, tools(session));
        long longest;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + audit(at)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT max(length(caller)) FROM audit_log")) {
            longest = rs.getLong(1);
        }
        record("a 4 MiB clientInfo.name is capped in every row", longest <= 160, "longest stored caller: " + longest + " characters");
        Cli.Result text = Cli.run(at, "--store", at.resolve("demo.db").toString(), "audit", "list", "--limit", "10");
        boolean clean = text.exitCode() == 0 && !text.stdout().contains("\r") && !text.stdout().contains("\u001b")
                && text.stdout().lines().noneMatch(l -> l.startsWith("    42 2026-01-01"));
        record("CR and ANSI escapes in clientInfo.name cannot forge lines in audit list", clean,
                "audit list: " + text.stdout().length() + " characters");
        Cli.Result verified = verify(at);
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
    }

    static String tools(List<Map<String, Object>> rows) {
        return rows.stream().map(r -> r.get("tool") + "/" + r.get("status")).toList().toString();
    }

    /** The packaged server driven line by line: each request's answer is read before the next line is sent. */
    static List<String> rawSession(Path at, List<String> lines) throws Exception {
        List<String> command = new ArrayList<>(McpStdio.serveCommand(at.resolve("demo.db")));
        ProcessBuilder pb = new ProcessBuilder(command).directory(at.toFile())
                .redirectError(at.resolve("serve.err").toFile());
        pb.environment().put(KEY_ENV, KEY);
        Process p = pb.start();
        List<String> answers = new ArrayList<>();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line : lines) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                if (line.contains("\"id\":")) {
                    String answer = out.readLine();
                    answers.add(answer == null ? "" : answer.length() > 200 ? answer.substring(0, 200) : answer);
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return answers;
    }

    private List<String> before;

    @BeforeEach
    void rememberCases() {
        before = List.copyOf(cases.keySet());
    }

    /** Every case a test recorded must have been detected; the report lists the evidence either way. */
    @AfterEach
    void everyCaseOfTheTestWasDetected() {
        List<String> missed = cases.entrySet().stream().filter(e -> !before.contains(e.getKey()) && !e.getValue())
                .map(e -> e.getKey() + " (" + evidence.get(e.getKey()) + ")").toList();
        assertEquals(List.of(), missed, "tamper cases not detected");
    }
}
