package dev.schemabrain.retrieve;

import java.util.Arrays;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.store.DocumentKey;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hybrid ranking and its displayed scores on a small real catalog with the real model. */
class HybridRetrieverTest {

    private static Catalog catalog;
    private static List<TableDocuments> documents;
    private static Map<DocumentKey, float[]> vectors;
    private static Embedder embedder;

    @BeforeAll
    static void index() {
        catalog = new Catalog(List.of(
                table("addresses", "address_id", "line_1", "line_2", "city", "zip_postcode", "state_province_county"),
                table("students", "student_id", "first_name", "middle_name", "last_name", "cell_mobile_number", "email_address"),
                table("semesters", "semester_id", "semester_name", "semester_description")));
        documents = new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog);
        embedder = Embedders.shared();
        vectors = new HashMap<>();
        for (TableDocuments d : documents) {
            vectors.put(DocumentKey.table(d.table()), embedder.embedPassages(List.of(d.tableText())).get(0));
            for (TableDocuments.ColumnDocument c : d.columns()) {
                vectors.put(DocumentKey.column(d.table(), c.column()), embedder.embedPassages(List.of(c.text())).get(0));
            }
        }
    }

    private static Table table(String name, String key, String... columns) {
        TableBuilder b = new TableBuilder(new QualifiedName("school", name), TableKind.TABLE, null, null, null);
        b.addColumn(new Column(key, 1, "integer", false, null, null, List.of()));
        b.addPrimaryKeyColumn(key);
        for (int i = 0; i < columns.length; i++) {
            b.addColumn(new Column(columns[i], i + 2, "text", true, null, null, List.of()));
        }
        return b.build();
    }

    private static HybridRetriever retriever() {
        return new HybridRetriever(HybridRetriever.Mode.HYBRID, catalog, documents, vectors, embedder::embedQuery);
    }

    @Test
    void aQuestionEmbeddedByAnotherModelThanTheStoresIsSearchedByKeywordsOnly() {
        // A store indexed with bge-small (384) served with the static table (256 dimensions): the int8 scans would
        // compare the first 256 components and rank silently wrong.
        HybridRetriever other = new HybridRetriever(HybridRetriever.Mode.HYBRID, catalog, documents, vectors,
                q -> Arrays.copyOf(embedder.embedQuery(q), 256));
        HybridRetriever keywords = new HybridRetriever(HybridRetriever.Mode.KEYWORD, catalog, documents, vectors,
                embedder::embedQuery);
        List<TableHit> hits = other.search("student email", 3, Optional.empty());
        assertFalse(other.dense(), "the mismatched vectors are no longer used");
        assertEquals(keywords.search("student email", 3, Optional.empty()).stream().map(h -> h.table().name()).toList(),
                hits.stream().map(h -> h.table().name()).toList());
        assertFalse(hits.isEmpty());
    }

    @Test
    void aWeakTopTableDoesNotBlankAnAnswerAnotherTableMatchesByName() {
        // Names of people and no word of "addresses": a long question with low cosines everywhere.
        List<TableHit> hits = retriever().search(
                "What is the phone number of the man with the first name Timmothy and the last name Ward?", 3, Optional.empty());
        assertFalse(hits.isEmpty());
        assertTrue(hits.stream().limit(2).anyMatch(h -> h.table().name().table().equals("students")), hits.toString());
        TableHit students = hits.stream().filter(h -> h.table().name().table().equals("students")).findFirst().orElseThrow();
        assertTrue(students.matchedTerms().containsAll(List.of("first", "last", "name")), students.matchedTerms().toString());
    }

    @Test
    void scoresLieInTheUnitIntervalAndFallDownTheList() {
        List<TableHit> hits = retriever().search("which semester has the description spring", 3, Optional.empty());
        assertAll(() -> assertEquals("semesters", hits.get(0).table().name().table()),
                () -> assertAll(IntStream.range(0, hits.size()).<Executable>mapToObj(i -> () -> assertAll(hits.get(i).toString(),
                        () -> assertTrue(hits.get(i).score() >= 0 && hits.get(i).score() <= 1),
                        () -> assertTrue(i == 0 || hits.get(i).score() <= hits.get(i - 1).score())))));
    }

    @Test
    void aQuestionNothingAnswersIsALowRankedListNotEmpty() {
        HybridRetriever keyword = new HybridRetriever(HybridRetriever.Mode.KEYWORD, catalog, documents, vectors, null);
        for (HybridRetriever r : List.of(keyword, retriever())) {
            List<TableHit> hits = r.search("quarterly revenue forecast zebra", 5, Optional.empty());
            assertEquals(3, hits.size(), hits.toString());
            assertTrue(hits.stream().allMatch(h -> h.score() <= HybridRetriever.NO_EVIDENCE), hits.toString());
        }
    }

    @Test
    void onlyASchemaWithNoTablesIsEmpty() {
        assertTrue(retriever().search("students", 5, Optional.of("no_such_schema")).isEmpty());
        assertFalse(retriever().search("students", 5, Optional.of("school")).isEmpty());
    }

    @Test
    void aNamedValueBringsItsTableUpAndIsNamedInTheHit() {
        List<Table> tables = new ArrayList<>(catalog.tables());
        Table addresses = tables.get(0);
        tables.set(0, addresses.withColumns(addresses.columns().stream()
                .map(c -> c.name().equals("city") ? c.withValues(List.of("Köln", "Stuttgart", "Rio de Janeiro")) : c).toList()));
        Catalog withValues = new Catalog(tables);
        HybridRetriever r = new HybridRetriever(HybridRetriever.Mode.HYBRID, withValues,
                new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(withValues), vectors, embedder::embedQuery);
        List<TableHit> hits = r.search("what is there in rio de janeiro", 3, Optional.empty());
        TableHit top = hits.get(0);
        assertAll(() -> assertEquals("addresses", top.table().name().table(), hits.toString()),
                () -> assertEquals(new TableHit.MatchedValue("city", "Rio de Janeiro"), top.matchedValue()),
                () -> assertEquals("city", top.bestColumn().name()),
                // Accents and case do not matter; a value the question does not name is never shown.
                () -> assertEquals("Köln", r.search("people in KOLN", 3, Optional.empty()).get(0).matchedValue().value()),
                () -> assertTrue(r.search("semester names", 3, Optional.empty()).stream().allMatch(h -> h.matchedValue() == null)));
    }
}
