package dev.schemabrain.mcp.tools;

import dev.schemabrain.access.RowFilter;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.TablePattern;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.testing.Indexed;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the access policy costs per call, in this JVM on the demo database (real SQLite): describe_table and
 * get_metric with no policy, under a role with an allow list, and under a role whose row filter binds a claim,
 * interleaved call by call so the three share the machine's load. Run with
 * {@code mvn -Pbench test -Dtest=AccessCostBenchmark}; figures go to target/bench/access.txt.
 */
@Tag("benchmark")
class AccessCostBenchmark {

    private static final int WARM = 200;
    private static final int N = 1_000;
    private static final List<TablePattern> BILLING = List.of(new TablePattern("main", "invoices"),
            new TablePattern("main", "invoice_line_items"), new TablePattern("main", "subscriptions"),
            new TablePattern("main", "organizations"), new TablePattern("main", "plans"));

    @TempDir
    Path dir;

    @Test
    void policyCostPerCall() throws Exception {
        SourceUrl url = SourceUrl.parse("sqlite:" + DemoDatabase.ensure(dir.resolve("cost.sqlite")));
        Path store = Indexed.store(url, dir.resolve("cost.db"));
        try (QueryExecutor executor = new QueryExecutor(url, ExecutorSettings.defaults())) {
            ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), SourceExecutors.of(Optional.of(executor)), 1, ExampleQueries.NONE);
            Role analyst = new Role("analyst", BILLING, Optional.empty(), List.of(), Set.of(), OptionalInt.empty(), Optional.empty());
            Role account = new Role("account", BILLING, Optional.empty(), List.of(new RowFilter(
                    "organizations", "organizations.country", RowFilter.Op.IN, "countries")),
                    Set.of(), OptionalInt.empty(), Optional.empty());
            AccessPolicy policy = new AccessPolicy(Map.of("analyst", analyst, "account", account), Optional.empty());
            Map<String, Access> accesses = new LinkedHashMap<>();
            accesses.put("no policy", Access.UNRESTRICTED);
            accesses.put("allow list", policy.resolve(new Caller("token:a", Optional.of("analyst"), Map.of())));
            accesses.put("allow list + row filter", policy.resolve(new Caller("token:b", Optional.of("account"),
                    Map.of("countries", "US,DE"))));
            String metric = invoiceTotal(tools);

            Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
            calls.put("describe_table", Map.of("qualified_name", "main.invoices"));
            calls.put("get_metric", Map.of("name", metric));
            Map<String, long[]> nanos = new LinkedHashMap<>();
            List<String> keys = new ArrayList<>();
            for (String tool : calls.keySet()) {
                for (String who : accesses.keySet()) {
                    keys.add(tool + " | " + who);
                    nanos.put(tool + " | " + who, new long[N]);
                }
            }
            for (int i = -WARM; i < N; i++) {
                // Rotate the order each round so no variant always runs first or last.
                for (int k = 0; k < keys.size(); k++) {
                    String key = keys.get((k + Math.floorMod(i, keys.size())) % keys.size());
                    String tool = key.substring(0, key.indexOf(" | "));
                    Access access = accesses.get(key.substring(key.indexOf(" | ") + 3));
                    long t0 = System.nanoTime();
                    Envelope e = tools.call(tool, calls.get(tool), "bench", access);
                    long t = System.nanoTime() - t0;
                    assertEquals(Status.SUCCESS, e.status(), key + ": " + e.toJson());
                    if (i >= 0) {
                        nanos.get(key)[i] = t;
                    }
                }
            }
            StringBuilder out = new StringBuilder("access policy cost per call, in-JVM registry calls on the demo database"
                    + " (SQLite), " + N + " calls each after " + WARM + " warm-up rounds, interleaved; microseconds p50 / p99\n");
            nanos.forEach((key, t) -> out.append(String.format("%-48s %8.1f / %8.1f%n", key, pct(t, 50), pct(t, 99))));
            Files.createDirectories(Path.of("target/bench"));
            Files.writeString(Path.of("target/bench/access.txt"), out);
            System.out.print(out);
            assertTrue(nanos.values().stream().allMatch(t -> pct(t, 50) > 0));
        }
    }

    private static String invoiceTotal(ToolRegistry tools) {
        Envelope listed = tools.call("list_metrics", Map.of("limit", 200));
        for (JsonNode m : listed.data().get("metrics")) {
            if (m.path("measure").path("column").asText().equals("total_cents")
                    && m.path("measure").path("agg").asText().equals("sum")) {
                return m.get("name").asText();
            }
        }
        throw new AssertionError("no sum of invoices.total_cents: " + listed.toJson());
    }

    private static double pct(long[] t, int p) {
        long[] s = t.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)] / 1_000.0;
    }
}
