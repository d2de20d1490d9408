package dev.schemabrain.index;

import dev.schemabrain.testing.StoreBytes;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.sqlite.SqliteSource;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SqliteStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PII at index time, on a real SQLite source and store: what is tagged, what is never stored, what survives a re-index. */
class PiiIndexingTest {

    @TempDir
    Path dir;
    Path sourceFile;
    Path storeFile;
    SourceUrl url;
    final QualifiedName contacts = QualifiedName.of("main", "contacts");

    @BeforeEach
    void createSource() throws Exception {
        sourceFile = dir.resolve("crm.db");
        storeFile = dir.resolve("store.db");
        url = SourceUrl.parse("sqlite:" + sourceFile);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sourceFile); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE contacts (id INTEGER PRIMARY KEY, email TEXT, extra_value TEXT, product_name TEXT, segment TEXT)");
            // extra_value says nothing by its name: only its values show it holds e-mail addresses.
            st.execute("""
                    INSERT INTO contacts VALUES
                      (1, 'ann@example.com', 'ann.lee@example.org', 'Widget', 'smb'),
                      (2, 'bob@example.com', 'bob@corp.example.net', 'Gadget', 'enterprise'),
                      (3, 'cyd@example.com', 'cyd_99@mail.example.com', 'Widget', 'smb')""");
        }
    }

    private void index() throws Exception {
        try (SchemaSource source = new SqliteSource(url)) {
            new Indexer().run(url, source, storeFile, false, IndexListener.SILENT);
        }
    }

    private PiiTags tags() throws Exception {
        try (SqliteStore store = SqliteStore.open(storeFile)) {
            return store.read(PiiRepository::tags);
        }
    }

    @Test
    void tagsByNameAndContentAndNeverStoresTheirSamples() throws Exception {
        index();
        PiiTags tags = tags();
        String store = StoreBytes.of(storeFile);
        assertAll(() -> assertEquals(Set.of(PiiCategory.CONTACT), tags.tag(contacts, "email").categories()),
                () -> assertEquals(Set.of(PiiCategory.CONTACT), tags.tag(contacts, "extra_value").categories(), "found by its values"),
                () -> assertFalse(tags.tag(contacts, "product_name").tagged()),
                () -> assertFalse(tags.tag(contacts, "segment").tagged()),
                () -> assertAll(Stream.of("ann@example.com", "ann.lee@example.org", "bob@corp.example.net", "cyd_99")
                        .<Executable>map(value -> () -> assertFalse(store.contains(value), value + " must never be written to the store"))),
                () -> assertTrue(store.contains("enterprise"), "an untagged column keeps its samples"));
    }

    @Test
    void aReindexKeepsContentTagsAndOperatorOverrides() throws Exception {
        index();
        try (SqliteStore store = SqliteStore.open(storeFile)) {
            store.write(c -> {
                PiiRepository.replaceOverrides(c, List.of(
                        new PiiTags.Entry(contacts, "segment", PiiTag.of(Set.of(PiiCategory.BEHAVIORAL), List.of("operator")),
                                PiiTags.Origin.OPERATOR),
                        new PiiTags.Entry(contacts, "email", PiiTag.NONE, PiiTags.Origin.OPERATOR)));
                return null;
            });
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sourceFile); Statement st = c.createStatement()) {
            // The schema moves elsewhere: a real re-index, in which contacts' samples are reused (and empty where tagged).
            st.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
        }
        index();
        PiiTags tags = tags();
        String store = new String(Files.readAllBytes(storeFile), StandardCharsets.ISO_8859_1);
        assertAll(() -> assertEquals(Set.of(PiiCategory.CONTACT), tags.tag(contacts, "extra_value").categories(),
                        "what the content rule found survives re-indexes that reuse the (dropped) samples"),
                () -> assertEquals(Set.of(PiiCategory.BEHAVIORAL), tags.tag(contacts, "segment").categories()),
                () -> assertEquals(PiiTags.Origin.OPERATOR, tags.tagged().stream()
                        .filter(e -> e.column().equals("segment")).findFirst().orElseThrow().origin()),
                () -> assertFalse(tags.tag(contacts, "email").tagged(), "the operator's 'not PII' survives too"),
                () -> assertFalse(store.contains("enterprise"), "the operator's tag drops the column's samples as well"));
    }
}
