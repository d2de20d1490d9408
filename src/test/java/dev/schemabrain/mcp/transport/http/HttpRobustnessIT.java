package dev.schemabrain.mcp.transport.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.ServedJar;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real HTTP against the service under abuse: malformed and mistyped bodies, clients that hang up, 500
 * connections of which most are idle or trickle their body, and a long run's heap (in a child JVM, so the
 * figure is the server's alone). Asserts that others are answered and that nothing is left behind, not how fast.
 */
class HttpRobustnessIT {

    private static final String DESCRIBE = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"describe_table\",\"arguments\":{\"qualified_name\":\"main.plans\"}}}";

    @TempDir
    static Path dir;
    static HttpFixture server;
    static int port;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void serve() throws Exception {
        server = HttpFixture.start(HttpOptions.loopback());
        port = server.service.port();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> post(String contentType, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .header("Content-Type", contentType)
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A well-behaved client's describe_table: answered 200 with a result. */
    private static void assertAnswered() throws Exception {
        HttpResponse<String> r = post("application/json", DESCRIBE);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(RawMcpClient.JSON.readTree(r.body()).has("result"), r.body());
    }

    private static void assertNoStackTrace(String body) {
        assertFalse(body.contains("Exception") || body.contains("\tat ") || body.contains(".java:"), body);
    }

    @Test
    void malformedJsonIsAJsonRpcParseErrorWithoutAStackTrace() throws Exception {
        HttpResponse<String> r = post("application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":");
        assertNotEquals(500, r.statusCode(), r.body());
        assertTrue(r.statusCode() < 500, r.statusCode() + " " + r.body());
        JsonNode error = RawMcpClient.JSON.readTree(r.body()).path("error");
        assertEquals(-32700, error.path("code").asInt(), r.body());
        assertFalse(error.path("message").asText().isBlank(), r.body());
        assertNoStackTrace(r.body());
    }

    @Test
    void bodiesThatAreJsonButNoJsonRpcMessageAreAnInvalidRequestWithoutAStackTrace() throws Exception {
        for (String body : List.of("", "[]", "[" + DESCRIBE + "]", "42", "null", "{}", "{\"jsonrpc\":\"2.0\",\"id\":1}")) {
            HttpResponse<String> r = post("application/json", body);
            assertEquals(400, r.statusCode(), body + " -> " + r.body());
            int code = RawMcpClient.JSON.readTree(r.body()).path("error").path("code").asInt();
            assertTrue(code == -32700 || code == -32600, body + " -> " + r.body());
            assertNoStackTrace(r.body());
        }
    }

    @Test
    void aWrongContentTypeIs415() throws Exception {
        HttpResponse<String> r = post("text/plain", DESCRIBE);
        assertEquals(415, r.statusCode(), r.body());
        assertNoStackTrace(r.body());
    }

    @Test
    void clientsThatHangUpMidBodyOrBeforeTheAnswerDoNotStopOthersBeingAnswered() throws Exception {
        byte[] body = DESCRIBE.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 50; i++) {
            // Half a body, then gone.
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                out.write(headers(body.length));
                out.write(body, 0, body.length / 2);
                out.flush();
            }
            // The whole call, then gone before the answer (RST on close: unread data is discarded).
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoLinger(true, 0);
                OutputStream out = s.getOutputStream();
                out.write(headers(body.length));
                out.write(body);
                out.flush();
            }
        }
        assertAnswered();
        waitUntil(() -> ((Number) server.service.observability().summary().get("in_flight")).intValue() == 0, 60,
                "in_flight back to 0 after the hang-ups");
        assertAnswered();
    }

    @Test
    void fiveHundredConnectionsMostlyIdleOrTricklingStillLetWellBehavedClientsThroughAndAreClosed() throws Exception {
        int baselineBusy = busyServerThreads();
        int baselineThreads = serverThreads();
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 380; i++) {
            Socket s = new Socket("127.0.0.1", port);
            if (i % 2 == 0) {
                // Half a request head, then silence.
                s.getOutputStream().write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            idle.add(s);
        }
        List<Socket> tricklers = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            Socket s = new Socket("127.0.0.1", port);
            s.getOutputStream().write(headers(HttpOptions.DEFAULT_MAX_REQUEST_BYTES - 1));
            tricklers.add(s);
        }
        // Slowloris: a byte of JSON whitespace per trickler every 200 ms, for as long as the server listens.
        // Never idle and never done, so only the minimum data rate can end these.
        ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
        boolean[] cut = new boolean[tricklers.size()];
        trickle.scheduleAtFixedRate(() -> {
            for (int i = 0; i < tricklers.size(); i++) {
                if (!cut[i]) {
                    try {
                        tricklers.get(i).getOutputStream().write(' ');
                    } catch (IOException closedByTheServer) {
                        cut[i] = true;
                    }
                }
            }
        }, 0, 200, TimeUnit.MILLISECONDS);
        int busyUnderLoad;
        int threadsUnderLoad;
        try {

            // 40 well-behaved clients (connections 461-500), 10 calls each, while the rest are open.
            drive(server.url(), 40, 400);
            busyUnderLoad = busyServerThreads();
            threadsUnderLoad = serverThreads();
            List<Socket> all = new ArrayList<>(idle);
            all.addAll(tricklers);
            long start = System.nanoTime();
            assertEquals(all.size(), closedByTheServer(all, TimeUnit.SECONDS.toMillis(HttpService.IDLE_TIMEOUT.toSeconds() * 3)),
                    "every idle or trickling connection closed by the server");
            System.out.printf("HttpRobustnessIT: %d idle and %d trickling connections all closed by the server within %d s%n",
                    idle.size(), tricklers.size(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        } finally {
            trickle.shutdownNow();
            for (Socket s : idle) {
                s.close();
            }
            for (Socket s : tricklers) {
                s.close();
            }
        }
        // Threads serving a request return to the baseline, and the pool evicts its idle threads within
        // seconds (5 s idle timeout, 32 at a time), back to the minimum plus acceptors and selectors.
        waitUntil(() -> busyServerThreads() <= baselineBusy, 60, "the server's busy threads back to " + baselineBusy);
        int floor = Math.max(baselineThreads, 16);
        waitUntil(() -> serverThreads() <= floor, 60, "the server's threads back to at most " + floor);
        System.out.printf("HttpRobustnessIT threads: busy server threads %d before, %d after the calls, %d at the end;"
                + " server threads %d before, %d under load, %d after%n", baselineBusy, busyUnderLoad, busyServerThreads(),
                baselineThreads, threadsUnderLoad, serverThreads());
        waitUntil(() -> ((Number) server.service.observability().summary().get("in_flight")).intValue() == 0, 60,
                "in_flight back to 0");
        assertAnswered();
    }

    @Test
    void usedHeapAfterTenThousandCallsIsWithinTenPercentOfAfterOneThousand() throws Exception {
        Path store = dir.resolve("heap.db");
        Cli.Result demo = Cli.run(dir, "--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("heap.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        Map<String, String> env = Map.of("SCHEMABRAIN_AUDIT_KEY", "ab".repeat(32), "XDG_CONFIG_HOME", dir.resolve("config").toString());
        try (ServedJar child = ServedJar.start(store, dir, env, List.of("-Xmx256m", "-XX:+UseG1GC"), "--stats-interval", "0")) {
            drive(child.url, 8, 1_000);
            long afterThousand = usedHeapAfterGc(child.process.pid());
            drive(child.url, 8, 9_000);
            long afterTenThousand = usedHeapAfterGc(child.process.pid());
            System.out.printf("HttpRobustnessIT heap: used after GC %d KiB after 1,000 calls, %d KiB after 10,000%n",
                    afterThousand, afterTenThousand);
            assertTrue(afterTenThousand <= afterThousand * 1.10, "used heap grew from " + afterThousand + " KiB after 1,000"
                    + " calls to " + afterTenThousand + " KiB after 10,000");
        }
    }

    /** {@code calls} describe_table and find_relevant_tables calls from {@code clients} clients; every one must be answered. */
    private static void drive(String url, int clients, int calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Integer>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            done.add(pool.submit(() -> {
                RawMcpClient mcp = new RawMcpClient(url);
                mcp.initialize("client-" + client);
                int ok = 0;
                for (long id = 1; id <= calls / clients; id++) {
                    Map<String, Object> args = id % 2 == 0 ? Map.of("qualified_name", "main.invoices")
                            : Map.of("query", "invoices paid late " + id);
                    if (mcp.call(id, id % 2 == 0 ? "describe_table" : "find_relevant_tables", args).has("result")) {
                        ok++;
                    }
                }
                return ok;
            }));
        }
        int ok = 0;
        for (Future<Integer> f : done) {
            ok += f.get(10, TimeUnit.MINUTES);
        }
        pool.shutdown();
        assertEquals(calls, ok, "every call answered");
    }

    private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");

    /** The child's used heap (KiB) after two full collections, from jcmd: the server's own figure. */
    private static long usedHeapAfterGc(long pid) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        for (int i = 0; i < 2; i++) {
            run(jcmd, Long.toString(pid), "GC.run");
        }
        String info = run(jcmd, Long.toString(pid), "GC.heap_info");
        Matcher m = USED.matcher(info);
        assertTrue(m.find(), info);
        return Long.parseLong(m.group(1));
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, Arrays.toString(command) + ": " + out);
        return out;
    }

    private static byte[] headers(int contentLength) {
        return ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nContent-Length: " + contentLength + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** How many of {@code sockets} the server closed (EOF or reset) within {@code millis}, reading and discarding any answer. */
    private static int closedByTheServer(List<Socket> sockets, long millis) throws IOException {
        long until = System.currentTimeMillis() + millis;
        int closed = 0;
        byte[] buffer = new byte[4096];
        for (Socket s : sockets) {
            InputStream in = s.getInputStream();
            while (true) {
                long left = until - System.currentTimeMillis();
                if (left <= 0) {
                    return closed;
                }
                s.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                try {
                    if (in.read(buffer) < 0) {
                        closed++;
                        break;
                    }
                } catch (SocketTimeoutException stillOpen) {
                    return closed;
                } catch (IOException reset) {
                    closed++;
                    break;
                }
            }
        }
        return closed;
    }

    /** The server's threads: its pool's, acceptors and selectors included. */
    private static int serverThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("schemabrain-http")).count();
    }

    /** Server threads handling a request now (in the servlet channel): idle pool, selector and acceptor threads are not. */
    private static int busyServerThreads() {
        int busy = 0;
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            if (t.getKey().getName().startsWith("schemabrain-http")
                    && Arrays.stream(t.getValue()).anyMatch(f -> f.getClassName().contains("ServletChannel"))) {
                busy++;
            }
        }
        return busy;
    }

    private static void waitUntil(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, "not within " + seconds + " s: " + what);
            Thread.sleep(100);
        }
    }
}
