package dev.schemabrain.security;

import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, break 4, as the red team found it: credentials, cards and identifiers inside free text in columns whose
 * names the classifier did not know. A real SQLite source is indexed into a real store; the tags must be right and
 * the store file's bytes must hold none of the values. Also Chinook on PostgreSQL: an artist's name is a band's, so a
 * filter on it stays allowed, while customers' and employees' names stay tagged.
 */
class ClassifierLeakTest {

    @TempDir
    Path dir;

    static final String BCRYPT = "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW";
    static final String GITHUB_TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    static final String AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
    static final String JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

    @Test
    void theRedTeamsMissesAreTaggedAndNoneOfTheirValuesReachesTheStore() throws Exception {
        Path source = dir.resolve("app.db");
        Path store = dir.resolve("store.db");
        String[][] rows = {
                {BCRYPT, GITHUB_TOKEN, "hunter2", "4111.1111.1111.1111", "Call Alice at alice@example.com after 5pm", "api_key=" + AWS_KEY + " in prod", "Widget"},
                {"$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "letmein99", "5500 0000 0000 0004", "Prefers phone: +1 415 555 0132", "Authorization: Bearer " + JWT, "Gadget"},
                {"$2y$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy", "ghs_16C7e42F292c6912E7710c838347Ae178B4a", "Summer2024!", "3782-822463-10005", "Met at conference, follow up in Q3", "deploy ok", "Widget"}};
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE app_user (id INTEGER PRIMARY KEY, passwordhash TEXT, accesstoken TEXT, pw TEXT, cc TEXT,"
                    + " notes TEXT, build_log TEXT, product TEXT)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO app_user VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < rows.length; i++) {
                    insert.setInt(1, i + 1);
                    for (int k = 0; k < rows[i].length; k++) {
                        insert.setString(k + 2, rows[i][k]);
                    }
                    insert.executeUpdate();
                }
            }
        }
        SourceUrl url = SourceUrl.parse("sqlite:" + source);
        try (SchemaSource s = Sources.open(url)) {
            new Indexer().run(url, s, store, false, IndexListener.SILENT);
        }
        Map<String, Set<PiiCategory>> tags = tags(store);
        assertEquals(new TreeMap<>(Map.of(
                "main.app_user.passwordhash", Set.of(PiiCategory.CREDENTIAL),
                "main.app_user.accesstoken", Set.of(PiiCategory.CREDENTIAL),
                "main.app_user.pw", Set.of(PiiCategory.CREDENTIAL),
                "main.app_user.cc", Set.of(PiiCategory.PAYMENT_CARD),
                "main.app_user.notes", Set.of(PiiCategory.CONTACT),
                "main.app_user.build_log", Set.of(PiiCategory.CREDENTIAL))), tags);

        String bytes = StoreBytes.of(store);
        List<String> leaked = new ArrayList<>();
        int checked = 0;
        for (String[] row : rows) {
            for (int k = 0; k < row.length - 1; k++) {
                for (String secret : List.of(row[k], row[k].replaceAll("^.*(alice@example\\.com|415 555 0132|AKIA\\w+|eyJ\\S+).*$", "$1"))) {
                    if (secret.equals("deploy ok") || secret.startsWith("Met at")) {
                        continue;
                    }
                    checked++;
                    if (bytes.contains(secret)) {
                        leaked.add(secret);
                    }
                }
            }
        }
        assertTrue(bytes.contains("Widget"), "the store keeps ordinary samples (the probe works)");
        assertTrue(leaked.isEmpty(), "values found in the store file: " + leaked);
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "classifier-store.txt"),
                "classifier red-team values found in the store file: " + leaked.size() + " / " + checked + "\n");
    }

    @Test
    void chinookTagsPeopleNotBands() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        Path store = dir.resolve("chinook.db");
        try (SchemaSource s = Sources.open(url)) {
            new Indexer().run(url, s, store, false, IndexListener.SILENT);
        }
        Map<String, Set<PiiCategory>> tags = tags(store);
        assertAll(() -> assertFalse(tags.containsKey("public.artist.name"), "an artist here is a band (AC/DC): " + tags),
                () -> assertFalse(tags.containsKey("public.album.title")),
                () -> assertFalse(tags.containsKey("public.track.composer")),
                () -> assertAll(Stream.of("public.customer.first_name", "public.customer.last_name", "public.customer.email",
                                "public.customer.phone", "public.employee.first_name", "public.employee.last_name", "public.employee.email")
                        .<Executable>map(person -> () -> assertEquals(Set.of(PiiCategory.CONTACT), tags.get(person), person))),
                () -> assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tags.get("public.employee.birth_date")),
                () -> assertTrue(tags.keySet().stream().allMatch(c -> c.startsWith("public.customer.") || c.startsWith("public.employee.")
                        || c.startsWith("public.invoice.billing_")), "only people's columns are tagged: " + tags.keySet()));
    }

    private static Map<String, Set<PiiCategory>> tags(Path store) throws Exception {
        Map<String, Set<PiiCategory>> out = new TreeMap<>();
        try (SqliteStore s = SqliteStore.open(store)) {
            for (PiiTags.Entry e : s.read(PiiRepository::tags).tagged()) {
                out.put(e.qualifiedColumn(), e.tag().categories());
            }
        }
        return out;
    }

}
