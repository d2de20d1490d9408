package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.ServedJar;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fleet on one PostgreSQL store through the packaged jar: three {@code serve --transport http} processes on one PostgreSQL
 * store, one audit chain. 300 concurrent calls spread over them are all answered and all audited in a
 * chain {@code audit verify} accepts; a re-index while they serve reaches each of them; {@code kill -9}
 * of one under load leaves the other two answering and the chain verifying.
 */
class FleetOnPostgresIT {

    private static final int INSTANCES = 3;
    private static final int CALLS = 300;
    private static final int CLIENTS = 30;
    private static final List<String> TABLES = List.of("main.plans", "main.users", "main.invoices", "main.payments",
            "main.subscriptions", "main.projects");

    @TempDir
    Path dir;

    @Test
    void threeInstancesOneChain() throws Exception {
        Path demo = DemoDatabase.ensure(dir.resolve("demo.sqlite"));
        String schema = "fleet_" + ProcessHandle.current().pid();
        String store = TestPostgres.url("postgres") + "?schema=" + schema;
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(raw);
        Map<String, String> env = Map.of(AuditKey.ENV, HexFormat.of().formatHex(raw),
                "XDG_CONFIG_HOME", dir.resolve("config").toString(), "SB_DEMO_URL", "sqlite:" + demo);
        Cli.Result indexed = Cli.run(dir, env, "--store", store, "index", "--source", "sqlite:" + demo);
        assertEquals(0, indexed.exitCode(), indexed.stderr());

        List<ServedJar> fleet = new ArrayList<>();
        try {
            for (int i = 0; i < INSTANCES; i++) {
                fleet.add(ServedJar.start(store, dir, env, List.of("-Xmx384m"), false, "--url-env", "SB_DEMO_URL",
                        "--stats-interval", "0", "--catalog-rate-limit", "off"));   // a load test, not a rate test
            }

            // 300 concurrent calls, round-robin over the three instances.
            AtomicInteger next = new AtomicInteger();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(pool.submit(() -> {
                    RawMcpClient mcp = new RawMcpClient(fleet.get(client % INSTANCES).url);
                    mcp.initialize("fleet-c" + client);
                    for (int n; (n = next.getAndIncrement()) < CALLS; ) {
                        JsonNode reply = mcp.call(n + 1, "describe_table", Map.of("qualified_name", TABLES.get(n % TABLES.size())));
                        if (!reply.has("result") || reply.path("result").path("isError").asBoolean(false)) {
                            failures.add(reply.toString());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : clients) {
                f.get(300, TimeUnit.SECONDS);
            }
            assertTrue(failures.isEmpty(), failures.size() + " calls not answered, e.g. " + failures.peek());
            assertEquals(CALLS, TestPostgres.count("postgres", "SELECT count(*) FROM " + schema + ".audit_log WHERE phase = '"
                    + AuditEntry.Phase.CALL.wireName() + "'"), "one audit row per call, from all three instances");
            verify(store, env, CALLS);

            // A re-index while they serve: every instance picks up the new catalog version.
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE users ADD COLUMN nickname TEXT");
            }
            Cli.Result again = Cli.run(dir, env, "--store", store, "index", "--source", "sqlite:" + demo);
            assertEquals(0, again.exitCode(), again.stderr());
            for (ServedJar s : fleet) {
                RawMcpClient mcp = new RawMcpClient(s.url);
                mcp.initialize("reindex-check");
                String users = "";
                for (int i = 1; i <= 100 && !users.contains("nickname"); i++) {
                    users = mcp.call(i, "describe_table", Map.of("qualified_name", "main.users")).toString();
                    if (!users.contains("nickname")) {
                        Thread.sleep(100);
                    }
                }
                assertTrue(users.contains("nickname"), s.url + " serves the new catalog version: " + users);
            }

            // kill -9 of one instance under load: the other two keep answering, the chain verifies.
            AtomicBoolean killed = new AtomicBoolean();
            AtomicInteger afterKill = new AtomicInteger();
            ConcurrentLinkedQueue<String> survivorsFailed = new ConcurrentLinkedQueue<>();
            List<Future<?>> load = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                load.add(pool.submit(() -> {
                    int instance = client % INSTANCES;
                    RawMcpClient mcp = new RawMcpClient(fleet.get(instance).url);
                    try {
                        mcp.initialize("kill-c" + client);
                    } catch (IOException gone) {
                        // On a loaded machine a client of the instance about to die may start only after the kill.
                        if (instance != 0) {
                            survivorsFailed.add(gone.toString());
                        }
                        return null;
                    }
                    for (long id = 1; id <= 400; id++) {
                        try {
                            JsonNode reply = mcp.call(id, "describe_table", Map.of("qualified_name", TABLES.get((int) (id % TABLES.size()))));
                            if (instance != 0 && (!reply.has("result") || reply.path("result").path("isError").asBoolean(false))) {
                                survivorsFailed.add(reply.toString());
                            }
                            if (killed.get() && instance != 0) {
                                afterKill.incrementAndGet();
                            }
                        } catch (IOException gone) {
                            if (instance != 0) {
                                survivorsFailed.add(gone.toString());
                            }
                            return null;   // the killed instance's clients stop here
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep(1_000);
            fleet.get(0).kill();
            killed.set(true);
            for (Future<?> f : load) {
                f.get(300, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertTrue(survivorsFailed.isEmpty(), "the two other instances answered every call: " + survivorsFailed.peek());
            assertTrue(afterKill.get() > 0, "calls were answered after the kill");
            verify(store, env, -1);
            System.out.printf("FleetOnPostgresIT: %d calls over %d instances audited in one chain; %d answered by the"
                    + " survivors after the kill; %d rows verified%n", CALLS, INSTANCES, afterKill.get(),
                    TestPostgres.count("postgres", "SELECT count(*) FROM " + schema + ".audit_log"));
        } finally {
            for (ServedJar s : fleet) {
                s.close();
            }
        }
    }

    /** audit verify on the PostgreSQL store: intact (and with {@code rows} rows when not negative). */
    private void verify(String store, Map<String, String> env, long rows) throws Exception {
        Cli.Result verify = Cli.run(dir, env, "--store", store, "audit", "verify");
        assertEquals(0, verify.exitCode(), verify.stdout() + verify.stderr());
        if (rows >= 0) {
            assertTrue(verify.stdout().startsWith("audit chain intact: " + rows + " rows verified"), verify.stdout());
        }
        Cli.Result head = Cli.run(dir, env, "--store", store, "audit", "head");
        assertEquals(0, head.exitCode(), head.stderr());
        Cli.Result list = Cli.run(dir, env, "--store", store, "audit", "list", "--limit", "3");
        assertEquals(0, list.exitCode(), list.stderr());
        assertEquals(3, list.stdout().strip().lines().count(), list.stdout());
    }
}
