package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an answer must never get wrong under success on a schema nobody has seen (issue 46), on a coworking-space
 * schema written for this test (not a sample, not a blind set): sandbox sites whose bookings and refunds are not real,
 * members who are soft-deleted (their past bookings stay), booking statuses that were updated after insert (so the
 * first rows of the heap hold none of the completed ones), amounts in EUR and CHF. Every number is compared with
 * hand-written SQL on the real PostgreSQL.
 */
class AnswerAssumptionsTest {

    private static final String DB = "answer_assumptions";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static QueryExecutor executor;
    static ToolRegistry tools;
    static ServedCatalog served;

    @BeforeAll
    static void serve() throws Exception {
        TestPostgres.createDatabase(DB,
                "CREATE TABLE site (site_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, is_sandbox BOOLEAN NOT NULL)",
                "CREATE TABLE member (member_id INT PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL,"
                        + " email VARCHAR(80) NOT NULL, deleted_at TIMESTAMP)",
                "CREATE TABLE booking (booking_id INT PRIMARY KEY, site_id INT NOT NULL REFERENCES site (site_id),"
                        + " member_id INT NOT NULL REFERENCES member (member_id), status VARCHAR(12) NOT NULL,"
                        + " currency CHAR(3) NOT NULL, amount NUMERIC(10,2) NOT NULL, booked_at TIMESTAMP NOT NULL)",
                "CREATE TABLE booking_refund (refund_id INT PRIMARY KEY, booking_id INT NOT NULL REFERENCES booking (booking_id),"
                        + " amount NUMERIC(10,2) NOT NULL, refunded_at TIMESTAMP NOT NULL)",
                "INSERT INTO site SELECT i, CASE WHEN i = 6 THEN 'Sandbox site' ELSE 'Site ' || i END, i = 6"
                        + " FROM generate_series(1, 6) i",
                "INSERT INTO member SELECT i, 'Name' || i, 'Family' || i, 'm' || i || '@example.com',"
                        + " CASE WHEN i % 10 = 0 THEN TIMESTAMP '2025-06-01' END FROM generate_series(1, 200) i",
                // Every booking starts pending; most complete later, and an updated row moves to the end of the heap.
                "INSERT INTO booking SELECT i, i % 6 + 1, i % 200 + 1, 'pending', CASE WHEN i % 6 + 1 IN (2, 5) THEN 'CHF' ELSE 'EUR' END,"
                        + " 10 + i % 37, TIMESTAMP '2025-01-01' + ((i * 7) % 360 || ' days')::interval FROM generate_series(1, 3000) i",
                "UPDATE booking SET status = CASE WHEN booking_id % 9 = 0 THEN 'cancelled' ELSE 'completed' END WHERE booking_id % 10 <> 0",
                // A member whose only completed booking is at the sandbox site: not a member with a real booking.
                "INSERT INTO member VALUES (201, 'Only', 'Sandbox', 'm201@example.com', NULL)",
                "INSERT INTO booking VALUES (3001, 6, 201, 'completed', 'EUR', 20, TIMESTAMP '2025-03-01')",
                "INSERT INTO booking_refund SELECT booking_id, booking_id, amount / 2, booked_at + INTERVAL '40 days'"
                        + " FROM booking WHERE status = 'completed' AND booking_id % 11 = 0",
                "ANALYZE");
        SourceUrl url = SourceUrl.parse(TestPostgres.url(DB));
        Path store = dir.resolve("store.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        StoreCatalogProvider catalogs = new StoreCatalogProvider(store);
        tools = StandardTools.registry(catalogs, Optional.of(executor));
        served = catalogs.current().orElseThrow();
    }

    @AfterAll
    static void close() {
        if (executor != null) {
            executor.close();
        }
    }

    static JsonNode call(String tool, Map<String, Object> args) {
        return JSON.valueToTree(tools.call(tool, args));
    }

    /** The hand SQL's rows as key → value, values as plain decimals. */
    static Map<String, BigDecimal> hand(String sql) throws Exception {
        Map<String, BigDecimal> out = new TreeMap<>();
        for (List<Object> row : executor.execute(new BoundQuery(sql, List.of()), 10_000).rows()) {
            out.put(String.valueOf(row.get(0)), new BigDecimal(String.valueOf(row.get(1))).stripTrailingZeros());
        }
        return out;
    }

    static Map<String, BigDecimal> rows(JsonNode answer, String key, String value) {
        Map<String, BigDecimal> out = new TreeMap<>();
        answer.path("data").path("rows").forEach(r -> out.put(r.path(key).asText(), r.path(value).decimalValue().stripTrailingZeros()));
        return out;
    }

    @Test
    void aStatusColumnKeepsEveryValueItHoldsNotOnlyThoseOfTheFirstRows() {
        var status = served.catalog().table(QualifiedName.of("public", "booking")).orElseThrow()
                .column("status").orElseThrow();
        assertTrue(status.values().containsAll(List.of("pending", "completed", "cancelled")), status.values().toString());
    }

    @Test
    void aSandboxParentMakesItsChildrenNotRealButASoftDeletedMemberKeepsTheirHistory() {
        SemanticModel model = served.semantic();
        for (String entity : List.of("booking", "booking_refund")) {
            List<Filter> live = model.entity(entity).map(Entity::defaultSegments).orElseThrow().stream()
                    .flatMap(s -> s.filters().stream()).toList();
            assertTrue(live.contains(new Filter("site.is_sandbox", FilterOp.EQ, false)), entity + ": " + live);
            assertFalse(live.stream().anyMatch(f -> f.column().startsWith("member.")), entity + ": " + live);
        }
        List<Filter> members = model.entity("member").map(Entity::defaultSegments).orElseThrow().stream()
                .flatMap(s -> s.filters().stream()).toList();
        assertTrue(members.contains(new Filter("member.deleted_at", FilterOp.IS_NULL, null)), members.toString());
    }

    @Test
    void amountsInSeveralCurrenciesAreNeverAddedAndTheRecoveryAsksByCurrency() throws Exception {
        JsonNode refused = call("get_metric", Map.of("name", "booking_amount_sum"));
        assertEquals("invalid_argument", refused.path("error").path("kind").asText(), refused.toString());
        assertTrue(refused.path("error").path("message").asText().contains("booking.currency"), refused.toString());
        JsonNode retry = refused.path("error").path("recovery").path("suggested_args");
        assertEquals(List.of("booking.currency"), JSON.convertValue(retry.path("group_by"), List.class));

        @SuppressWarnings("unchecked")
        JsonNode byCurrency = call("get_metric", JSON.convertValue(retry, Map.class));
        assertEquals("success", byCurrency.path("status").asText(), byCurrency.toString());
        String sold = " FROM booking b JOIN site s ON s.site_id = b.site_id WHERE NOT s.is_sandbox AND b.status = 'completed'";
        assertEquals(hand("SELECT b.currency, SUM(b.amount)" + sold + " GROUP BY 1"),
                rows(byCurrency, "booking.currency", "booking_amount_sum"));

        JsonNode chf = call("get_metric", Map.of("name", "booking_amount_sum", "filters",
                List.of(Map.of("column", "booking.currency", "op", "eq", "value", "CHF"))));
        assertEquals("success", chf.path("status").asText(), chf.toString());
        assertEquals(hand("SELECT 'x', SUM(b.amount)" + sold + " AND b.currency = 'CHF'").values().iterator().next(),
                chf.path("data").path("rows").get(0).path("booking_amount_sum").decimalValue().stripTrailingZeros());
        assertTrue(chf.path("data").path("assumptions").path("currency").asText().contains("CHF"), chf.toString());
    }

    @Test
    void aFilterOnTheStatusADraftGuessedAsksForThoseRowsAndTheAnswerSaysSo() throws Exception {
        // The draft keeps completed bookings; a caller asking for pending ones gets them, not an empty success.
        JsonNode pending = call("get_metric", Map.of("name", "booking_amount_sum", "group_by", List.of("booking.currency"),
                "filters", List.of(Map.of("column", "booking.status", "op", "eq", "value", "pending"))));
        assertEquals("success", pending.path("status").asText(), pending.toString());
        assertEquals(hand("SELECT b.currency, SUM(b.amount) FROM booking b JOIN site s ON s.site_id = b.site_id"
                        + " WHERE NOT s.is_sandbox AND b.status = 'pending' GROUP BY 1"),
                rows(pending, "booking.currency", "booking_amount_sum"));
        assertFalse(rows(pending, "booking.currency", "booking_amount_sum").isEmpty(), "the demo data has pending bookings");
        String said = pending.path("data").path("assumptions").toString();
        assertTrue(said.contains("counts only rows where booking.status eq pending"), said);
    }

    @Test
    void everyMetricAnswerSaysWhatItAssumedInOneSentence() {
        JsonNode answer = call("get_metric", Map.of("name", "booking_count", "group_by", List.of("booking.status")));
        JsonNode assumptions = answer.path("data").path("assumptions");
        String sentence = assumptions.path("sentence").asText();
        assertTrue(sentence.contains("draft nobody has reviewed"), sentence);
        assertTrue(sentence.contains("site.is_sandbox"), sentence);
        assertTrue(sentence.contains("every booking.status"), sentence);
        assertTrue(sentence.contains("dated by booking.booked_at"), sentence);
        assertEquals("LOW", answer.path("confidence").asText(), answer.toString());

        JsonNode sum = call("get_metric", Map.of("name", "booking_amount_sum", "group_by", List.of("booking.currency")));
        String said = sum.path("data").path("assumptions").path("sentence").asText();
        assertTrue(said.contains("counts only rows where booking.status in (completed)"), said);
        assertTrue(said.contains("per currency"), said);
    }

    @Test
    void anExecuteAnswerSaysNoMetricRuleWasAddedToTheCallersSql() {
        JsonNode answer = call("execute", Map.of("sql", "SELECT status, COUNT(*) FROM booking GROUP BY status"));
        String sentence = answer.path("data").path("assumptions").path("sentence").asText();
        assertTrue(sentence.contains("no status, test-row, soft-delete or currency rule"), answer.toString());
    }

    @Test
    void aFilterOnRowsReachedOneToManyIsSaidNotPassedOffAsAPlainFilter() {
        JsonNode answer = call("get_metric", Map.of("name", "booking_amount_sum", "filters", List.of(
                Map.of("column", "booking.currency", "op", "eq", "value", "EUR"),
                Map.of("column", "booking_refund.refunded_at", "op", "gte", "value", "2025-06-01"))));
        assertEquals("degraded", answer.path("status").asText(), answer.toString());
        assertEquals("filtered_through_related_rows", answer.path("degradation_reason").asText(), answer.toString());
        assertTrue(answer.path("data").path("assumptions").path("sentence").asText().contains("at least one matching"),
                answer.toString());
    }

    /** "Members with a completed booking" counts a member only for a real booking: the bookings' defaults apply too. */
    @Test
    void aFilterOnRelatedRowsTakesThoseRowsDefaults() throws Exception {
        JsonNode answer = call("get_metric", Map.of("name", "member_count", "filters",
                List.of(Map.of("column", "booking.status", "op", "eq", "value", "completed"))));
        assertEquals("filtered_through_related_rows", answer.path("degradation_reason").asText(), answer.toString());
        BigDecimal expected = hand("SELECT 'x', COUNT(DISTINCT m.member_id) FROM member m JOIN booking b ON b.member_id = m.member_id"
                + " JOIN site s ON s.site_id = b.site_id WHERE m.deleted_at IS NULL AND b.status = 'completed' AND NOT s.is_sandbox")
                .values().iterator().next();
        assertEquals(expected, answer.path("data").path("rows").get(0).path("member_count").decimalValue().stripTrailingZeros(),
                answer.toString());
        assertTrue(answer.path("data").path("assumptions").path("sentence").asText().contains("site.is_sandbox"), answer.toString());
    }

    /**
     * Net cash by month in 2025H1 of a derived metric whose parts have different time axes: metric_time restricts the
     * bookings by booked_at and the refunds by refunded_at, each on its own dates.
     */
    @Test
    void metricTimeRestrictsEachPartOfACombinedMetricOnItsOwnTimeAxis() throws Exception {
        SemanticModel drafted = served.semantic();
        List<Metric> metrics = new ArrayList<>(drafted.metrics());
        metrics.add(new Metric("net_cash", "Bookings less refunds", "booking", null, null, List.of(), List.of(), Origin.AUTHORED,
                new MetricKind.Derived("booking_amount_sum - booking_refund_amount_sum")));
        SemanticModel model = new SemanticModel(drafted.entities(), drafted.joins(), metrics);
        CompiledMetric compiled = new MetricCompiler(served.catalog(), model).compile(new MetricRequest("net_cash", List.of(),
                List.of(new Filter("booking.currency", FilterOp.EQ, "EUR"), new Filter("metric_time", FilterOp.GTE, "2025-01-01"),
                        new Filter("metric_time", FilterOp.LT, "2025-07-01")), "month", null, List.of(), List.of(), 100),
                Engines.POSTGRESQL);
        Map<String, BigDecimal> got = new TreeMap<>();
        for (List<Object> row : executor.execute(new BoundQuery(compiled.sql(), compiled.params()), 100).rows()) {
            got.put(String.valueOf(row.get(0)).substring(0, 10), new BigDecimal(String.valueOf(row.get(1))).stripTrailingZeros());
        }
        String real = " JOIN site s ON s.site_id = b.site_id WHERE NOT s.is_sandbox AND b.status = 'completed' AND b.currency = 'EUR'";
        Map<String, BigDecimal> paid = hand("SELECT to_char(date_trunc('month', b.booked_at), 'YYYY-MM-DD'), SUM(b.amount)"
                + " FROM booking b" + real + " AND b.booked_at >= '2025-01-01' AND b.booked_at < '2025-07-01' GROUP BY 1");
        Map<String, BigDecimal> refunded = hand("SELECT to_char(date_trunc('month', r.refunded_at), 'YYYY-MM-DD'), SUM(r.amount)"
                + " FROM booking_refund r JOIN booking b ON b.booking_id = r.booking_id" + real.replace("AND b.status = 'completed' ", "")
                + " AND r.refunded_at >= '2025-01-01' AND r.refunded_at < '2025-07-01' GROUP BY 1");
        Map<String, BigDecimal> expected = new LinkedHashMap<>();
        paid.forEach((month, v) -> expected.put(month, v.subtract(refunded.getOrDefault(month, BigDecimal.ZERO)).stripTrailingZeros()));
        assertFalse(refunded.isEmpty(), "refunds fall in the range on their own dates");
        assertEquals(new TreeMap<>(expected), got);
    }
}
