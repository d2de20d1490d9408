package dev.schemabrain.llm;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.StoreBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 51: no government identifier reaches the store (samples, descriptions, value index) or a model's prompt,
 * whatever its column is called and however it is written. The demo database gets government ids planted in
 * columns named for nothing ({@code ref}, {@code col7}) and under abbreviations ({@code dl_no}); an import table of a
 * second SQLite database holds one column per format, without separators. Both are indexed by the CLI with a
 * model describing them (a real HTTP server); the store's bytes and every request body are then searched for every
 * planted value, with and without its separators.
 */
class GovernmentIdStoreTest {

    /** Per column, rows of values (cycled over the table's rows). Synthetic; check digits valid. */
    static final Map<String, List<String>> IMPORT = new LinkedHashMap<>();

    static {
        IMPORT.put("col3", List.of("601855902", "397366618", "714011867", "030694231", "034622911", "250659049",
                "166323792", "853714192"));
        IMPORT.put("col7", List.of("599777604", "264618166", "347151516", "652664731", "387590920"));
        IMPORT.put("field_3", List.of("111222333", "794934882", "326466198", "834110337", "770283408"));
        IMPORT.put("field_4", List.of("275007397478", "502035942330", "371906050499", "927577949921"));
        IMPORT.put("ref", List.of("52998224725", "41706441665", "40007421087", "92768719005"));
        IMPORT.put("value", List.of("57905381628", "97750421873", "62294731521", "85837980263"));
        IMPORT.put("col11", List.of("198128670602936", "290036764924114", "142031917340577"));
        IMPORT.put("col12", List.of("11010519491231002X", "330106197511121851", "330106196007154983"));
        IMPORT.put("col13", List.of("C928899741222", "Q397354523414", "D861950831422", "C641472517063"));
        IMPORT.put("col14", List.of("K3286425", "J3722386", "C7633249", "W8852228"));
        IMPORT.put("col15", List.of("601-85-5902", "397 36 6618", "714-01-1867", "030-69-4231"));
        IMPORT.put("col16", List.of("SY354287A", "PW876997B", "YC139658A", "PM365251B"));
        IMPORT.put("dl_no", List.of("B0724413", "F3391207", "S4412895"));
        IMPORT.put("tax_ref", List.of("6681906421", "7599211484", "9548161952"));
    }

    /** Planted into the demo's users table: an SSN column called ref, a SIN column called col7, a licence as dl_no. */
    static final Map<String, List<String>> DEMO = Map.of(
            "ref", List.of("601855902", "397366618", "714011867", "030694231", "034622911", "250659049"),
            "col7", List.of("599777604", "264618166", "347151516", "652664731"),
            "dl_no", List.of("K3286425", "J3722386", "C7633249"));

    @TempDir
    Path dir;
    FakeLlmServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void noPlantedGovernmentIdIsStoredOrSentToAModel() throws Exception {
        server = new FakeLlmServer(null);
        Path demo = dir.resolve("demo.sqlite");
        DemoDatabase.create(demo);
        plant(demo, "users", DEMO);
        Path imports = dir.resolve("imports.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + imports); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE import_batch (col1 INTEGER PRIMARY KEY, col2 TEXT, col5 TEXT)");
            for (int i = 0; i < 40; i++) {
                st.execute("INSERT INTO import_batch VALUES (" + (i + 1) + ", '" + (400123456 + i) + "', 'widget " + i + "')");
            }
        }
        plant(imports, "import_batch", IMPORT);

        List<String> planted = new ArrayList<>();
        for (Map<String, List<String>> m : List.of(IMPORT, DEMO)) {
            m.values().forEach(planted::addAll);
        }
        StringBuilder seen = new StringBuilder();
        for (Path source : List.of(demo, imports)) {
            Path store = dir.resolve(source.getFileName() + ".db");
            InProcessCli.Result r = InProcessCli.run(Map.of(), "--store", store.toString(), "index", "--source",
                    "sqlite:" + source, "--llm", "openai", "--llm-url", server.url(), "--price-in", "0", "--price-out", "0",
                    "--llm-backoff-ms", "10");
            assertEquals(0, r.exitCode(), r.stderr());
            seen.append(StoreBytes.of(store)).append('\n').append(r.stdout()).append(r.stderr());
        }
        assertTrue(server.requests() > 0, "the model was asked to describe the tables");
        server.bodies().forEach(b -> seen.append('\n').append(b));
        String all = seen.toString();
        assertTrue(all.contains("400123456"), "an untagged column of order numbers keeps its samples (the scan sees samples)");
        List<String> leaked = new ArrayList<>();
        for (String value : planted) {
            String bare = value.replaceAll("[ -]", "");
            for (String form : new LinkedHashSet<>(List.of(value, bare))) {
                if (all.contains(form)) {
                    leaked.add(form);
                }
            }
        }
        assertEquals(List.of(), leaked, "government ids found in a store, its output or a prompt");
    }

    /** Adds each column to {@code table} and fills it, row by row, with its values in turn. */
    private static void plant(Path db, String table, Map<String, List<String>> columns) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            List<Long> rows = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT rowid FROM " + table + " ORDER BY rowid")) {
                while (rs.next()) {
                    rows.add(rs.getLong(1));
                }
            }
            for (Map.Entry<String, List<String>> col : columns.entrySet()) {
                st.execute("ALTER TABLE " + table + " ADD COLUMN " + col.getKey() + " TEXT");
                try (PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET " + col.getKey() + " = ? WHERE rowid = ?")) {
                    for (int i = 0; i < rows.size(); i++) {
                        ps.setString(1, col.getValue().get(i % col.getValue().size()));
                        ps.setLong(2, rows.get(i));
                        ps.executeUpdate();
                    }
                }
            }
        }
    }
}
