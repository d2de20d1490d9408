package dev.schemabrain.mining;

import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.QueryLogRepository.Example;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.PerformanceSchemaMariaDb;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestMariaDb;
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
import java.util.stream.Collectors;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * mine-queries on MariaDB with performance_schema on (a server of the test's own): the same Chinook workload
 * from two databases, mined for one; then re-runs and a TRUNCATE of the digest table (MariaDB's reset).
 * The system server (performance_schema off) gives the one-sentence refusal.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueryLogMiningMariaDbTest {

    private static final String MINED = "sb_mining_a";
    private static final String OTHER = "sb_mining_b";

    @TempDir
    static Path dir;
    static MinedStore mined;

    @BeforeAll
    static void workload() throws Exception {
        PerformanceSchemaMariaDb.chinook(MINED);
        PerformanceSchemaMariaDb.chinook(OTHER);
        mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", PerformanceSchemaMariaDb.url(MINED)));
        // MariaDB digests drop comments, so SchemaBrain's own statements cannot be told apart: reset after indexing.
        truncate();
        runWorkload();
        try (Connection c = PerformanceSchemaMariaDb.connect(OTHER); Statement st = c.createStatement()) {
            st.execute(ChinookWorkload.OTHER_DATABASE_ONLY);
        }
    }

    private static void truncate() throws Exception {
        try (Connection c = PerformanceSchemaMariaDb.admin(); Statement st = c.createStatement()) {
            st.execute("TRUNCATE TABLE performance_schema.events_statements_summary_by_digest");
        }
    }

    private static void runWorkload() throws Exception {
        for (String db : List.of(MINED, OTHER)) {
            try (Connection c = PerformanceSchemaMariaDb.connect(db)) {
                ChinookWorkload.run(c);
            }
        }
    }

    static List<Example> stored() throws Exception {
        return mined.stored(PerformanceSchemaMariaDb.url(MINED));
    }

    static Example top(List<Example> all) {
        return all.stream().filter(e -> e.sql().contains("invoice_line_id") && e.sql().contains("`il` . `invoice_id` = ?")
                        || e.sql().contains("il.invoice_id = ?") && e.sql().contains("invoice_line_id"))
                .findFirst().orElseThrow(() -> new AssertionError("the top statement was not stored: "
                        + all.stream().map(Example::sql).collect(Collectors.joining("\n"))));
    }

    @Test
    @Order(1)
    void minesTheWorkloadOfItsOwnDatabaseOnly() throws Exception {
        String out = ok(mined.cli("mine-queries", "--source", PerformanceSchemaMariaDb.url(MINED)));
        List<Example> all = stored();
        List<Example> selects = all.stream().filter(e -> e.kind().equals("select")).toList();
        assertEquals(ChinookWorkload.SELECTS.size(), selects.size(), () -> "one example per distinct SELECT:\n" + out
                + selects.stream().map(Example::sql).collect(Collectors.joining("\n")));
        assertTrue(out.contains("parse rate 100.0%"), out);
        assertEquals(2, all.stream().filter(e -> e.kind().equals("write")).count(), "the two writes");
        assertEquals(ChinookWorkload.TOP_RUNS, top(all).observations());
        assertEquals(List.of(MINED + ".invoice_line", MINED + ".track"), top(all).tables());
        assertTrue(all.stream().noneMatch(e -> e.sql().contains("only-in-b") || e.sql().contains("<> ?") && e.sql().contains("media_type_id")),
                "nothing of the other database");
        Example byEmail = all.stream().filter(e -> e.sql().contains("first_name") && e.sql().contains("FROM sb_mining_a.`customer` WHERE `email`"))
                .findFirst().orElseThrow(() -> new AssertionError(all.stream().map(Example::sql).collect(Collectors.joining("\n"))));
        assertTrue(byEmail.piiCategories().contains("contact"), byEmail.piiCategories().toString());
        Map<QueryLogRepository.StoredJoin, Long> joins = mined.joins();
        assertEquals(ChinookWorkload.TOP_RUNS + 2, joins.get(new QueryLogRepository.StoredJoin(MINED, "invoice_line", List.of("track_id"),
                MINED, "track", List.of("track_id"))), joins.toString());
        String bytes = StoreBytes.of(mined.file());
        for (String literal : List.of(ChinookWorkload.SECRET_EMAIL, ChinookWorkload.OTHER_EMAIL, ChinookWorkload.SECRET_NUMBER, "010-4711")) {
            assertFalse(bytes.contains(literal), literal + " reached the store");
        }
    }

    @Test
    @Order(2)
    void rerunsGrowAndATruncateDoesNotLoseTheCounts() throws Exception {
        int before = stored().size();
        runWorkload();
        ok(mined.cli("mine-queries", "--source", PerformanceSchemaMariaDb.url(MINED)));
        assertEquals(before, stored().size(), "no duplicates");
        assertEquals(2L * ChinookWorkload.TOP_RUNS, top(stored()).observations());
        truncate();
        try (Connection c = PerformanceSchemaMariaDb.connect(MINED); Statement st = c.createStatement()) {
            st.execute(ChinookWorkload.TOP);
            st.execute(ChinookWorkload.TOP);
        }
        String out = ok(mined.cli("mine-queries", "--source", PerformanceSchemaMariaDb.url(MINED)));
        assertTrue(out.contains("statistics reset"), out);
        assertEquals(2L * ChinookWorkload.TOP_RUNS + 2, top(stored()).observations());
    }

    @Test
    @Order(3)
    void performanceSchemaOffIsOneSentenceAndExitTwo() throws Exception {
        String db = TestMariaDb.create("sb_mining_off", "CREATE TABLE t (id INT PRIMARY KEY)");
        try {
            ok(mined.cli("index", "--add-source", "--source", TestMariaDb.url(db)));   // a second database in the same store, on purpose
            InProcessCli.Result r = mined.cli("mine-queries", "--source", TestMariaDb.url(db));
            assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
            assertTrue(r.stderr().contains("performance_schema") && r.stderr().contains("restart"), r.stderr());
            assertFalse(r.stderr().contains("\tat "), "no stack trace: " + r.stderr());
        } finally {
            TestMariaDb.drop(db);
        }
    }
}
