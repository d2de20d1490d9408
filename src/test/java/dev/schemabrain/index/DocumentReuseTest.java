package dev.schemabrain.index;

import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.SqliteStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Identical document texts (the same table in two schemas) are embedded once and share the vector. */
class DocumentReuseTest {

    @TempDir
    Path dir;

    /** The real model, counting the texts it is asked for. */
    static final class Counting implements Embedder {
        final List<String> asked = new ArrayList<>();

        @Override public String modelId() { return Embedders.MODEL_ID; }
        @Override public int dimension() { return Embedders.shared().dimension(); }
        @Override public float[] embedQuery(String query) { return Embedders.shared().embedQuery(query); }
        @Override public synchronized List<float[]> embedPassages(List<String> passages) {
            asked.addAll(passages);
            return Embedders.shared().embedPassages(passages);
        }
        @Override public void close() { }
    }

    static final String TENANT = """
                {"db_id": "%s", "table_names_original": ["customer", "invoice"],
                 "column_names_original": [[-1, "*"], [0, "customer_id"], [0, "name"], [1, "invoice_id"], [1, "customer_id"], [1, "total"]],
                 "column_types": ["text", "number", "text", "number", "number", "number"],
                 "primary_keys": [1, 3], "foreign_keys": [[4, 1]]}""";

    IndexResult index(Path store, Counting model, String... schemas) throws Exception {
        Path tables = dir.resolve("tables.json");
        Files.writeString(tables, "[" + String.join(",", schemas) + "]");
        SourceUrl url = SourceUrl.parse("spider:" + tables);
        try (SchemaSource source = Sources.open(url)) {
            return new Indexer(Clock.systemUTC(), () -> model, Embedders.MODEL_ID).run(url, source, store, false, IndexListener.SILENT);
        }
    }

    @Test
    void theSameTableInTwoSchemasIsEmbeddedOnce() throws Exception {
        String tenant = TENANT;
        // A third schema differs in one column, so its invoice documents are its own.
        Path store = dir.resolve("store.db");
        Counting model = new Counting();
        IndexResult.Documents docs = index(store, model, tenant.formatted("acme"), tenant.formatted("globex"),
                tenant.formatted("initech").replace("\"total\"", "\"amount_due\"")).documents();
        List<String> vectors = new ArrayList<>();
        try (SqliteStore s = SqliteStore.open(store)) {
            s.read(c -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                        SELECT hex(k.embedding) FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
                         WHERE t.table_name = 'customer' AND k.column_name = 'name' ORDER BY t.schema_name""")) {
                    while (rs.next()) {
                        vectors.add(rs.getString(1));
                    }
                }
                return null;
            });
        }
        assertAll(() -> assertEquals(3 * 2 + 3 * 5, docs.embedded(), "every document gets its vector"),
                () -> assertEquals(0, docs.reused(), "a new store has nothing to reuse"),
                () -> assertEquals(docs.texts(), model.asked.size(), "the model ran once per distinct text"),
                () -> assertEquals(model.asked.size(), new HashSet<>(model.asked).size(), "no text twice"),
                () -> assertEquals(7 + 5, docs.embedded() - docs.texts(),
                        "globex repeats all 7 of acme's texts; initech all but its invoice table and total column"),
                () -> assertEquals(3, vectors.size()),
                () -> assertEquals(1, new HashSet<>(vectors).size(), "customer.name has one vector in all three schemas"));
    }

    @Test
    void aSchemaAddedLaterTakesTheVectorsItsTwinAlreadyHas() throws Exception {
        Path store = dir.resolve("store.db");
        index(store, new Counting(), TENANT.formatted("acme"));
        String acme = vector(store, "acme");
        Counting model = new Counting();
        IndexResult.Documents docs = index(store, model, TENANT.formatted("acme"), TENANT.formatted("globex"),
                TENANT.formatted("initech").replace("\"total\"", "\"amount_due\"")).documents();
        assertAll(() -> assertEquals(2 * 7, docs.embedded(), "globex and initech are new"),
                () -> assertEquals(7 + 2, docs.texts(), "globex's 7 texts, and initech's invoice table and amount due"),
                () -> assertEquals(7, docs.reused(), "acme's stored vectors serve globex's texts"),
                () -> assertEquals(2, model.asked.size(), "the model ran only on the 2 texts no stored document has"),
                () -> assertEquals(acme, vector(store, "globex")),
                () -> assertEquals(acme, vector(store, "initech")));
    }

    /** The vector of customer.name in one schema, as hex. */
    static String vector(Path store, String schema) throws Exception {
        try (SqliteStore s = SqliteStore.open(store)) {
            return s.read(c -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                        SELECT hex(k.embedding) FROM catalog_columns k JOIN catalog_tables t ON t.table_id = k.table_id
                         WHERE t.schema_name = '%s' AND t.table_name = 'customer' AND k.column_name = 'name'""".formatted(schema))) {
                    return rs.next() ? rs.getString(1) : null;
                }
            });
        }
    }
}
