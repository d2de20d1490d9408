package dev.schemabrain.mining;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.QueryLogRepository.Example;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mine-queries on the embedded PostgreSQL: the Chinook workload run in two databases of one instance, mined
 * for one of them through the real command; counts, joins, PII categories, no literal in the store's bytes,
 * nothing from the other database; re-runs grow the counts without duplicates; a statistics reset does not
 * lose them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueryLogMiningPostgresTest {

    private static final String MINED = "sb_mining_a";
    private static final String OTHER = "sb_mining_b";

    @TempDir
    static Path dir;
    static MinedStore mined;

    @BeforeAll
    static void workload() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        for (String db : List.of(MINED, OTHER)) {
            try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
                st.execute("CREATE DATABASE " + db + " TEMPLATE chinook");
            }
        }
        mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", TestPostgres.url(MINED)));
        try (Connection c = TestPostgres.connect(MINED); Statement st = c.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            st.execute("SELECT pg_stat_statements_reset()");
        }
        runWorkload();
        try (Connection c = TestPostgres.connect(OTHER); Statement st = c.createStatement()) {
            st.execute(ChinookWorkload.OTHER_DATABASE_ONLY);
        }
    }

    private static void runWorkload() throws Exception {
        try (Connection c = TestPostgres.connect(MINED); Statement st = c.createStatement()) {
            ChinookWorkload.run(c);
        }
        try (Connection c = TestPostgres.connect(OTHER)) {
            ChinookWorkload.run(c);
        }
    }

    static List<Example> stored() throws Exception {
        return mined.stored(TestPostgres.url(MINED));
    }

    static Example top(List<Example> all) {
        return all.stream().filter(e -> e.sql().contains("il.invoice_id = ?") && e.sql().startsWith("SELECT il.invoice_line_id"))
                .findFirst().orElseThrow(() -> new AssertionError("the top statement was not stored: " + all));
    }

    @Test
    @Order(1)
    void minesTheWorkloadOfItsOwnDatabaseOnly() throws Exception {
        // A re-index samples the tables the workload changed: statements of SchemaBrain's own, which must be skipped.
        ok(mined.cli("index", "--source", TestPostgres.url(MINED)));
        String out = ok(mined.cli("mine-queries", "--source", TestPostgres.url(MINED)));
        assertTrue(out.contains("parse rate"), out);
        Matcher own = Pattern.compile("\\((\\d+) SchemaBrain's own").matcher(out);
        assertTrue(own.find() && Integer.parseInt(own.group(1)) > 0, "pg_stat_statements kept the marker: " + out);
        List<Example> all = stored();
        List<Example> selects = all.stream().filter(e -> e.kind().equals("select")).toList();
        assertEquals(ChinookWorkload.SELECTS.size(), selects.size(), () -> "one example per distinct SELECT:\n" + out
                + selects.stream().map(Example::sql).collect(Collectors.joining("\n")));
        assertEquals(2, all.stream().filter(e -> e.kind().equals("write")).count(), "the two writes count as write activity");
        assertEquals(ChinookWorkload.TOP_RUNS, top(all).observations());
        assertEquals(List.of("public.invoice_line", "public.track"), top(all).tables());
        // Nothing of the other database, and none of SchemaBrain's own (index samples) statements.
        assertTrue(all.stream().noneMatch(e -> e.sql().contains("media_type_id, name FROM public.media_type WHERE name <>")), "other database");
        assertTrue(all.stream().noneMatch(e -> e.sql().contains("schemabrain")), "own statements");
        // Literals are gone, here and in every byte of the store.
        assertTrue(all.stream().allMatch(e -> !e.sql().contains("'") && !e.sql().contains("$1")), "placeholders only");
        String bytes = StoreBytes.of(mined.file());
        for (String literal : List.of(ChinookWorkload.SECRET_EMAIL, ChinookWorkload.OTHER_EMAIL, ChinookWorkload.SECRET_NUMBER,
                "010-4711", "only-in-b")) {
            assertFalse(bytes.contains(literal), literal + " reached the store");
        }
    }

    @Test
    @Order(2)
    void joinsAggregatesAndPiiCategoriesAreResolved() throws Exception {
        List<Example> all = stored();
        Example threeWay = all.stream().filter(e -> e.sql().startsWith("SELECT al.title, sum(il.unit_price")).findFirst().orElseThrow();
        assertEquals(List.of("sum"), threeWay.aggregates());
        assertEquals(2, threeWay.joins().size(), "WHERE-form joins: " + threeWay.joins());
        Example byEmail = all.stream().filter(e -> e.sql().startsWith("SELECT customer_id, first_name FROM public.customer WHERE email")).findFirst().orElseThrow();
        assertTrue(byEmail.piiCategories().contains("contact"), "the e-mail column's category: " + byEmail.piiCategories());
        Example noKey = all.stream().filter(e -> e.sql().startsWith("SELECT e.first_name, c.first_name FROM public.employee e JOIN public.customer c ON c.city")).findFirst().orElseThrow();
        assertEquals(1, noKey.joins().size());
        assertEquals("city", noKey.joins().get(0).leftColumns().get(0));
        Example cte = all.stream().filter(e -> e.sql().startsWith("WITH per_customer")).findFirst().orElseThrow();
        assertEquals(List.of("public.invoice", "public.customer"), cte.tables(), "the CTE's table, not the CTE");
        Example subquery = all.stream().filter(e -> e.sql().startsWith("SELECT a.name FROM public.artist a WHERE a.artist_id IN")).findFirst().orElseThrow();
        assertEquals(List.of("public.artist", "public.album", "public.track"), subquery.tables());
        Map<QueryLogRepository.StoredJoin, Long> joins = mined.joins();
        QueryLogRepository.StoredJoin lineTrack = new QueryLogRepository.StoredJoin("public", "invoice_line", List.of("track_id"),
                "public", "track", List.of("track_id"));
        assertEquals(ChinookWorkload.TOP_RUNS + 2, joins.get(lineTrack), "invoice_line = track, in ON and WHERE forms (a CTE is no table): " + joins);
        try (Store s = Stores.open(StoreLocation.file(mined.file()))) {
            QueryLogRepository.Page page = s.read(c -> QueryLogRepository.examples(c, QualifiedName.of("public", "customer"), "email", 50));
            assertEquals(4, page.total(), "statements touching customer.email");
        }
    }

    @Test
    @Order(3)
    void rerunsGrowTheCountsWithoutDuplicates() throws Exception {
        int before = stored().size();
        ok(mined.cli("mine-queries", "--source", TestPostgres.url(MINED)));
        assertEquals(ChinookWorkload.TOP_RUNS, top(stored()).observations(), "nothing ran since: nothing added");
        runWorkload();
        ok(mined.cli("mine-queries", "--source", TestPostgres.url(MINED)));
        List<Example> after = stored();
        assertEquals(before, after.size(), "no duplicates");
        assertEquals(2L * ChinookWorkload.TOP_RUNS, top(after).observations());
    }

    @Test
    @Order(4)
    void countsContinueAfterAStatisticsReset() throws Exception {
        try (Connection c = TestPostgres.connect(MINED); Statement st = c.createStatement()) {
            st.execute("SELECT pg_stat_statements_reset()");
            for (int i = 0; i < 2; i++) {
                st.execute(ChinookWorkload.TOP);
            }
        }
        String out = ok(mined.cli("mine-queries", "--source", TestPostgres.url(MINED)));
        assertTrue(out.contains("statistics reset"), out);
        assertEquals(2L * ChinookWorkload.TOP_RUNS + 2, top(stored()).observations());
    }

    @Test
    @Order(6)
    void aPostgresqlStoreHoldsTheSameLog() throws Exception {
        String storeUrl = TestPostgres.url("postgres") + "?schema=mining_" + ProcessHandle.current().pid();
        ok(InProcessCli.run("--store", storeUrl, "index", "--source", TestPostgres.url(MINED)));
        String out = ok(InProcessCli.run("--store", storeUrl, "mine-queries", "--source", TestPostgres.url(MINED)));
        // Since the reset above, only the top statement ran (twice).
        assertTrue(out.contains("examples stored         1 SELECT"), out);
        runWorkload();
        ok(InProcessCli.run("--store", storeUrl, "mine-queries", "--source", TestPostgres.url(MINED)));
        try (Store s = Stores.open(Stores.location(storeUrl, null, null, Map.of()))) {
            String sourceId = SourceUrl.parse(TestPostgres.url(MINED)).sourceId();
            List<Example> all = s.read(c -> QueryLogRepository.all(c, sourceId));
            assertEquals(ChinookWorkload.SELECTS.size() + ChinookWorkload.WRITES.size(), all.size(), "each statement once");
            assertEquals(2L + ChinookWorkload.TOP_RUNS, top(all).observations());
        }
    }

    @Test
    @Order(5)
    void aDatabaseWithoutTheExtensionIsOneSentenceAndExitTwo() throws Exception {
        try (Connection c = TestPostgres.connect(OTHER); Statement st = c.createStatement()) {
            st.execute("DROP EXTENSION IF EXISTS pg_stat_statements");
        }
        ok(mined.cli("index", "--add-source", "--source", TestPostgres.url(OTHER)));   // a second database in the same store, on purpose
        InProcessCli.Result r = mined.cli("mine-queries", "--source", TestPostgres.url(OTHER));
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("CREATE EXTENSION pg_stat_statements"), r.stderr());
        assertFalse(r.stderr().contains("\tat "), "no stack trace: " + r.stderr());
    }
}
