package dev.schemabrain.security;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.EnvelopeChecks;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Availability under a hostile flood (issue 12, item 12), through the SDK's own client over real stdio
 * against the packaged jar and a real SQLite source big enough that one metric takes a noticeable while
 * (600,000 sales grouped by region over two joins). One client fires 300 get_metric calls at once and,
 * while they are in flight, asks describe_table: the cheap call must not queue behind the flood. Every
 * flood call must be answered (rows or source_busy) and the server must keep answering. Then the
 * per-caller rate limit of get_metric: a burst past it is refused with policy_blocked while catalog
 * tools go on, and after the wait the metric runs again. Figures go to target/security/availability.txt.
 */
class AvailabilityIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FLOOD = 300;
    private static final int CHEAP_CALLS = 10;
    private static final Map<String, Object> METRIC = Map.of("name", "sale_amount_sum", "group_by", List.of("region.code"));
    private static final Map<String, Object> CHEAP = Map.of("qualified_name", "sale");

    @TempDir
    static Path dir;
    static Path store;
    static Path source;

    @BeforeAll
    static void indexABigSqliteSource() throws Exception {
        source = dir.resolve("sales.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE region (id INTEGER PRIMARY KEY, code TEXT NOT NULL)");
            st.execute("CREATE TABLE shop (id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL REFERENCES region(id), city TEXT)");
            st.execute("CREATE TABLE sale (id INTEGER PRIMARY KEY, shop_id INTEGER NOT NULL REFERENCES shop(id), "
                    + "amount REAL NOT NULL, sold_at TEXT NOT NULL)");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20) "
                    + "INSERT INTO region SELECT i, printf('R%02d', i) FROM n");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
                    + "INSERT INTO shop SELECT i, 1 + i % 20, 'City ' || (i % 97) FROM n");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600000) "
                    + "INSERT INTO sale SELECT i, 1 + (i * 7919) % 2000, (i % 1000) / 10.0, "
                    + "date('2024-01-01', '+' || (i % 700) || ' days') FROM n");
        }
        store = dir.resolve("sales.db");
        Cli.Result index = Cli.run(dir, "--store", store.toString(), "index", "--source", "sqlite:" + source);
        assertEquals(0, index.exitCode(), index.stderr());
    }

    /** What one answer was: rows, source_busy, a rate-limit refusal, or something else (named). */
    static String outcome(McpSchema.CallToolResult result) {
        Map<String, Object> envelope = JSON.convertValue(result.structuredContent(), new TypeReference<>() { });
        String status = String.valueOf(envelope.get("status"));
        if (status.equals("success") || status.equals("partial")) {
            return "rows";
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> error = (Map<String, Object>) envelope.get("error");
        return error == null ? status : status + "/" + error.get("kind");
    }

    static McpAsyncClient asyncClient(StringBuffer stderr, String... serveArgs) {
        List<String> command = new ArrayList<>(McpStdio.serveCommand(store));
        command.addAll(List.of(serveArgs));
        ServerParameters params = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()).toArray(String[]::new))
                .env(Map.of("SB_IT_SOURCE", "sqlite:" + source))
                .build();
        StdioClientTransport transport = new StdioClientTransport(params, McpStdio.JSON);
        transport.setStdErrorHandler(line -> stderr.append(line).append('\n'));
        McpAsyncClient client = McpClient.async(transport)
                .requestTimeout(Duration.ofSeconds(300))
                .initializationTimeout(Duration.ofSeconds(60))
                .clientInfo(McpSchema.Implementation.builder("availability-it", "1").build())
                .build();
        client.initialize().block(Duration.ofSeconds(60));
        return client;
    }

    static McpSchema.CallToolRequest request(String tool, Map<String, Object> arguments) {
        return McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
    }

    @Test
    void aFloodOfMetricCallsDoesNotStarveCatalogToolsAndEveryCallIsAnswered() throws Exception {
        StringBuffer stderr = new StringBuffer();
        McpAsyncClient client = asyncClient(stderr, "--url-env", "SB_IT_SOURCE", "--max-concurrent-queries", "4",
                "--metric-rate-limit", "off");
        try {
            flood(client);
        } catch (Exception | AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nserver stderr (end):\n" + tail(stderr), e);
        } finally {
            client.closeGracefully().block(Duration.ofSeconds(30));
        }
    }

    private static String tail(StringBuffer stderr) {
        return stderr.substring(Math.max(0, stderr.length() - 4_000));
    }

    private static void flood(McpAsyncClient client) throws Exception {
        {
            Map<String, McpSchema.Tool> tools = client.listTools().block(Duration.ofSeconds(30)).tools().stream()
                    .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
            // The metric runs and takes a while on its own.
            McpSchema.CallToolResult alone = client.callTool(request("get_metric", METRIC)).block(Duration.ofSeconds(120));
            EnvelopeChecks.envelope(alone, tools.get("get_metric").outputSchema(), tools.keySet());
            assertEquals("rows", outcome(alone), () -> String.valueOf(alone.structuredContent()));

            AtomicInteger arrivals = new AtomicInteger();
            List<String> floodOutcomes = Collections.synchronizedList(new ArrayList<>());
            Map<Integer, String> rowsArrivals = new ConcurrentHashMap<>();
            CountDownLatch floodDone = new CountDownLatch(FLOOD);
            for (int i = 0; i < FLOOD; i++) {
                client.callTool(request("get_metric", METRIC)).subscribe(result -> {
                    int order = arrivals.incrementAndGet();
                    String outcome = outcome(result);
                    if (outcome.equals("rows")) {
                        rowsArrivals.put(order, outcome);
                    }
                    floodOutcomes.add(outcome);
                    floodDone.countDown();
                }, error -> {
                    floodOutcomes.add("protocol error: " + error.getMessage());
                    floodDone.countDown();
                });
            }
            // While the flood is in flight: cheap calls one after the other, each timed from send to answer.
            List<Long> cheapMillis = new ArrayList<>();
            int firstCheapArrival = -1;
            int outstandingAtFirstCheap = -1;
            for (int i = 0; i < CHEAP_CALLS; i++) {
                long start = System.nanoTime();
                McpSchema.CallToolResult cheap = client.callTool(request("describe_table", CHEAP)).block(Duration.ofSeconds(120));
                int order = arrivals.incrementAndGet();
                cheapMillis.add((System.nanoTime() - start) / 1_000_000);
                Map<String, Object> envelope = EnvelopeChecks.envelope(cheap, tools.get("describe_table").outputSchema(), tools.keySet());
                assertEquals("success", envelope.get("status"), envelope::toString);
                if (i == 0) {
                    firstCheapArrival = order;
                    outstandingAtFirstCheap = (int) floodDone.getCount();
                }
            }
            assertTrue(floodDone.await(300, TimeUnit.SECONDS), "every flood call is answered");
            int firstCheap = firstCheapArrival;
            long rowsBeforeCheap = rowsArrivals.keySet().stream().filter(order -> order < firstCheap).count();
            long rows = floodOutcomes.stream().filter("rows"::equals).count();
            long busy = floodOutcomes.stream().filter("error/source_busy"::equals).count();
            long limited = floodOutcomes.stream().filter("refused/policy_blocked"::equals).count();
            List<String> other = floodOutcomes.stream().filter(o -> !o.equals("rows") && !o.equals("error/source_busy")).toList();

            // The server is still up and answers both kinds of tool afterwards.
            McpSchema.CallToolResult after = client.callTool(request("get_metric", METRIC)).block(Duration.ofSeconds(120));
            assertEquals("rows", outcome(after), () -> String.valueOf(after.structuredContent()));
            McpSchema.CallToolResult list = client.callTool(request("list_indexed_schemas", Map.of())).block(Duration.ofSeconds(30));
            assertEquals("rows", outcome(list));

            List<Long> sorted = cheapMillis.stream().sorted().toList();
            report("flood", String.format(Locale.ROOT, "flood of %d concurrent get_metric from one client (--max-concurrent-queries 4):"
                            + " %d answered with rows, %d source_busy, %d rate-limited, %d other, %d unanswered%n"
                            + "cheap call (describe_table) under the flood: p50 %d ms, max %d ms over %d calls (in order: %s); the first"
                            + " was answered after %d of the %d row answers, with %d of %d flood calls still outstanding%n",
                    FLOOD, rows, busy, limited, other.size(), FLOOD - floodOutcomes.size(), sorted.get(sorted.size() / 2),
                    sorted.get(sorted.size() - 1), CHEAP_CALLS, cheapMillis, rowsBeforeCheap, rows, outstandingAtFirstCheap, FLOOD));

            assertEquals(FLOOD, floodOutcomes.size());
            assertEquals(List.of(), other, "every flood call is answered with rows or source_busy");
            assertTrue(rows >= 4, "the flood's admitted calls ran: " + rows);
            // The ordering claim: the cheap call did not wait for the flood's admitted work.
            assertTrue(rowsBeforeCheap * 2 < rows, "describe_table waited for " + rowsBeforeCheap + " of " + rows + " metric answers");
        }
    }

    @Test
    void metricCallsPastTheCallersRateAreRefusedWhileCatalogToolsGoOn() throws Exception {
        StringBuffer stderr = new StringBuffer();
        // A cheap metric, so the source is never the limit here: only the rate is.
        Map<String, Object> cheapMetric = Map.of("name", "region_count");
        int burst = 5;
        double perSecond = 2;
        int calls = 30;
        McpAsyncClient client = asyncClient(stderr, "--url-env", "SB_IT_SOURCE", "--metric-rate-limit", "2/s",
                "--metric-rate-burst", String.valueOf(burst), "--max-concurrent-queries", "8");
        try {
            Map<String, McpSchema.Tool> tools = client.listTools().block(Duration.ofSeconds(30)).tools().stream()
                    .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
            List<Map<String, Object>> answers = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(calls);
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                client.callTool(request("get_metric", cheapMetric)).subscribe(result -> {
                    try {
                        answers.add(EnvelopeChecks.envelope(result, tools.get("get_metric").outputSchema(), tools.keySet()));
                    } catch (Exception | AssertionError e) {
                        answers.add(Map.of("status", "invalid envelope: " + e.getMessage()));
                    }
                    done.countDown();
                }, error -> {
                    answers.add(Map.of("status", "protocol error: " + error.getMessage()));
                    done.countDown();
                });
            }
            assertTrue(done.await(120, TimeUnit.SECONDS));
            double elapsedSeconds = (System.nanoTime() - start) / 1e9;
            // Catalog tools are not limited: all answered while the caller's metric budget is spent.
            int catalogOk = 0;
            for (int i = 0; i < 10; i++) {
                McpSchema.CallToolResult r = client.callTool(request("describe_table", CHEAP)).block(Duration.ofSeconds(30));
                catalogOk += "rows".equals(outcome(r)) ? 1 : 0;
            }
            List<Map<String, Object>> limited = answers.stream().filter(a -> "refused".equals(a.get("status"))).toList();
            long ran = answers.stream().filter(a -> "success".equals(a.get("status"))).count();
            List<Object> other = answers.stream().filter(a -> !"refused".equals(a.get("status")) && !"success".equals(a.get("status")))
                    .map(a -> (Object) a).toList();
            assertEquals(List.of(), other);
            // At most the burst plus what refilled while the calls went out can run; the rest is refused.
            long allowed = burst + (long) Math.ceil(elapsedSeconds * perSecond);
            assertTrue(ran >= burst && ran <= allowed, ran + " ran, allowed " + allowed);
            assertEquals(calls - ran, limited.size());
            @SuppressWarnings("unchecked")
            Map<String, Object> error = (Map<String, Object>) limited.get(0).get("error");
            assertEquals("policy_blocked", error.get("kind"));
            String message = (String) error.get("message");
            assertTrue(message.contains("2 calls per second") && message.contains("retry"), message);
            @SuppressWarnings("unchecked")
            Map<String, Object> recovery = (Map<String, Object>) error.get("recovery");
            assertEquals("get_metric", recovery.get("suggested_tool"));
            assertEquals(cheapMetric, recovery.get("suggested_args"));
            assertEquals(10, catalogOk);

            // After the wait the message names, the metric runs again.
            Thread.sleep(1_000);
            McpSchema.CallToolResult again = client.callTool(request("get_metric", cheapMetric)).block(Duration.ofSeconds(30));
            assertEquals("rows", outcome(again), () -> String.valueOf(again.structuredContent()));

            report("rate", String.format(Locale.ROOT, "rate limit (--metric-rate-limit 2/s --metric-rate-burst %d): %d get_metric"
                            + " calls at once -> %d ran, %d refused (policy_blocked); describe_table meanwhile: %d / 10 success;"
                            + " after 1 s the metric ran again%n", burst, calls, ran, limited.size(), catalogOk));
        } finally {
            client.closeGracefully().block(Duration.ofSeconds(30));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"--metric-rate-limit, fast", "--metric-rate-limit, 0/s", "--metric-rate-burst, 0"})
    void aRateTheServerCannotReadIsOneSentenceAndExitTwo(String option, String value) throws Exception {
        Cli.Result r = Cli.run(dir, "--store", store.toString(), "serve", option, value);
        assertAll(() -> assertEquals(2, r.exitCode(), r.stderr()),
                () -> assertTrue(r.stderr().strip().lines().count() == 1 && r.stderr().contains("--metric-rate-limit"), r.stderr()),
                () -> assertEquals("", r.stdout(), "nothing but frames on stdout, and here none"));
    }

    /** One file per suite; each test replaces its own lines. */
    private static synchronized void report(String key, String lines) throws Exception {
        Path file = Path.of("target", "security", "availability.txt");
        Files.createDirectories(file.getParent());
        List<String> kept = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.startsWith(key + ": ")).toList() : List.of();
        List<String> out = new ArrayList<>(kept);
        for (String line : lines.split("\n")) {
            if (!line.isBlank()) {
                out.add(key + ": " + line);
            }
        }
        Files.write(file, out, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
