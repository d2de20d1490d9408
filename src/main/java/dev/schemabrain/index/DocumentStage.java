package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.embed.Embedder;
import dev.schemabrain.embed.Vectors;
import dev.schemabrain.store.DocumentKey;
import dev.schemabrain.store.DocumentRepository.DocumentWrite;
import dev.schemabrain.store.DocumentRepository.StoredDocument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Describes every table and column and embeds the documents whose text changed. Describing is a
 * cheap pure function, so it runs over the whole catalog; embedding is the cost, so a document is
 * embedded only when the hash of its text (and model) differs from the stored one. The model is only
 * loaded when there is something to embed.
 */
final class DocumentStage {

    /** Texts per embedding call: about a quarter of a second on two cores, and enough to keep every worker busy. */
    static final int EMBED_SLICE = 64;

    /**
     * What to write, and what it took.
     *
     * @param embedded documents given a new vector
     * @param texts    distinct texts among them (identical texts share one vector)
     * @param reused   texts whose vector came from another stored document of the source, not from the model
     */
    record Plan(List<DocumentWrite> writes, int described, int embedded, int texts, int reused, long describeMillis,
                long embedMillis) {
    }

    /** The store's vectors of some documents, each only if its stored hash is still the one asked for. */
    interface StoredVectors {
        StoredVectors NONE = wanted -> Map.of();

        Map<DocumentKey, byte[]> read(Map<DocumentKey, String> wanted);
    }

    private final OfflineDescriber describer;
    private final Supplier<Embedder> embedder;
    private final String modelId;

    DocumentStage(OfflineDescriber describer, Supplier<Embedder> embedder, String modelId) {
        this.describer = describer;
        this.embedder = embedder;
        this.modelId = modelId;
    }

    private record Pending(DocumentKey key, String description, String origin, String text, String hash, boolean embed) {
    }

    private static boolean isDescriberOrigin(String origin) {
        return DescriptionOrigin.DB_COMMENT.wireName().equals(origin) || DescriptionOrigin.HEURISTIC.wireName().equals(origin);
    }

    Plan plan(Catalog catalog, Map<DocumentKey, StoredDocument> stored, boolean dryRun) {
        return plan(catalog, stored, StoredVectors.NONE, DescriptionEnricher.Enrichment.NONE, dryRun);
    }

    /**
     * @param vectors    reads stored vectors: a text to embed that another document of the source already has
     *                   (a schema copied from another, a column moved) takes that document's vector
     * @param enrichment descriptions that outrank the offline describer's (not a database comment)
     */
    Plan plan(Catalog catalog, Map<DocumentKey, StoredDocument> stored, StoredVectors vectors,
              DescriptionEnricher.Enrichment enrichment, boolean dryRun) {
        Map<DocumentKey, Description> enriched = enrichment.descriptions();
        long t0 = System.nanoTime();
        List<Pending> pending = new ArrayList<>();
        for (TableDocuments table : describer.describe(catalog)) {
            DocumentKey tableKey = DocumentKey.table(table.table());
            boolean stale = enrichment.stale().contains(table.table());
            consider(pending, tableKey, table.description(), table.tableText(), stored, enriched.get(tableKey), stale);
            for (TableDocuments.ColumnDocument column : table.columns()) {
                DocumentKey key = DocumentKey.column(table.table(), column.column());
                consider(pending, key, column.description(), column.text(), stored, enriched.get(key), stale);
            }
        }
        long describeMillis = (System.nanoTime() - t0) / 1_000_000;
        // Identical texts are embedded once: a vector is a function of the text alone (one text per call), and
        // catalogs repeat themselves (the same table in every tenant's schema, id and created_at everywhere).
        Map<String, byte[]> byText = new LinkedHashMap<>();
        for (Pending p : pending) {
            if (p.embed()) {
                byText.put(p.text(), null);
            }
        }
        int distinct = byText.size();
        long t1 = System.nanoTime();
        int reused = dryRun ? 0 : reuse(pending, stored, byText, vectors);
        List<String> texts = byText.entrySet().stream().filter(e -> e.getValue() == null).map(Map.Entry::getKey).toList();
        if (!dryRun && !texts.isEmpty()) {
            // In slices: a call holds the model until it returns, so Ctrl-C (which closes the model before the JVM
            // exits) waits for one slice, not for the whole catalog.
            Embedder model = embedder.get();
            for (int from = 0; from < texts.size(); from += EMBED_SLICE) {
                List<String> slice = texts.subList(from, Math.min(texts.size(), from + EMBED_SLICE));
                List<float[]> embedded = model.embedPassages(slice);
                for (int i = 0; i < slice.size(); i++) {
                    byText.put(slice.get(i), Vectors.toBytes(embedded.get(i)));
                }
            }
        }
        long embedMillis = (System.nanoTime() - t1) / 1_000_000;
        List<DocumentWrite> writes = new ArrayList<>(pending.size());
        int embedded = 0;
        for (Pending p : pending) {
            byte[] embedding = p.embed() && !dryRun ? byText.get(p.text()) : null;
            embedded += p.embed() ? 1 : 0;
            writes.add(new DocumentWrite(p.key(), p.description(), p.origin(), embedding, p.hash(), modelId));
        }
        return new Plan(writes, pending.size(), embedded, distinct, reused, describeMillis, embedMillis);
    }

    /** Fills {@code byText} from stored documents whose embedded text (by hash) is one to embed; returns how many. */
    private static int reuse(List<Pending> pending, Map<DocumentKey, StoredDocument> stored, Map<String, byte[]> byText,
                             StoredVectors vectors) {
        if (byText.isEmpty() || stored.isEmpty()) {
            return 0;
        }
        Map<String, String> textByHash = new HashMap<>();
        for (Pending p : pending) {
            if (p.embed()) {
                textByHash.putIfAbsent(p.hash(), p.text());
            }
        }
        Map<DocumentKey, String> wanted = new HashMap<>();
        Set<String> asked = new HashSet<>();
        for (Map.Entry<DocumentKey, StoredDocument> e : stored.entrySet()) {
            String hash = e.getValue().embeddedHash();
            if (hash != null && textByHash.containsKey(hash) && asked.add(hash)) {
                wanted.put(e.getKey(), hash);
            }
        }
        if (wanted.isEmpty()) {
            return 0;
        }
        int reused = 0;
        for (Map.Entry<DocumentKey, byte[]> e : vectors.read(wanted).entrySet()) {
            String text = textByHash.get(wanted.get(e.getKey()));
            if (byText.put(text, e.getValue()) == null) {
                reused++;
            }
        }
        return reused;
    }

    private void consider(List<Pending> pending, DocumentKey key, Description offline, String offlineText,
                          Map<DocumentKey, StoredDocument> stored, Description enriched, boolean stale) {
        // Precedence: the database's comment, then an enricher's sentence, then the offline describer's.
        boolean useEnriched = enriched != null && offline.origin() != DescriptionOrigin.DB_COMMENT;
        Description description = useEnriched ? enriched : offline;
        String text = useEnriched ? offlineText + "\n" + enriched.text() : offlineText;
        String hash = Fingerprints.sha256(modelId, text);
        StoredDocument before = stored.get(key);
        boolean embed = before == null || !hash.equals(before.embeddedHash());
        // Descriptions of other origins (an enricher's, the semantic YAML's) outrank this describer's,
        // unless this run's enricher supplies a new one or says its old one went stale.
        boolean ours = before == null || before.origin() == null || isDescriberOrigin(before.origin()) || useEnriched
                || stale && DescriptionOrigin.LLM.wireName().equals(before.origin());
        String describedAs = ours ? description.text() : before.description();
        String origin = ours ? description.origin().wireName() : before.origin();
        boolean redescribe = before == null || !Objects.equals(describedAs, before.description())
                || !Objects.equals(origin, before.origin());
        if (embed || redescribe) {
            pending.add(new Pending(key, describedAs, origin, text, hash, embed));
        }
    }
}
