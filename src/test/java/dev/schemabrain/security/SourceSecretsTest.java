package dev.schemabrain.security;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12 item 10a: a secret in a URL parameter (?sslpassword=, sslkey, passfile, tokens, anything not
 * on the allow-list) reaches the driver but is never displayed, stored in {@code sources}, or printed.
 */
class SourceSecretsTest {

    private static final String SECRET = "s3cretPw77";
    private static int held;
    private static int tried;

    @TempDir
    Path dir;

    private static void count(boolean clean) {
        tried++;
        if (clean) {
            held++;
        }
    }

    @Test
    void onlyAllowListedParametersAreDisplayedButAllReachTheDriver() throws Exception {
        for (String url : List.of(
                "postgresql://app:pw@db.example:5432/shop?sslpassword=" + SECRET + "&sslmode=require",
                "postgresql://db.example/shop?sslmode=require&sslkey=/home/app/" + SECRET + ".key&passfile=/x/" + SECRET,
                "postgresql://db.example/shop?sslmode=require&api_token=" + SECRET,
                "mysql://db.example/shop?sslMode=REQUIRED&trustStorePassword=" + SECRET,
                "mariadb://db.example/shop?password1=" + SECRET + "&connectTimeout=5000",
                "postgresql://db.example/shop?SSLPASSWORD=" + SECRET + "&sslmode=require")) {
            SourceUrl parsed = SourceUrl.parse(url);
            count(!parsed.displayUrl().contains(SECRET) && !parsed.toString().contains(SECRET));
            assertFalse(parsed.displayUrl().contains(SECRET), parsed.displayUrl());
            assertFalse(parsed.toString().contains(SECRET));
            assertTrue(parsed.query().contains(SECRET), "the driver still gets every parameter: " + url);
        }
        SourceUrl pg = SourceUrl.parse("postgresql://app:pw@db.example:5432/shop?sslpassword=" + SECRET + "&sslmode=require");
        assertEquals("postgresql://db.example:5432/shop?sslmode=require", pg.displayUrl());
        assertEquals(SourceUrl.parse("postgresql://db.example:5432/shop?sslmode=require").sourceId(), pg.sourceId(),
                "the source id is the display form's: no hash of the secret");
        assertEquals("mariadb://db.example/shop?connectTimeout=5000",
                SourceUrl.parse("mariadb://db.example/shop?password1=" + SECRET + "&connectTimeout=5000").displayUrl());
    }

    @Test
    void indexingWithASecretParameterNeitherPrintsNorStoresIt() throws Exception {
        TestPostgres.createDatabase("sb_secret_param", "CREATE TABLE item (id int PRIMARY KEY, label text)",
                "INSERT INTO item VALUES (1, 'lamp'), (2, 'desk')");
        Path store = dir.resolve("store.db");
        String url = TestPostgres.url("sb_secret_param") + "?sslmode=disable&sslpassword=" + SECRET + "&ApplicationName=sb";
        CliRun run = CliRun.of("--store", store.toString(), "index", "--source", url);
        assertEquals(0, run.exit(), run.err());
        CliRun dry = CliRun.of("--store", store.toString(), "index", "--dry-run", "--source", url);
        assertEquals(0, dry.exit(), dry.err());
        CliRun serve = CliRun.of("--store", store.toString(), "serve", "--source", url);
        assertEquals(0, serve.exit(), "the same source is accepted by serve: " + serve.err());
        String bytes = StoreBytes.of(store);
        for (String text : List.of(run.out(), run.err(), dry.out(), dry.err(), serve.err(), bytes)) {
            count(!text.contains(SECRET));
        }
        assertFalse(run.out().contains(SECRET) || run.err().contains(SECRET), "index printed the secret");
        assertFalse(dry.out().contains(SECRET) || dry.err().contains(SECRET), "index --dry-run printed the secret");
        assertFalse(serve.err().contains(SECRET), "serve printed the secret");
        assertFalse(bytes.contains(SECRET), "the store holds the secret");
        assertTrue(run.out().contains("sslmode=disable"), "allowed parameters are still shown: " + run.out());
    }

    @Test
    void aStoreThatHeldASecretParameterIsScrubbedByTheNextIndex() throws Exception {
        TestPostgres.createDatabase("sb_secret_old", "CREATE TABLE item (id int PRIMARY KEY, label text)");
        Path store = dir.resolve("old.db");
        String clean = TestPostgres.url("sb_secret_old") + "?sslmode=disable";
        assertEquals(0, CliRun.of("--store", store.toString(), "index", "--source", clean).exit());
        // As an older build stored it: the display URL with the secret parameter, and an id hashed from it.
        String oldDisplay = SourceUrl.parse(clean).displayUrl() + "&sslpassword=" + SECRET;
        String oldId = "0123456789abcdef";
        String newId = SourceUrl.parse(clean).sourceId();
        try (SqliteStore s = SqliteStore.open(store)) {
            s.write(c -> {
                CatalogRepository.rekeySource(c, newId, oldId, oldDisplay);
                return null;
            });
        }
        assertTrue(StoreBytes.of(store).contains(SECRET), "precondition: the old store holds the secret");
        CliRun again = CliRun.of("--store", store.toString(), "index", "--source", clean + "&sslpassword=" + SECRET);
        assertEquals(0, again.exit(), again.err());
        count(!StoreBytes.of(store).contains(SECRET));
        assertFalse(StoreBytes.of(store).contains(SECRET), "the next index scrubs the stored URL");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*), min(source_id) FROM sources")) {
            rs.next();
            assertEquals(1, rs.getInt(1), "the old rows moved to the new id, not duplicated");
            assertEquals(SourceUrl.parse(clean).sourceId(), rs.getString(2));
        }
        assertTrue(again.out().contains("0 new"), "the re-keyed tables are found again: " + again.out());
    }


    @AfterAll
    static void figures() throws Exception {
        FileFigures.record("secret URL parameters kept out of display, output and store", held, tried);
    }
}
