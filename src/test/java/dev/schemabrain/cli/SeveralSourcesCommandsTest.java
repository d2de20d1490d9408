package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** init, doctor, check and index over a store of two real databases, each given once. */
class SeveralSourcesCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    Path shop;
    Path crm;
    String store;
    Map<String, String> env;

    @BeforeEach
    void setUp() throws Exception {
        shop = sqlite("shop.sqlite", "CREATE TABLE orders (id INTEGER PRIMARY KEY, total NUMERIC)");
        crm = sqlite("crm.sqlite", "CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)",
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, contact_id INTEGER REFERENCES contacts, body TEXT)");
        store = dir.resolve("s.db").toString();
        env = new HashMap<>(Map.of("HOME", dir.resolve("home").toString(), "SHOP_URL", "sqlite:" + shop,
                "CRM_URL", "sqlite:" + crm, WitnessFile.ENV, dir.resolve("audit.head").toString()));
    }

    private Path sqlite(String name, String... ddl) throws Exception {
        Path file = dir.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String sql : ddl) {
                st.execute(sql);
            }
        }
        return file;
    }

    private InProcessCli.Result run(String... args) {
        return InProcessCli.run(env, args);
    }

    private void indexBoth() {
        InProcessCli.Result r = run("index", "--store", store, "--url-env", "SHOP_URL");
        assertEquals(0, r.exitCode(), r.stderr());
        r = run("index", "--store", store, "--url-env", "CRM_URL", "--add-source");
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @Test
    void indexTakesEachSourceInTurnWithASummaryEach() throws Exception {
        // Into a fresh store, the second is a source it does not hold yet: refused before anything is written.
        InProcessCli.Result refused = run("index", "--store", store, "--url-env", "SHOP_URL", "--url-env", "CRM_URL");
        assertEquals(2, refused.exitCode(), refused.stdout() + refused.stderr());
        assertEquals("schemabrain: The store " + store + " holds sqlite:" + shop + ", not sqlite:" + crm + "; give this"
                + " source a store of its own with --store FILE, or pass --add-source to serve both from this store on"
                + " purpose.", refused.stderr().strip());
        assertFalse(Files.exists(Path.of(store)), "the refused run indexed neither source");

        InProcessCli.Result r = run("index", "--store", store, "--url-env", "SHOP_URL", "--source", "sqlite:" + crm,
                "--add-source");
        assertEquals(0, r.exitCode(), r.stderr());
        int shopAt = r.stdout().indexOf("Indexed sqlite:" + shop + " (source ");
        int crmAt = r.stdout().indexOf("Indexed sqlite:" + crm + " (source ");
        assertTrue(shopAt >= 0 && crmAt > shopAt, r.stdout());
        assertTrue(r.stdout().substring(shopAt, crmAt).contains("tables        1: 1 new"), r.stdout());
        assertTrue(r.stdout().substring(crmAt).contains("tables        2: 2 new"), r.stdout());
        try (Store s = Stores.open(StoreLocation.file(Path.of(store)))) {
            assertEquals(2, s.read(CatalogRepository::sourceUrls).size());
        }

        // Both held now: a re-index of both needs no --add-source.
        InProcessCli.Result again = run("index", "--store", store, "--url-env", "CRM_URL", "--url-env", "SHOP_URL");
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(again.stdout().contains("tables        2: 0 new, 0 changed, 2 unchanged"), again.stdout());
    }

    @Test
    void checkComparesEachSourceWithItsOwnTablesOnly() throws Exception {
        indexBoth();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + crm); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE contacts ADD COLUMN email TEXT");
        }
        InProcessCli.Result r = run("check", "--store", store, "--url-env", "SHOP_URL", "--url-env", "CRM_URL");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        List<String> lines = r.stdout().strip().lines().toList();
        assertEquals(List.of(
                "sqlite:" + shop + ":",
                "In sync: sqlite:" + shop + " has the 1 tables and 2 columns the store indexed.",
                "sqlite:" + crm + ":",
                "+ column main.contacts.email (TEXT)",
                "1 difference since the last index of sqlite:" + crm + "; run 'schemabrain index --url-env CRM_URL"
                        + " --store " + store + "' to update the store."), lines);

        // A source the store never indexed is said on stderr; the others are still compared, and it sets the exit code.
        Path other = sqlite("other.sqlite", "CREATE TABLE t (id INTEGER PRIMARY KEY)");
        InProcessCli.Result unknown = run("check", "--store", store, "--source", "sqlite:" + other, "--url-env", "SHOP_URL");
        assertEquals(2, unknown.exitCode(), unknown.stdout() + unknown.stderr());
        assertTrue(unknown.stderr().startsWith("schemabrain: The store " + store + " has no catalog for sqlite:" + other
                + ";"), unknown.stderr());
        assertTrue(unknown.stdout().contains("In sync: sqlite:" + shop + " has the 1 tables"), unknown.stdout());
    }

    @Test
    void doctorChecksEachSourceUnderItsDisplayUrlAndExitsWithTheWorst() throws Exception {
        String db = "several_doctor";
        TestPostgres.createDatabase(db, "CREATE TABLE invoices (id int PRIMARY KEY, amount numeric(10,2))");
        env.put("PG_URL", TestPostgres.url(db));
        assertEquals(0, run("index", "--store", store, "--url-env", "PG_URL").exitCode());
        assertEquals(0, run("index", "--store", store, "--url-env", "SHOP_URL", "--add-source").exitCode());

        InProcessCli.Result r = run("doctor", "--store", store, "--url-env", "PG_URL", "--url-env", "SHOP_URL");
        String out = r.stdout();
        String pg = SourceUrl.parse(TestPostgres.url(db)).displayUrl();
        int pgAt = out.indexOf("\n" + pg + ":\n");
        int shopAt = out.indexOf("\nsqlite:" + shop + ":\n");
        assertTrue(pgAt > 0 && shopAt > pgAt, out);
        String pgBlock = out.substring(pgAt, shopAt);
        assertTrue(pgBlock.contains("ok    source: " + pg + " is reachable (1 tables)"), out);
        assertTrue(pgBlock.contains("role: "), "the PostgreSQL role is checked in its block: " + out);
        assertTrue(out.substring(shopAt).contains("ok    source: sqlite:" + shop + " is reachable (1 tables)"), out);
        assertTrue(out.substring(shopAt).contains("ok    role: the SQLite file is opened read-only"), out);
        assertTrue(out.contains("ok    store: " + store + " indexed from "), out);
        assertTrue(out.contains("(" + pg + ": 1 tables, 2 columns; sqlite:" + shop + ": 1 tables, 2 columns)"), out);
        assertTrue(r.exitCode() < 2, out);

        // A source the store does not hold fails the store check, and the exit code is the worst of all.
        Files.delete(shop);
        InProcessCli.Result broken = run("doctor", "--store", store, "--url-env", "PG_URL", "--url-env", "CRM_URL");
        assertEquals(2, broken.exitCode(), broken.stdout());
        assertTrue(broken.stdout().contains("FAIL  store: " + store + " was indexed from "), broken.stdout());
        assertTrue(broken.stdout().contains(", not from sqlite:" + crm + "; index that source into it"), broken.stdout());
        assertTrue(broken.stdout().contains("\nsqlite:" + crm + ":\nok    source: sqlite:" + crm + " is reachable (2 tables)"),
                broken.stdout());
    }

    @Test
    void initPassesEverySourceOnAndNamesTheOneLeftOut() throws Exception {
        indexBoth();
        Path jar = Files.writeString(dir.resolve("schemabrain.jar"), "a jar");
        List<String> base = List.of("init", "--store", store, "--jar", jar.toString(), "--client", "claude-code");

        // A SQLite file the store records is opened by serve from its path; one that is gone must be given.
        Path away = Files.move(crm, dir.resolve("crm-away.sqlite"));
        InProcessCli.Result missing;
        try {
            missing = run(args(base, "--url-env", "SHOP_URL"));
        } finally {
            Files.move(away, crm);
        }
        assertEquals(2, missing.exitCode(), missing.stdout() + missing.stderr());
        assertEquals("schemabrain: The store " + store + " holds 2 sources and init was given no connection for sqlite:"
                + crm + "; pass --url-env VAR (or --source URL) once for each source of the store, so every table it"
                + " serves can be queried.", missing.stderr().strip());

        InProcessCli.Result r = run(args(base, "--url-env", "SHOP_URL", "--url-env", "CRM_URL"));
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode entry = JSON.readTree(Files.readString(McpClient.CLAUDE_CODE.configFile(dir.resolve("home"), Map.of(),
                "Linux"))).path("mcpServers").path("schemabrain");
        List<String> args = new ArrayList<>();
        entry.path("args").forEach(a -> args.add(a.asText()));
        assertEquals(List.of("serve", "--url-env", "SHOP_URL", "--url-env", "CRM_URL"),
                args.subList(args.indexOf("serve"), args.size()), args.toString());
        assertEquals("sqlite:" + shop, entry.path("env").path("SHOP_URL").asText());
        assertEquals("sqlite:" + crm, entry.path("env").path("CRM_URL").asText());

        // A --source is passed on as given, unless it holds a password the client's file would then hold.
        InProcessCli.Result secret = run(args(base, "--url-env", "SHOP_URL", "--source",
                "postgresql://reader:s3cret@db.internal/crm"));
        assertEquals(2, secret.exitCode(), secret.stdout() + secret.stderr());
        assertEquals("schemabrain: The --source URL holds a password or secret parameter, which init would write into"
                + " the client's file; pass it as --url-env VAR instead.", secret.stderr().strip());
        InProcessCli.Result mixed = run(args(base, "--url-env", "SHOP_URL", "--source", "sqlite:" + crm));
        assertEquals(0, mixed.exitCode(), mixed.stderr());
        String written = Files.readString(McpClient.CLAUDE_CODE.configFile(dir.resolve("home"), Map.of(), "Linux"));
        List<String> mixedArgs = new ArrayList<>();
        JSON.readTree(written).path("mcpServers").path("schemabrain").path("args").forEach(a -> mixedArgs.add(a.asText()));
        assertEquals(List.of("serve", "--url-env", "SHOP_URL", "--source", "sqlite:" + crm),
                mixedArgs.subList(mixedArgs.indexOf("serve"), mixedArgs.size()), written);
        assertFalse(written.contains("s3cret"), written);
    }

    private static String[] args(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
