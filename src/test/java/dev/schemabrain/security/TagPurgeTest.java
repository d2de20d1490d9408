package dev.schemabrain.security;

import dev.schemabrain.cli.Main;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 5: tagging a column after indexing purges every value it left in the store (samples,
 * descriptions that quoted them, documents, fingerprints), in the store file, its WAL and shared memory,
 * at once and for good: a re-index does not bring them back.
 *
 * <p>The columns hold values no classifier rule looks for (a remark in plain words, a made-up
 * flavour code), so only the operator's tag decides, and the purge is what is tested.
 */
class TagPurgeTest {

    /** Values of the two columns the operator tags; each must vanish from every store file. */
    private static final List<String> VALUES = List.of("marmalade", "Zebulon", "purple-kumquat", "kumquat");
    private static int held;
    private static int tried;

    @TempDir
    Path dir;
    Path source;
    Path store;
    Path policy;

    @BeforeEach
    void createSource() throws Exception {
        source = dir.resolve("shop.db");
        store = dir.resolve("store.db");
        policy = dir.resolve("pii_policy.yaml");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE gadget (id INTEGER PRIMARY KEY, label TEXT, remark TEXT, flavour TEXT)");
            st.execute("""
                    INSERT INTO gadget VALUES
                      (1, 'sprocket', 'Zebulon prefers marmalade', 'purple-kumquat'),
                      (2, 'flange',   'Zebulon prefers marmalade', 'purple-kumquat'),
                      (3, 'grommet',  'Zebulon prefers marmalade', 'purple-kumquat')""");
        }
    }

    private void cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", store.toString()));
        assertEquals(0, Main.execute(all.toArray(String[]::new)), String.join(" ", args));
    }


    private List<String> storedDescriptions() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT description FROM catalog_columns UNION ALL SELECT description FROM catalog_tables")) {
            while (rs.next()) {
                out.add(String.valueOf(rs.getString(1)));
            }
        }
        return out;
    }

    private String schema = "main";

    private String servedAnswers() {
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        Envelope found = tools.call("find_relevant_tables", Map.of("query", "gadget remark marmalade flavour kumquat"));
        Envelope column = tools.call("describe_column", Map.of("qualified_name", schema + ".gadget.remark"));
        Envelope table = tools.call("describe_table", Map.of("qualified_name", schema + ".gadget", "response_format", "detailed"));
        for (Envelope e : List.of(found, column, table)) {
            assertFalse(e.isError(), e.toJson());
        }
        return found.toJson() + column.toJson() + table.toJson();
    }

    private void assertNoValueLeft(String when) throws Exception {
        String bytes = StoreBytes.of(store);
        String descriptions = String.join("\n", storedDescriptions());
        String served = servedAnswers();
        for (String value : VALUES) {
            tried++;
            boolean clean = !bytes.contains(value) && !descriptions.contains(value) && !served.contains(value);
            if (clean) {
                held++;
            }
        }
        assertAll(VALUES.stream().<Executable>map(value -> () -> assertAll(value,
                () -> assertFalse(bytes.contains(value), when + ": '" + value + "' is still in the store's bytes"),
                () -> assertFalse(descriptions.contains(value), when + ": a stored description still quotes '" + value + "'"),
                () -> assertFalse(served.contains(value), when + ": a tool still serves '" + value + "'"))));
    }

    @Test
    void taggingPurgesEveryValueOfTheColumnFromTheStoreAndAReindexDoesNotBringThemBack() throws Exception {
        cli("index", "--source", "sqlite:" + source);
        String before = StoreBytes.of(store) + String.join("\n", storedDescriptions());
        assertAll(VALUES.stream().<Executable>map(value -> () ->
                assertTrue(before.contains(value), "precondition: untagged, '" + value + "' is stored and quoted")));
        assertTrue(storedDescriptions().stream().anyMatch(d -> d.contains("marmalade")),
                "precondition: the describer quotes the samples");
        assertTrue(servedAnswers().contains("marmalade") && servedAnswers().contains("purple-kumquat"),
                "precondition: the tools serve the untagged values");

        cli("policy", "tag", "main.gadget.remark", "contact", "--file", policy.toString());
        cli("policy", "tag", "main.gadget.flavour", "credential", "--file", policy.toString());
        assertNoValueLeft("right after tagging");
        assertTrue(StoreBytes.of(store).contains("sprocket"), "an untagged column keeps its samples");

        cli("index", "--source", "sqlite:" + source);
        assertNoValueLeft("after a re-index");

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("INSERT INTO gadget VALUES (4, 'washer', 'Zebulon prefers marmalade', 'purple-kumquat')");
            st.execute("ALTER TABLE gadget ADD COLUMN colour TEXT");
        }
        cli("index", "--source", "sqlite:" + source);
        assertNoValueLeft("after a re-index of a changed source");
    }

    @Test
    void applyingAPolicyFilePurgesToo() throws Exception {
        cli("index", "--source", "sqlite:" + source);
        Files.writeString(policy, """
                columns:
                  main.gadget.remark: {categories: [contact]}
                  main.gadget.flavour: {categories: [credential]}
                """);
        cli("policy", "apply", policy.toString());
        assertNoValueLeft("after policy apply");
    }

    @Test
    void onPostgresAReindexWithAnUnchangedChangeTokenKeepsThePurge() throws Exception {
        schema = "public";
        TestPostgres.createDatabase("sb_tag_purge", "CREATE TABLE gadget (id int PRIMARY KEY, label text, remark text, flavour text)",
                "INSERT INTO gadget SELECT g, 'sprocket', 'Zebulon prefers marmalade', 'purple-kumquat' FROM generate_series(1, 3) g");
        String url = TestPostgres.url("sb_tag_purge");
        CliRun first = CliRun.of("--store", store.toString(), "index", "--source", url);
        assertEquals(0, first.exit(), first.err());
        assertTrue(storedDescriptions().stream().anyMatch(d -> d.contains("marmalade")), "precondition: quoted");
        cli("policy", "tag", "public.gadget.remark", "contact", "--file", policy.toString());
        cli("policy", "tag", "public.gadget.flavour", "credential", "--file", policy.toString());
        assertNoValueLeft("right after tagging (PostgreSQL)");
        CliRun again = CliRun.of("--store", store.toString(), "index", "--source", url);
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("0 changed"), "the change token did not move: " + again.out());
        assertNoValueLeft("after a re-index whose change token said unchanged");
    }

    @AfterAll
    static void figures() throws Exception {
        FileFigures.record("tagged values purged from store, WAL, descriptions and tools", held, tried);
    }
}
