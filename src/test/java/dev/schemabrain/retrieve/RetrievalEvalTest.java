package dev.schemabrain.retrieve;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tools.ServedCatalog;
import dev.schemabrain.mcp.tools.StoreCatalogProvider;
import dev.schemabrain.retrieve.eval.EvalResult;
import dev.schemabrain.retrieve.eval.Evaluation;
import dev.schemabrain.retrieve.eval.QuestionFile;
import dev.schemabrain.source.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.Bench;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table retrieval scored by the eval harness on real stores: Spider dev (20 databases, 1,034
 * questions) against the targets, and the repository's golden sets for the demo database and
 * Chinook. Figures land in target/eval/ for the record.
 */
class RetrievalEvalTest {

    @TempDir
    Path dir;

    private ServedCatalog index(String url) throws Exception {
        SourceUrl source = SourceUrl.parse(url);
        Path store = dir.resolve("store.db");
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().run(source, s, store, false, IndexListener.SILENT);
        }
        return new StoreCatalogProvider(store).current().orElseThrow();
    }

    private static EvalResult eval(ServedCatalog served, HybridRetriever.Mode mode, Path questions, boolean perSchema,
                                   String name) throws Exception {
        HybridRetriever retriever = served.retriever(mode);
        retriever.search("warm up", 1, Optional.empty());
        EvalResult r = Evaluation.run(retriever, QuestionFile.load(questions), perSchema);
        Path out = Path.of("target", "eval", name + "-" + mode.wireName() + (perSchema ? "-per-schema" : "") + ".json");
        Files.createDirectories(out.getParent());
        Files.writeString(out, r.toJson());
        return r;
    }

    @Test
    void spiderDevMeetsThePooledTargetsAndBeatsTheBaselines() throws Exception {
        ServedCatalog spider = index("spider:" + Bench.spiderTables());
        Path questions = Bench.root().resolve("spider/dev_questions.json");
        EvalResult pooled = eval(spider, HybridRetriever.Mode.HYBRID, questions, false, "spider");
        EvalResult perSchema = eval(spider, HybridRetriever.Mode.HYBRID, questions, true, "spider");
        EvalResult seed = eval(spider, HybridRetriever.Mode.EMBEDDING, questions, false, "spider");
        assertTrue(pooled.full().get(5) >= 0.95, pooled.toText());
        assertTrue(pooled.full().get(10) >= 0.98, pooled.toText());
        assertTrue(perSchema.full().get(3) >= 0.98, perSchema.toText());
        assertTrue(pooled.full().get(5) > seed.full().get(5) && pooled.mrr() > seed.mrr(),
                "the hybrid beats the seed's max-cosine: " + pooled.toText() + seed.toText());
        assertTrue(pooled.full().get(5) > 0.874 && perSchema.full().get(3) > 0.954, "and the names-only BM25 baseline");
    }

    @Test
    void demoGoldenSet() throws Exception {
        Path database = dir.resolve("demo.sqlite");
        DemoDatabase.ensure(database);
        ServedCatalog demo = index("sqlite:" + database);
        EvalResult r = eval(demo, HybridRetriever.Mode.HYBRID, Path.of("golden", "demo.json"), false, "demo");
        assertTrue(r.n() >= 25);
        assertTrue(r.full().get(5) >= 0.95 && r.mrr() >= 0.9, r.toText());
    }

    @Test
    void chinookGoldenSet() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        ServedCatalog chinook = index(TestPostgres.url("chinook"));
        EvalResult r = eval(chinook, HybridRetriever.Mode.HYBRID, Path.of("golden", "chinook.json"), false, "chinook");
        assertTrue(r.n() >= 25);
        assertTrue(r.full().get(5) >= 0.9 && r.mrr() >= 0.9, r.toText());
    }
}
