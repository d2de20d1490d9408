package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Vectors;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.store.DocumentKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** int8 vectors, selection, and the table graph against the scan on a synthetic catalog above the threshold. */
class VectorIndexTest {

    private static final int DIM = 64;

    @Test
    void int8RoundTripStaysWithinHalfAStepAndKeepsCosines() {
        Random random = new Random(7);
        int n = 500;
        QuantizedVectors q = QuantizedVectors.zeros(n, 384);
        float[][] originals = new float[n][];
        for (int i = 0; i < n; i++) {
            originals[i] = unit(random, 384);
            q.set(i, originals[i]);
        }
        float[] question = unit(random, 384);
        float worstCosine = 0;
        for (int i = 0; i < n; i++) {
            float[] back = q.get(i);
            for (int j = 0; j < 384; j++) {
                assertTrue(Math.abs(back[j] - originals[i][j]) <= q.maxError(i) * 1.0001f, "component " + j + " of " + i);
            }
            worstCosine = Math.max(worstCosine, Math.abs(q.dot(i, question) - Vectors.dot(originals[i], question)));
            assertEquals(Vectors.dot(back, originals[(i + 1) % n]), Vectors.dot(originals[i], originals[(i + 1) % n]), 0.002);
        }
        assertTrue(worstCosine < 0.002, "cosine error " + worstCosine);
        QuantizedVectors empty = QuantizedVectors.zeros(1, 384);
        empty.set(0, null);
        assertEquals(0, empty.dot(0, question));
    }

    @Test
    void selectionFindsTheSameKthValueAsSorting() {
        Random random = new Random(3);
        for (int round = 0; round < 200; round++) {
            double[] values = new double[1 + random.nextInt(300)];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(20) / 4.0;  // many ties
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            int k = 1 + random.nextInt(values.length);
            assertEquals(sorted[values.length - k], HybridRetriever.kthLargest(values, k), "k=" + k + " of " + values.length);
        }
    }

    @Test
    void theGraphAnswersTheTablesTheScanAnswers() {
        Random random = new Random(11);
        int tables = 3000;
        List<Table> list = new ArrayList<>();
        for (int i = 0; i < tables; i++) {
            list.add(table("s" + (i / 100), "t" + i));
        }
        Catalog catalog = new Catalog(list);
        List<TableDocuments> documents = new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog);
        Map<DocumentKey, float[]> vectors = new HashMap<>();
        for (Table t : list) {
            vectors.put(DocumentKey.table(t.name()), unit(random, DIM));
            for (Column c : t.columns()) {
                vectors.put(DocumentKey.column(t.name(), c.name()), unit(random, DIM));
            }
        }
        // A question near one table's vector and one of its columns: an answer the vectors make clear.
        Map<String, float[]> questions = new HashMap<>();
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int t = random.nextInt(tables);
            Table table = list.get(t);
            float[] q = new float[DIM];
            float[] tv = vectors.get(DocumentKey.table(table.name()));
            float[] cv = vectors.get(DocumentKey.column(table.name(), table.columns().get(1).name()));
            float[] noise = unit(random, DIM);
            for (int j = 0; j < DIM; j++) {
                q[j] = tv[j] + cv[j] + 0.5f * noise[j];
            }
            questions.put("zzq" + i, Vectors.normalize(q));
            answers.add(t);
        }
        VectorIndex scanned = VectorIndex.of(catalog.tables(), vectors, Integer.MAX_VALUE);
        VectorIndex graphed = VectorIndex.of(catalog.tables(), vectors, 0);
        assertFalse(scanned.graphed());
        assertTrue(graphed.awaitGraph());
        assertTrue(graphed.nearestTables(questions.get("zzq0"), 10).isPresent());
        HybridRetriever scan = new HybridRetriever(HybridRetriever.Mode.HYBRID, catalog, documents, scanned, questions::get);
        HybridRetriever ann = new HybridRetriever(HybridRetriever.Mode.HYBRID, catalog, documents, graphed, questions::get);
        int sameTop5 = 0;
        for (int i = 0; i < answers.size(); i++) {
            String question = "zzq" + i;
            List<QualifiedName> bySCan = scan.search(question, 5, Optional.empty()).stream().map(h -> h.table().name()).toList();
            List<QualifiedName> byGraph = ann.search(question, 5, Optional.empty()).stream().map(h -> h.table().name()).toList();
            QualifiedName answer = list.get(answers.get(i)).name();
            assertEquals(answer, bySCan.get(0), "scan, question " + i);
            assertEquals(answer, byGraph.get(0), "graph, question " + i);
            if (bySCan.equals(byGraph)) {
                sameTop5++;
            }
            // The best column found by re-scoring is the one the question was made from.
            assertEquals(list.get(answers.get(i)).columns().get(1), ann.search(question, 1, Optional.empty()).get(0).bestColumn());
        }
        assertTrue(sameTop5 >= answers.size() * 9 / 10, sameTop5 + " of " + answers.size() + " top-5 lists equal");
        // Within one schema the graph is not used: the schema's tables are scanned, as below the threshold.
        assertEquals(scan.search("zzq0", 5, Optional.of("s3")), ann.search("zzq0", 5, Optional.of("s3")));
    }

    /** The load's streamed vectors, in any order, make the same index as a map of them; strays and repeats change nothing. */
    @Test
    void vectorsGivenOneAtATimeMakeTheSameIndexAsAMap() {
        Random random = new Random(11);
        List<Table> tables = List.of(table("s1", "a"), table("s1", "b"), table("s2", "a"));
        Map<DocumentKey, float[]> map = new HashMap<>();
        for (Table t : tables) {
            map.put(DocumentKey.table(t.name()), unit(random, DIM));
            for (Column c : t.columns()) {
                if (!(t.name().schema().equals("s2") && c.name().equals("c1"))) {  // one column never embedded
                    map.put(DocumentKey.column(t.name(), c.name()), unit(random, DIM));
                }
            }
        }
        List<Map.Entry<DocumentKey, float[]>> entries = new ArrayList<>(map.entrySet());
        Collections.shuffle(entries, random);
        VectorIndex.Builder builder = VectorIndex.builder(tables);
        for (Map.Entry<DocumentKey, float[]> e : entries) {
            builder.put(e.getKey(), e.getValue());
        }
        // A second vector for a document already given (a later source), a table and a column the catalog lacks.
        builder.put(DocumentKey.table(tables.get(0).name()), unit(random, DIM));
        builder.put(DocumentKey.table(new QualifiedName("s9", "gone")), unit(random, DIM));
        builder.put(DocumentKey.column(tables.get(1).name(), "dropped"), unit(random, DIM));
        VectorIndex streamed = builder.build();
        VectorIndex mapped = VectorIndex.of(tables, map);
        assertEquals(DIM, streamed.dimension());
        float[] q = unit(random, DIM);
        for (int t = 0; t < tables.size(); t++) {
            assertEquals(mapped.table(t, q), streamed.table(t, q), 0f, "table " + t);
            assertEquals(mapped.columnCount(t), streamed.columnCount(t));
            for (int c = 0; c < mapped.columnCount(t); c++) {
                assertEquals(mapped.column(t, c, q), streamed.column(t, c, q), 0f, "table " + t + " column " + c);
            }
        }
        assertEquals(0f, streamed.column(2, 2, q), "a column never embedded scores nothing");
        assertEquals(0, VectorIndex.builder(tables).build().dimension(), "no vectors at all: no dense signal");
    }

    @Test
    void aSelectionKeepsEachKeptTablesVectorsAndColumnsExactly() {
        Random random = new Random(11);
        Table narrow = table("s1", "wide");
        List<Column> columns = new ArrayList<>(narrow.columns());
        columns.add(new Column("extra", 6, "text", true, null, null, List.of()));   // column counts differ
        Table wide = narrow.withColumns(columns);
        List<Table> tables = List.of(table("s0", "a"), wide, table("s2", "c"));
        Map<DocumentKey, float[]> map = new HashMap<>();
        for (Table t : tables) {
            map.put(DocumentKey.table(t.name()), unit(random, DIM));
            t.columns().forEach(c -> map.put(DocumentKey.column(t.name(), c.name()), unit(random, DIM)));
        }
        VectorIndex all = VectorIndex.of(tables, map);
        int[] kept = {2, 1};
        VectorIndex some = all.select(kept);
        float[] q = unit(random, DIM);
        assertEquals(2, some.tableCount());
        for (int i = 0; i < kept.length; i++) {
            assertEquals(all.table(kept[i], q), some.table(i, q), 0f, "table " + kept[i]);
            assertEquals(all.columnCount(kept[i]), some.columnCount(i));
            for (int c = 0; c < all.columnCount(kept[i]); c++) {
                assertEquals(all.column(kept[i], c, q), some.column(i, c, q), 0f, "table " + kept[i] + " column " + c);
            }
        }
        assertEquals(0, VectorIndex.builder(tables).build().select(kept).dimension(), "no vectors select none");
    }

    private static Table table(String schema, String name) {
        TableBuilder b = new TableBuilder(new QualifiedName(schema, name), TableKind.TABLE, null, null, null);
        b.addColumn(new Column(name + "_id", 1, "integer", false, null, null, List.of()));
        b.addPrimaryKeyColumn(name + "_id");
        for (int i = 0; i < 3; i++) {
            b.addColumn(new Column("c" + i, i + 2, "text", true, null, null, List.of()));
        }
        return b.build();
    }

    private static float[] unit(Random random, int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return Vectors.normalize(v);
    }
}
