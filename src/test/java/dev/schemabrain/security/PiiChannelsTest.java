package dev.schemabrain.security;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.cli.Main;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.DescriptionEnricher;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.llm.TablePrompt;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
 * Issue 29, "PII in every channel", on real PostgreSQL and MariaDB: personal facts and identifiers written in free
 * text, in database comments and in untagged columns of a person table must reach no channel: the store's bytes,
 * samples and descriptions served by describe_*, the value index (its values and the hits a question matches), the
 * documents sent to a model, the comments describe_column shows. Writes held / total per channel to
 * target/security/pii-channels.txt.
 */
class PiiChannelsTest {

    /** Each must be absent from every channel. */
    private static final List<String> SECRETS = List.of(
            // facts in an untagged free-text column (ticket.body): no shape rule can find these
            "HIV", "harassment", "daughter",
            // identifiers as people write them in notes (ticket.manager_notes)
            "219099999", "k.oduya", "1984-03-12", "X1234567",
            // comments quoting an SSN and e-mail addresses
            "219-09-9999", "jane.roe@example.com", "dpo@example.com");
    /**
     * Surnames in an untagged column of a person table (employee.alias): the value index must not confirm them
     * (item 12). Its samples are another matter: the classifier decides those, as for any untagged column.
     */
    private static final List<String> PERSON_VALUES = List.of("Quartermaine", "Zwickau", "Lindqvist");
    private static final String VALUE_INDEX = "value index (values, matched values)";
    private static final Map<String, int[]> FIGURES = new TreeMap<>();

    @TempDir
    Path dir;

    private static final String[] SCHEMA = {
        "CREATE TABLE employee (id int PRIMARY KEY, first_name varchar(40), last_name varchar(40), alias varchar(40), team varchar(20))",
        "INSERT INTO employee VALUES (1, 'Ophelia', 'Quartermaine', 'Quartermaine', 'Platform'),"
                + " (2, 'Bartholomew', 'Zwickau', 'Zwickau', 'Payments'), (3, 'Ingrid', 'Lindqvist', 'Lindqvist', 'Platform')",
        "CREATE TABLE ticket (id int PRIMARY KEY, employee_id int REFERENCES employee (id), subject varchar(80), body text,"
                + " manager_notes text, priority varchar(10))",
        "INSERT INTO ticket VALUES"
                + " (1, 1, 'Leave request', 'Employee disclosed HIV diagnosis and asked for leave', 'Customer SSN 219099999 on file', 'P1'),"
                + " (2, 2, 'Complaint', 'Formal harassment complaint against the team lead filed', 'write to k.oduya (at) northwind (dot) com', 'P2'),"
                + " (3, 3, 'Remote work', 'Her daughter is in hospital so she works from home now', 'DOB 1984-03-12 per form; passport no. X1234567 seen', 'P3')",
        "CREATE TABLE queue (id int PRIMARY KEY, label varchar(20))",
        "INSERT INTO queue VALUES (1, 'Billing'), (2, 'Hardware')"};

    @Test
    void postgresKeepsEveryChannelClean() throws Exception {
        List<String> sql = new ArrayList<>(List.of(SCHEMA));
        sql.add("COMMENT ON TABLE employee IS 'HR master data; privacy questions to dpo@example.com'");
        sql.add("COMMENT ON COLUMN employee.team IS 'Set by HR (Jane Roe, SSN 219-09-9999, jane.roe@example.com)'");
        TestPostgres.createDatabase("sb_pii_channels", sql.toArray(String[]::new));
        Channels channels = run(TestPostgres.url("sb_pii_channels"), "public");
        channels.assertClean("PostgreSQL");
        assertTrue(channels.describe.contains("<email>") && channels.describe.contains("<national id>"),
                "a comment keeps its words with placeholders: " + channels.describe);
        assertEquals(List.of("Billing", "Hardware"), channels.column("queue", "label").values(),
                "a table about no one keeps its values in the index");
    }

    @Test
    void mariaDbKeepsEveryChannelCleanAndAnEnumOfAPersonTableStaysIndexed() throws Exception {
        List<String> sql = new ArrayList<>(List.of(SCHEMA));
        sql.set(0, SCHEMA[0].replace("team varchar(20))", "team varchar(20) COMMENT 'Set by HR (Jane Roe, SSN 219-09-9999,"
                + " jane.roe@example.com)', status enum('active','left') NOT NULL DEFAULT 'active')"
                + " COMMENT 'HR master data; privacy questions to dpo@example.com'"));
        sql.set(1, SCHEMA[1].replace("'Platform')", "'Platform', 'active')").replace("'Payments')", "'Payments', 'left')")
                .replace("'Platform')", "'Platform', 'active')"));
        String database = TestMariaDb.create("t29pii_channels", sql.toArray(String[]::new));
        try {
            Channels channels = run(TestMariaDb.url(database), database);
            channels.assertClean("MariaDB");
            assertFalse(channels.column("employee", "status").values().isEmpty(),
                    "an ENUM of a person table is categorical: its labels stay in the value index");
            assertTrue(channels.column("employee", "team").values().isEmpty(), "a person table's free labels do not");
        } finally {
            TestMariaDb.drop(database);
        }
    }

    @Test
    void theOperatorCanAllowAFreeTextColumnsSamples() throws Exception {
        TestPostgres.createDatabase("sb_pii_channels_allow", SCHEMA);
        String url = TestPostgres.url("sb_pii_channels_allow");
        Path store = dir.resolve("allow.db");
        Channels before = run(url, "public", store);
        assertTrue(before.column("ticket", "body").samples().isEmpty(), "free text keeps no samples by default");
        Path policy = dir.resolve("pii_policy.yaml");
        Files.writeString(policy, "columns:\n  public.ticket.subject: {categories: []}\n"
                + "  public.ticket.body: {categories: [], allow: [samples]}\n");
        assertEquals(0, Main.execute("policy", "apply", policy.toString(), "--store", store.toString()));
        Channels after = run(url, "public", store);
        assertFalse(after.column("ticket", "body").samples().isEmpty(),
                "allow: [samples] brings the column's samples back at the next index run");
    }

    @Test
    void aStoreWrittenBeforeTheRulesIsServedRedacted() throws Exception {
        Path source = dir.resolve("old.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE patient (id INTEGER PRIMARY KEY, first_name TEXT, alias TEXT, notes TEXT)");
            st.execute("INSERT INTO patient VALUES (1, 'Ophelia', 'Quartermaine', 'x'), (2, 'Bart', 'Zwickau', 'y')");
        }
        Path store = dir.resolve("old-store.db");
        run("sqlite:" + source, "main", store);
        // What an older index run left: a comment quoting identifiers, free-text samples, a person table's values.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement()) {
            st.execute("UPDATE catalog_columns SET comment = 'ask jane.roe@example.com, SSN 219-09-9999' WHERE column_name = 'alias'");
            st.execute("UPDATE catalog_columns SET samples = '[\"Employee disclosed HIV diagnosis\"]' WHERE column_name = 'notes'");
            st.execute("UPDATE catalog_columns SET value_index = '[\"Quartermaine\"]' WHERE column_name = 'alias'");
        }
        ServedCatalog served = new StoreCatalogProvider(store, Optional.empty()).current().orElseThrow();
        Table patient = served.catalog().tables().get(0);
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        String shown = call(tools, "describe_column", Map.of("qualified_name", "main.patient.alias"))
                + call(tools, "describe_table", Map.of("qualified_name", "main.patient", "response_format", "detailed"));
        assertEquals("ask <email>, SSN <national id>", patient.column("alias").orElseThrow().comment());
        assertEquals(List.of(), patient.column("alias").orElseThrow().values());
        assertEquals(List.of(), patient.column("notes").orElseThrow().samples());
        for (String secret : List.of("jane.roe", "219-09-9999", "HIV")) {
            assertFalse(shown.contains(secret), secret + " is served: " + shown);
        }
    }

    /** Indexes {@code url}, capturing what a model would be sent, and reads every channel. */
    private Channels run(String url, String schema) throws Exception {
        return run(url, schema, dir.resolve("store-" + schema + ".db"));
    }

    private Channels run(String url, String schema, Path store) throws Exception {
        StringBuilder prompts = new StringBuilder();
        DescriptionEnricher capture = new DescriptionEnricher() {
            @Override
            public boolean asks() {
                return true;
            }

            @Override
            public Enrichment enrich(Input input) {
                for (Table t : input.catalog().tables()) {
                    prompts.append(TablePrompt.of(t, input.piiColumns()).document()).append('\n');
                }
                return Enrichment.NONE;
            }
        };
        SourceUrl source = SourceUrl.parse(url);
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().enrichedBy(capture).run(source, s, store, false, IndexListener.SILENT);
        }
        ServedCatalog served = new StoreCatalogProvider(store, Optional.empty()).current().orElseThrow();
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        StringBuilder describe = new StringBuilder();
        StringBuilder samples = new StringBuilder();
        StringBuilder values = new StringBuilder();
        StringBuilder comments = new StringBuilder();
        for (Table t : served.catalog().tables()) {
            describe.append(call(tools, "describe_table", Map.of("qualified_name", schema + "." + t.name().table(),
                    "response_format", "detailed")));
            comments.append(t.comment()).append('\n');
            for (Column c : t.columns()) {
                String column = call(tools, "describe_column", Map.of("qualified_name",
                        schema + "." + t.name().table() + "." + c.name()));
                describe.append(column);
                comments.append(c.comment()).append('\n').append(column);
                samples.append(c.samples()).append('\n');
                values.append(c.values()).append('\n');
            }
        }
        for (String secret : all()) {
            for (TableHit hit : served.retriever().search("tickets of " + secret, 5, Optional.empty())) {
                values.append(hit.matchedValue()).append('\n');
            }
        }
        Map<String, String> channels = new LinkedHashMap<>();
        channels.put("samples (stored, describe_*)", samples + describe.toString());
        channels.put(VALUE_INDEX, values.toString());
        channels.put("descriptions (stored, served)", storedDescriptions(store) + describe);
        channels.put("LLM prompts", prompts.toString());
        channels.put("comments (stored, describe_column)", comments.toString());
        channels.put("store bytes", StoreBytes.of(store));
        return new Channels(channels, served, describe.toString());
    }

    private static String call(ToolRegistry tools, String tool, Map<String, Object> args) {
        Envelope e = tools.call(tool, args);
        assertFalse(e.isError(), e.toJson());
        return e.toJson() + '\n';
    }

    private static String storedDescriptions(Path store) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT description FROM catalog_columns UNION ALL"
                     + " SELECT description FROM catalog_tables")) {
            while (rs.next()) {
                out.append(rs.getString(1)).append('\n');
            }
        }
        return out.toString();
    }

    private record Channels(Map<String, String> texts, ServedCatalog served, String describe) {

        Column column(String table, String column) {
            return served.catalog().tables().stream().filter(t -> t.name().table().equals(table)).findFirst()
                    .flatMap(t -> t.column(column)).orElseThrow();
        }

        void assertClean(String engine) {
            List<String> leaks = new ArrayList<>();
            texts.forEach((channel, text) -> {
                int[] n = FIGURES.computeIfAbsent(channel, k -> new int[2]);
                for (String secret : channel.equals(VALUE_INDEX) ? all() : SECRETS) {
                    n[1]++;
                    if (text.toLowerCase().contains(secret.toLowerCase())) {
                        leaks.add(engine + ", " + channel + ": " + secret);
                    } else {
                        n[0]++;
                    }
                }
            });
            assertTrue(leaks.isEmpty(), "leaked:\n  " + String.join("\n  ", leaks));
        }
    }

    private static List<String> all() {
        List<String> all = new ArrayList<>(SECRETS);
        all.addAll(PERSON_VALUES);
        return all;
    }

    @AfterAll
    static void figures() throws IOException {
        List<String> lines = new ArrayList<>();
        FIGURES.forEach((channel, n) -> lines.add(channel + ": " + n[0] + " / " + n[1] + " cases held"));
        Path file = Path.of("target", "security", "pii-channels.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
