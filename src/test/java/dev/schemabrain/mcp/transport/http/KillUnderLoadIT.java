package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.ServedJar;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Durability: {@code kill -9} of {@code serve --transport http} (the packaged jar) while 16 clients call
 * describe_table and find_relevant_tables leaves an audit chain that {@code audit verify} accepts, and
 * every call a client got an answer to has its row. Three kills, at three depths of the load, on one store
 * (each restart appends to the chain the previous kill left).
 */
class KillUnderLoadIT {

    private static final int CLIENTS = 16;
    private static final List<String> TABLES = List.of("main.plans", "main.users", "main.invoices", "main.payments",
            "main.subscriptions", "main.projects");

    /** One answered call: who, which JSON-RPC id, and what its row must say. */
    record Answered(String caller, long id, String tool, String argsHash) {
    }

    @TempDir
    static Path dir;
    static Path store;
    static Map<String, String> env;
    static AuditKey key;
    static long seed;

    @BeforeAll
    static void demoStore() throws Exception {
        store = dir.resolve("demo.db");
        Path database = dir.resolve("demo.sqlite");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--events", "none", "--database", database.toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        seed = Long.getLong("kill.seed", System.nanoTime());
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new Random(seed).nextBytes(raw);
        String hex = HexFormat.of().formatHex(raw);
        key = AuditKey.of(raw);
        env = Map.of(AuditKey.ENV, hex, "XDG_CONFIG_HOME", dir.resolve("config").toString(),
                "SB_DEMO_URL", "sqlite:" + database);
    }

    @Test
    void everyAnsweredCallHasItsRowAfterKillNineAtThreeMoments() throws Exception {
        Random random = new Random(seed);
        // Early (the first rows of a fresh process), mid-load, and deep into it; jittered by the seed.
        int[] killAfter = {1 + random.nextInt(8), 100 + random.nextInt(100), 600 + random.nextInt(400)};
        List<Answered> answered = new ArrayList<>();
        for (int round = 0; round < killAfter.length; round++) {
            answered.addAll(loadAndKill(round, killAfter[round]));
            Cli.Result verify = Cli.run(dir, env, "--store", store.toString(), "audit", "verify");
            assertEquals(0, verify.exitCode(), "seed " + seed + ", kill " + round + " after " + killAfter[round] + " answers: "
                    + verify.stdout() + verify.stderr());
            assertEveryAnswerHasItsRow(answered, "seed " + seed + ", kill " + round);
        }
        System.out.printf("KillUnderLoadIT: seed %d, kills after %d/%d/%d answers, %d answered calls all audited%n",
                seed, killAfter[0], killAfter[1], killAfter[2], answered.size());
    }

    /** Starts serve, drives 16 clients until {@code killAfter} calls were answered, SIGKILLs it, returns every answer seen. */
    private static List<Answered> loadAndKill(int round, int killAfter) throws Exception {
        ConcurrentLinkedQueue<Answered> answered = new ConcurrentLinkedQueue<>();
        AtomicInteger count = new AtomicInteger();
        try (ServedJar server = ServedJar.start(store, dir, env, List.of("-Xmx512m"), "--url-env", "SB_DEMO_URL",
                "--stats-interval", "0", "--catalog-rate-limit", "off")) {
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                String name = "kill-r" + round + "-c" + c;
                int client = c;
                Thread t = new Thread(() -> drive(server.url, name, client, answered, count), name);
                t.start();
                clients.add(t);
            }
            long until = System.nanoTime() + 120_000_000_000L;
            while (count.get() < killAfter && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            assertTrue(count.get() >= killAfter, "only " + count.get() + " calls answered in 2 minutes: " + server.stderr);
            server.kill();
            for (Thread t : clients) {
                t.join(90_000);
            }
        }
        return List.copyOf(answered);
    }

    /** One client: alternates the two tools until the server is gone; records each call it got a result for. */
    private static void drive(String url, String name, int client, ConcurrentLinkedQueue<Answered> answered, AtomicInteger count) {
        RawMcpClient mcp = new RawMcpClient(url);
        // The caller is who the credential says (none here), never the client's initialize name.
        String caller = "anonymous";
        try {
            mcp.initialize(name);
            for (long id = 1; ; id++) {
                boolean describe = id % 2 == 0;
                String tool = describe ? "describe_table" : "find_relevant_tables";
                Map<String, Object> arguments = describe
                        ? Map.of("qualified_name", TABLES.get((int) ((id + client) % TABLES.size())))
                        : Map.of("query", "unpaid invoices " + name + " call " + id);
                JsonNode reply = mcp.call(id, tool, arguments);
                if (reply.has("result") && reply.path("id").asLong() == id) {
                    answered.add(new Answered(caller, id, tool, ArgsHash.of(key, arguments)));
                    count.incrementAndGet();
                }
            }
        } catch (Exception serverGone) {
            // The kill: a refused connection or a reset; every call before it has been recorded.
        }
    }

    /** Each answered call matched against its own row: caller, tool and keyed argument hash (counted, as describe_table repeats). */
    private static void assertEveryAnswerHasItsRow(List<Answered> answered, String context) throws Exception {
        Map<String, Integer> rows = new HashMap<>();
        try (AuditLog log = AuditLog.openExisting(store)) {
            for (AuditRecord r : log.list(Integer.MAX_VALUE, OptionalLong.empty())) {
                AuditEntry e = r.entry();
                if (e.phase() == AuditEntry.Phase.CALL) {
                    rows.merge(e.caller() + "|" + e.tool() + "|" + e.argsHash(), 1, Integer::sum);
                }
            }
        }
        List<Answered> missing = new ArrayList<>();
        for (Answered a : answered) {
            String k = a.caller() + "|" + a.tool() + "|" + a.argsHash();
            int left = rows.getOrDefault(k, 0);
            if (left == 0) {
                missing.add(a);
            } else {
                rows.put(k, left - 1);
            }
        }
        assertTrue(missing.isEmpty(), context + ": " + missing.size() + " of " + answered.size()
                + " answered calls have no audit row, e.g. " + missing.subList(0, Math.min(5, missing.size())));
    }
}
