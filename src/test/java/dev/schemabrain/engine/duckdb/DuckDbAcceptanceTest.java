package dev.schemabrain.engine.duckdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.execute.BoundQuery;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.mining.QueryLogMiner;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DuckDB end to end on a bike-rental schema written for this test and built from SQL in it: introspected read-only,
 * indexed through the real Indexer, drafted, and get_metric (through the tool registry) equal to DuckDB's own
 * answer to hand-written SQL, in total, grouped and by month; a write through the executor is refused and the
 * file's bytes never change.
 */
class DuckDbAcceptanceTest {

    @TempDir
    static Path dir;
    static Path file;
    static SourceUrl url;
    static String digest;
    static QueryExecutor executor;
    static ToolRegistry tools;

    @BeforeAll
    static void build() throws Exception {
        file = dir.resolve("rentals.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            for (String sql : ddl()) {
                st.execute(sql);
            }
        }
        digest = sha256(file);
        url = SourceUrl.parse("duckdb:" + file);
        Path store = dir.resolve("store.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        executor = new QueryExecutor(url, ExecutorSettings.defaults());
        tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
    }

    @AfterAll
    static void close() throws Exception {
        executor.close();
        assertEquals(digest, sha256(file), "nothing SchemaBrain did changed the file");
    }

    static List<String> ddl() {
        List<String> out = new ArrayList<>(List.of(
                "CREATE SCHEMA rental",
                "CREATE TABLE rental.stations (station_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL UNIQUE, city VARCHAR NOT NULL)",
                "COMMENT ON TABLE rental.stations IS 'Docking stations where bikes are picked up'",
                "CREATE TABLE rental.members (member_id INTEGER PRIMARY KEY, plan VARCHAR NOT NULL, joined_on DATE NOT NULL)",
                "CREATE TABLE rental.trips (trip_id INTEGER PRIMARY KEY,"
                        + " station_id INTEGER NOT NULL REFERENCES rental.stations (station_id),"
                        + " member_id INTEGER REFERENCES rental.members (member_id),"
                        + " started_on DATE NOT NULL, minutes INTEGER NOT NULL, fare_amount DECIMAL(8,2) NOT NULL)",
                "COMMENT ON COLUMN rental.trips.fare_amount IS 'Fare charged in euros'",
                "CREATE VIEW rental.long_trips AS SELECT * FROM rental.trips WHERE minutes > 60"));
        String[] cities = {"Lisbon", "Porto", "Braga"};
        List<String> stations = new ArrayList<>();
        for (int s = 1; s <= 6; s++) {
            stations.add("(" + s + ", 'Dock " + s + "', '" + cities[s % cities.length] + "')");
        }
        out.add("INSERT INTO rental.stations VALUES " + String.join(", ", stations));
        List<String> members = new ArrayList<>();
        for (int m = 1; m <= 15; m++) {
            members.add("(" + m + ", '" + (m % 3 == 0 ? "annual" : "monthly") + "', DATE '" + LocalDate.of(2024, 6, 1).plusDays(m * 9L) + "')");
        }
        out.add("INSERT INTO rental.members VALUES " + String.join(", ", members));
        List<String> trips = new ArrayList<>();
        for (int t = 1; t <= 150; t++) {
            trips.add("(" + t + ", " + (t % 6 + 1) + ", " + (t % 5 == 0 ? "NULL" : String.valueOf(t % 15 + 1)) + ", DATE '"
                    + LocalDate.of(2025, 1, 3).plusDays(t * 1L) + "', " + (5 + (t * 17) % 90) + ", " + (1 + (t * 37) % 800) / 100.0 + ")");
        }
        out.add("INSERT INTO rental.trips VALUES " + String.join(", ", trips));
        return out;
    }

    @Test
    void theRegistryReadsTheDuckDbScheme() throws Exception {
        assertEquals(DuckDbEngine.KIND, url.kind());
        assertEquals("duckdb:" + file.toAbsolutePath().normalize(), url.displayUrl());
        assertEquals(Engines.of(DuckDbEngine.KIND).orElseThrow(), Engines.forScheme("duckdb").orElseThrow());
        SourceException unknown = assertThrows(SourceException.class, () -> SourceUrl.parse("duck:/x"));
        assertTrue(unknown.getMessage().contains("duckdb:FILE"), unknown.getMessage());
    }

    @Test
    void introspectionReadsTablesViewsKeysCommentsSamplesAndSizes() throws Exception {
        Catalog catalog;
        try (SchemaSource source = Sources.open(url)) {
            catalog = source.introspect(IntrospectionOptions.fresh());
        }
        assertEquals(List.of("long_trips", "members", "stations", "trips"),
                catalog.tables().stream().map(t -> t.name().table()).sorted().toList());
        Table trips = table(catalog, "trips");
        assertEquals(TableKind.TABLE, trips.kind());
        assertEquals(List.of("trip_id"), trips.primaryKey());
        assertEquals(150L, trips.rowEstimate());
        assertEquals(List.of(new ForeignKey("trips_station_id_station_id_fkey", List.of("station_id"),
                        QualifiedName.of("rental", "stations"), List.of("station_id"))),
                trips.foreignKeys().stream().filter(f -> f.columns().equals(List.of("station_id"))).toList());
        assertEquals(2, trips.foreignKeys().size(), trips.foreignKeys().toString());
        Column fare = trips.column("fare_amount").orElseThrow();
        assertEquals("Fare charged in euros", fare.comment());
        assertEquals("DECIMAL(8,2)", fare.dataType());
        assertFalse(fare.nullable());
        assertTrue(trips.column("member_id").orElseThrow().nullable());
        Table stations = table(catalog, "stations");
        assertEquals("Docking stations where bikes are picked up", stations.comment());
        assertEquals(List.of(List.of("name")), stations.uniqueConstraints().stream().map(u -> u.columns()).toList());
        assertFalse(stations.column("city").orElseThrow().samples().isEmpty(), "values were sampled");
        Table view = table(catalog, "long_trips");
        assertEquals(TableKind.VIEW, view.kind());
        assertNull(view.rowEstimate());
        assertEquals(6, view.columns().size());
    }

    @Test
    void aMissingOrForeignFileIsOneClearSentence() throws Exception {
        SourceException missing = assertThrows(SourceException.class,
                () -> Sources.open(SourceUrl.parse("duckdb:" + dir.resolve("none.duckdb"))).introspect(IntrospectionOptions.withoutSamples()));
        assertTrue(missing.getMessage().startsWith("The DuckDB file ") && missing.getMessage().endsWith("does not exist; check the path in the URL."),
                missing.getMessage());
        Path text = Files.writeString(dir.resolve("notes.duckdb"), "not a database ".repeat(400));
        SourceException foreign = assertThrows(SourceException.class,
                () -> Sources.open(SourceUrl.parse("duckdb:" + text)).introspect(IntrospectionOptions.withoutSamples()));
        assertEquals("The file " + text + " is not a DuckDB database; check the path in the URL.", foreign.getMessage());
    }

    @Test
    void indexingDraftsMetricsThatAnswerAsDuckDbDoes() throws Exception {
        JsonNode fareSum = null;
        for (JsonNode m : tools.call("list_metrics", Map.of()).data().get("metrics")) {
            JsonNode measure = m.get("measure");
            if ("sum".equals(measure.path("agg").asText()) && "fare_amount".equals(measure.path("column").asText())) {
                fareSum = m;
            }
        }
        assertNotNull(fareSum, () -> "a SUM(fare_amount) metric is drafted over trips: " + tools.call("list_metrics", Map.of()).toJson());
        String name = fareSum.get("name").asText();
        String trips = fareSum.get("entity").asText();
        assertEquals(hand("SELECT SUM(fare_amount) FROM rental.trips"), rows(tools.call("get_metric", Map.of("name", name))));

        String stations = tools.call("describe_table", Map.of("qualified_name", "rental.stations")).data().path("entity").asText("stations");
        Envelope byCity = tools.call("get_metric", Map.of("name", name, "group_by", List.of(stations + ".city")));
        assertEquals(hand("SELECT s.city, SUM(t.fare_amount) FROM rental.trips t JOIN rental.stations s ON s.station_id = t.station_id"
                + " GROUP BY s.city ORDER BY s.city"), sorted(rows(byCity)), byCity.toJson());

        Envelope monthly = tools.call("get_metric", Map.of("name", name, "time_grain", "month",
                "time_dimension", trips + ".started_on"));
        assertEquals(hand("SELECT CAST(date_trunc('month', started_on) AS DATE), SUM(fare_amount) FROM rental.trips GROUP BY 1 ORDER BY 1"),
                sorted(rows(monthly)), monthly.toJson());
        assertEquals(6, rows(monthly).size(), "January to June");
    }

    @Test
    void theExplainGivesRowsButNoCostSoTheCostIsUnknown() throws Exception {
        Explain explain = executor.explain(new BoundQuery("SELECT * FROM rental.trips WHERE minutes > ?", List.of(30)));
        assertNull(explain.totalCost(), "DuckDB estimates no cost: the cost cap cannot refuse, the watchdog still bounds");
        assertNotNull(explain.estimatedRows(), explain.plan());
        assertTrue(explain.plan().contains("SEQ_SCAN"), explain.plan());
        // A cap cannot refuse a statement it has no cost for: it runs, bounded by the statement timeout.
        try (QueryExecutor capped = new QueryExecutor(url, ExecutorSettings.defaults().withCostCap(0.001))) {
            assertEquals(List.of(List.of("150.00")), form(capped.execute(new BoundQuery("SELECT count(*) FROM rental.trips",
                    List.of()), 10).rows()));
        }
        String metric = tools.call("list_metrics", Map.of()).data().get("metrics").get(0).get("name").asText();
        Envelope dry = tools.call("get_metric", Map.of("name", metric, "dry_run", true));
        assertEquals("unknown", dry.data().path("explain").path("cost_class").asText(), dry.toJson());
    }

    @Test
    void aWriteThroughTheExecutorIsRefused() throws Exception {
        for (String write : List.of("INSERT INTO rental.stations VALUES (99, 'Dock 99', 'Faro')",
                "UPDATE rental.trips SET fare_amount = 0", "DELETE FROM rental.trips", "CREATE TABLE rental.pwned (x INTEGER)",
                "DROP TABLE rental.trips")) {
            assertThrows(ExecutionException.class, () -> executor.execute(new BoundQuery(write, List.of()), 10), write);
        }
        assertEquals(List.of(List.of("150.00")), hand("SELECT count(*) FROM rental.trips"));
        assertEquals(List.of(List.of("6.00")), hand("SELECT count(*) FROM rental.stations"));
        assertEquals(digest, sha256(file));
    }

    @Test
    void theCliIndexesADuckDbSource() throws Exception {
        String store = dir.resolve("cli-store.db").toString();
        InProcessCli.Result r = InProcessCli.run("index", "--store", store, "--source", "duckdb:" + file);
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("duckdb:" + file), r.stdout());
    }

    /** What the registry says of an engine with no roles and no query log, in doctor and mine-queries. */
    @Test
    void doctorAndMineQueriesAskTheEngine() throws Exception {
        String store = dir.resolve("doctor-store.db").toString();
        InProcessCli.Result doctor = InProcessCli.run("doctor", "--source", "duckdb:" + file, "--store", store);
        assertTrue(doctor.stdout().contains("ok    source: duckdb:" + file + " is reachable (4 tables)"), doctor.stdout());
        assertTrue(doctor.stdout().contains("ok    role: the DuckDB file is opened read-only; nothing can write through it."),
                doctor.stdout());
        assertFalse(doctor.stdout().contains("query log"), doctor.stdout());
        UserError refused = assertThrows(UserError.class, () -> QueryLogMiner.requireQueryLog(url));
        assertEquals("mine-queries reads PostgreSQL and MySQL/MariaDB sources only; duckdb:" + file
                + " has no query log to read.", refused.getMessage());
    }

    private static Table table(Catalog catalog, String name) {
        return catalog.tables().stream().filter(t -> t.name().table().equals(name)).findFirst().orElseThrow();
    }

    private static List<List<String>> hand(String sql) throws Exception {
        return form(executor.execute(new BoundQuery(sql, List.of()), 10_000).rows());
    }

    private static List<List<String>> rows(Envelope e) {
        assertTrue(e.data() != null && e.data().has("rows"), e.toJson());
        List<String> columns = new ArrayList<>();
        e.data().get("columns").forEach(c -> columns.add(c.asText()));
        List<List<Object>> out = new ArrayList<>();
        e.data().get("rows").forEach(r -> out.add(columns.stream().map(c -> (Object) r.get(c).asText()).toList()));
        return form(out);
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        return rows.stream().sorted((a, b) -> a.get(0).compareTo(b.get(0))).toList();
    }

    /** Numbers to two decimals, dates as ISO days: the form both sides agree on (the envelope's JSON and JDBC's values). */
    private static List<List<String>> form(List<List<Object>> rows) {
        return rows.stream().map(r -> r.stream().map(v -> {
            String text = String.valueOf(v);
            return text.matches("-?\\d+(\\.\\d+)?") ? new BigDecimal(text).setScale(2, RoundingMode.HALF_UP).toPlainString()
                    : text.matches("\\d{4}-\\d{2}-\\d{2}.*") ? text.substring(0, 10) : text;
        }).toList()).toList();
    }

    private static String sha256(Path path) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
    }
}
