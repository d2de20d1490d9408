package dev.schemabrain.demo;

import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SqliteStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The demo database's PII, as an index run tags it: every personal column, and nothing else. */
class DemoPiiTagsTest {

    @TempDir
    Path dir;

    @Test
    void theDemoDatabasesPiiColumnsAreTaggedAsExpected() throws Exception {
        Path db = dir.resolve("demo.sqlite");
        DemoDatabase.create(db);
        SourceUrl url = SourceUrl.parse("sqlite:" + db);
        Path store = dir.resolve("store.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        Map<String, String> tagged = new TreeMap<>();
        try (SqliteStore s = SqliteStore.open(store)) {
            for (PiiTags.Entry e : s.read(PiiRepository::tags).tagged()) {
                tagged.put(e.qualifiedColumn(), e.tag().sensitivity().wireName() + " " + String.join(",", e.tag().categoryNames()));
            }
        }
        assertEquals(new TreeMap<>(Map.ofEntries(
                Map.entry("main.users.email", "pii contact"),
                Map.entry("main.users.first_name", "pii contact"),
                Map.entry("main.users.last_name", "pii contact"),
                Map.entry("main.users.phone_number", "pii contact"),
                Map.entry("main.users.password_hash", "pii credential"),
                Map.entry("main.users.date_of_birth", "pii demographic_protected"),
                Map.entry("main.organizations.street", "pii contact"),
                Map.entry("main.organizations.postal_code", "pii contact"),
                Map.entry("main.payments.card_number", "pii payment_card"),
                Map.entry("main.payments.card_last4", "confidential financial"),
                Map.entry("main.page_views.ip_address", "pii online_identifier"),
                Map.entry("main.page_views.user_agent", "pii online_identifier"))), tagged);
    }
}
