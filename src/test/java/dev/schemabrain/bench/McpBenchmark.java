package dev.schemabrain.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MCP server over stdio on a Chinook store: describe_table latency per call as the SDK client sees
 * it, the size of tools/list, and the time from process start to the first answered tool call.
 * Run with {@code mvn -Pbench test -Dtest=McpBenchmark}; figures go to target/bench/mcp.txt.
 */
@Tag("benchmark")
class McpBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TABLES = List.of("album", "artist", "customer", "employee", "genre", "invoice",
            "invoice_line", "media_type", "playlist", "playlist_track", "track");

    @TempDir
    Path dir;

    @Test
    void mcpOverStdio() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        Path store = dir.resolve("chinook.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }

        long[] startups = new long[5];
        for (int i = 0; i < startups.length; i++) {
            startups[i] = millisToFirstToolAnswer(store);
        }
        Arrays.sort(startups);

        StringBuffer stderr = new StringBuffer();
        String toolsList;
        double[] concise;
        double[] detailed;
        try (McpSyncClient client = McpStdio.client(store, stderr)) {
            McpSchema.ListToolsResult tools = client.listTools();
            toolsList = JSON.writeValueAsString(tools);
            for (int i = 0; i < 200; i++) {  // warm-up: JIT and the catalog snapshot
                describe(client, TABLES.get(i % TABLES.size()), "concise");
            }
            concise = timeCalls(client, "concise", 2000);
            detailed = timeCalls(client, "detailed", 1000);
        }
        int bytes = toolsList.getBytes(StandardCharsets.UTF_8).length;
        Raw raw;
        Raw compact;
        try (RawClient client = new RawClient(store)) {
            raw = client.measure();
        }
        try (RawClient client = new RawClient(store, "--compact-tools")) {
            compact = client.measure();
        }
        String report = String.format(Locale.ROOT, """
                MCP over stdio, Chinook store (11 tables, 64 columns), this machine (%d cores)
                  start to first answered tools/call: median %d ms (min %d, max %d; 5 process starts)
                  tools/list: %d tools, %,d bytes, ~%,d tokens (bytes / 4)
                  describe_table concise:  p50 %.2f ms, p99 %.2f ms (%d calls)
                  describe_table detailed: p50 %.2f ms, p99 %.2f ms (%d calls)
                raw newline-delimited JSON-RPC client (no SDK on the client side), %d calls each after %d warm-up:
                  describe_table concise: p50 %.2f ms, p99 %.2f ms
                  tools/list:             p50 %.2f ms, p99 %.2f ms; frame %,d bytes (--compact-tools: %,d bytes)
                """, Runtime.getRuntime().availableProcessors(), startups[2], startups[0], startups[4],
                JSON.readTree(toolsList).path("tools").size(), bytes, bytes / 4,
                percentile(concise, 50), percentile(concise, 99), concise.length,
                percentile(detailed, 50), percentile(detailed, 99), detailed.length,
                RawClient.CALLS, RawClient.WARM_UP, percentile(raw.describe, 50), percentile(raw.describe, 99),
                percentile(raw.toolsList, 50), percentile(raw.toolsList, 99), raw.toolsListBytes, compact.toolsListBytes);
        Path out = Path.of("target", "bench", "mcp.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        System.out.print(report);
        assertTrue(bytes / 4 < 4000, report);
    }

    private static McpSchema.CallToolResult describe(McpSyncClient client, String table, String format) {
        McpSchema.CallToolResult r = McpStdio.call(client, "describe_table",
                Map.of("qualified_name", "public." + table, "response_format", format));
        assertEquals(false, r.isError());
        return r;
    }

    private static double[] timeCalls(McpSyncClient client, String format, int n) {
        double[] millis = new double[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            describe(client, TABLES.get(i % TABLES.size()), format);
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(millis);
        return millis;
    }

    private static double percentile(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    /** Sorted latencies in ms and the tools/list frame's size, as a raw client measured them. */
    private record Raw(double[] describe, double[] toolsList, int toolsListBytes) {
    }

    /** One request at a time over the server's stdin/stdout, as the lead's rawclient.py does. */
    private static final class RawClient implements AutoCloseable {
        static final int WARM_UP = 500;
        static final int CALLS = 3000;
        private final Process server;
        private final OutputStream in;
        private final BufferedReader out;
        private int id;

        RawClient(Path store, String... serveArgs) throws Exception {
            List<String> command = new ArrayList<>(McpStdio.serveCommand(store));
            command.addAll(List.of(serveArgs));
            server = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            in = server.getOutputStream();
            out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            request("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":"
                    + "{\"name\":\"bench\",\"version\":\"1\"}}");
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        Raw measure() throws Exception {
            String describe = "{\"name\":\"describe_table\",\"arguments\":{\"qualified_name\":\"public.track\"}}";
            time("tools/call", describe, WARM_UP);
            double[] calls = time("tools/call", describe, CALLS);
            time("tools/list", "{}", WARM_UP);
            double[] lists = time("tools/list", "{}", CALLS);
            int bytes = request("tools/list", "{}").getBytes(StandardCharsets.UTF_8).length + 1;
            return new Raw(calls, lists, bytes);
        }

        private double[] time(String method, String params, int n) throws Exception {
            double[] millis = new double[n];
            for (int i = 0; i < n; i++) {
                long start = System.nanoTime();
                String line = request(method, params);
                millis[i] = (System.nanoTime() - start) / 1e6;
                assertTrue(line.contains("\"result\"") && !line.contains("\"isError\":true"), line);
            }
            Arrays.sort(millis);
            return millis;
        }

        private String request(String method, String params) throws Exception {
            int mine = ++id;
            send("{\"jsonrpc\":\"2.0\",\"id\":" + mine + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
            String line = out.readLine();
            if (line == null) {
                throw new AssertionError("the server closed without answering " + method);
            }
            return line;
        }

        private void send(String line) throws Exception {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        @Override
        public void close() throws Exception {
            in.close();
            server.waitFor();
        }
    }

    /** Process start until the describe_table answer arrives, the client sending as soon as it can. */
    private static long millisToFirstToolAnswer(Path store) throws Exception {
        long start = System.nanoTime();
        Process server = new ProcessBuilder(McpStdio.serveCommand(store)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = server.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>(List.of(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\","
                            + "\"arguments\":{\"qualified_name\":\"public.track\"}}}"));
            for (String line : lines) {
                in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            in.flush();
            String line;
            while ((line = out.readLine()) != null) {
                JsonNode frame = JSON.readTree(line);
                if (frame.path("id").asInt() == 2) {
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    assertEquals("success", frame.at("/result/structuredContent/status").asText(), line);
                    return millis;
                }
            }
            throw new AssertionError("the server closed without answering");
        } finally {
            server.destroy();
            server.waitFor();
        }
    }
}
