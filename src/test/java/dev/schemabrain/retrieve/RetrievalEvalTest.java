package dev.schemabrain.retrieve;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.retrieve.eval.EvalResult;
import dev.schemabrain.retrieve.eval.Evaluation;
import dev.schemabrain.retrieve.eval.QuestionFile;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.Bench;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        return index(url, "store.db");
    }

    private ServedCatalog index(String url, String storeName) throws Exception {
        SourceUrl source = SourceUrl.parse(url);
        Path store = dir.resolve(storeName);
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
        // Join completion stays off unless it helps: its figures are written beside the others (spider-joins-*).
        spider.retriever().completeJoins(true);
        EvalResult joinsPooled = eval(spider, HybridRetriever.Mode.HYBRID, questions, false, "spider-joins");
        EvalResult joinsPerSchema = eval(spider, HybridRetriever.Mode.HYBRID, questions, true, "spider-joins");
        spider.retriever().completeJoins(false);
        assertAll(() -> assertTrue(pooled.full().get(5) >= 0.95, pooled.toText()),
                () -> assertTrue(pooled.full().get(10) >= 0.98, pooled.toText()),
                () -> assertTrue(perSchema.full().get(3) >= 0.98, perSchema.toText()),
                () -> assertTrue(pooled.full().get(5) > seed.full().get(5) && pooled.mrr() > seed.mrr(),
                        "the hybrid beats the seed's max-cosine: " + pooled.toText() + seed.toText()),
                () -> assertTrue(pooled.full().get(5) > 0.874 && perSchema.full().get(3) > 0.954, "and the names-only BM25 baseline"),
                () -> assertTrue(joinsPooled.full().get(10) >= 0.98 && joinsPerSchema.full().get(3) >= 0.98,
                        "join completion keeps the targets: " + joinsPooled.toText() + joinsPerSchema.toText()));
    }

    @Test
    void demoGoldenSet() throws Exception {
        Path database = dir.resolve("demo.sqlite");
        DemoDatabase.ensure(database);
        ServedCatalog demo = index("sqlite:" + database);
        EvalResult r = eval(demo, HybridRetriever.Mode.HYBRID, Path.of("golden", "demo.json"), false, "demo");
        assertAll(() -> assertTrue(r.n() >= 25),
                () -> assertTrue(r.full().get(5) >= 0.95 && r.mrr() >= 0.9, r.toText()));
    }

    /**
     * The value-heavy sets (questions that name data values, not tables): the tuning set and the blind set written
     * with it and never looked at while tuning. Figures in target/eval/; the target is full@3 ≥ 0.95.
     */
    @Test
    void valueHeavyGoldenSets() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        TestPostgres.loadSample("northwind", "northwind.sql");
        ServedCatalog chinook = index(TestPostgres.url("chinook"), "chinook.db");
        ServedCatalog northwind = index(TestPostgres.url("northwind"), "northwind.db");
        EvalResult[] r = {
                eval(chinook, HybridRetriever.Mode.HYBRID, Path.of("golden", "chinook-values.json"), false, "chinook-values"),
                eval(chinook, HybridRetriever.Mode.HYBRID, Path.of("golden", "chinook-values-blind.json"), false, "chinook-values-blind"),
                eval(northwind, HybridRetriever.Mode.HYBRID, Path.of("golden", "northwind-values.json"), false, "northwind-values"),
                eval(northwind, HybridRetriever.Mode.HYBRID, Path.of("golden", "northwind-values-blind.json"), false, "northwind-values-blind")};
        double tuning = (r[0].full().get(3) * r[0].n() + r[2].full().get(3) * r[2].n()) / (r[0].n() + r[2].n());
        double blind = (r[1].full().get(3) * r[1].n() + r[3].full().get(3) * r[3].n()) / (r[1].n() + r[3].n());
        // Before the value index these sets scored full@3 0.75 over all 44 questions (0.64, 0.88, 0.79, 0.75); with
        // it 0.89 (tuning) and 1.00 (blind); with the value-anchored distance 0.96 and 1.00.
        assertAll(() -> assertTrue(tuning >= 0.95, "full@3 over the tuning value sets " + tuning),
                () -> assertTrue(blind >= 0.9, "full@3 over the blind value sets " + blind),
                () -> assertTrue(Arrays.stream(r).allMatch(x -> x.full().get(10) >= 0.99), "every expected table in the top 10"));
    }

    @Test
    void chinookGoldenSet() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        ServedCatalog chinook = index(TestPostgres.url("chinook"));
        EvalResult r = eval(chinook, HybridRetriever.Mode.HYBRID, Path.of("golden", "chinook.json"), false, "chinook");
        assertAll(() -> assertTrue(r.n() >= 25),
                () -> assertTrue(r.full().get(5) >= 0.9 && r.mrr() >= 0.9, r.toText()));
    }

    /**
     * Money questions ("revenue by store per month") must find the table holding the amounts: Pagila's payment, and
     * a hotel group's charges and settlements (golden/blind/, written before any rule was changed for it). Also a
     * table's score must not depend on how many tables are returned.
     */
    @Test
    void moneyQuestionsFindTheTableHoldingTheAmounts() throws Exception {
        TestPostgres.loadSample("pagila", "pagila-pg15.sql");
        TestPostgres.createDatabase("blind_hotel");
        TestPostgres.psql("blind_hotel", Path.of("golden", "blind", "hotel.sql"));
        ServedCatalog pagila = index(TestPostgres.url("pagila"), "pagila.db");
        ServedCatalog hotel = index(TestPostgres.url("blind_hotel"), "hotel.db");
        EvalResult p = eval(pagila, HybridRetriever.Mode.HYBRID, Path.of("golden", "pagila-money.json"), false, "pagila-money");
        EvalResult h = eval(hotel, HybridRetriever.Mode.HYBRID, Path.of("golden", "blind", "hotel-money.json"), false, "hotel-money-blind");
        System.out.println("pagila money: " + p.toText() + "\nhotel money (blind): " + h.toText());
        for (ServedCatalog served : List.of(pagila, hotel)) {
            HybridRetriever r = served.retriever(HybridRetriever.Mode.HYBRID);
            for (String q : List.of("revenue by store per month", "Which guests spent the most money?", "film", "hotel")) {
                TableHit one = r.search(q, 1, Optional.empty()).get(0);
                for (int limit : new int[] {3, 5, 20}) {
                    TableHit first = r.search(q, limit, Optional.empty()).get(0);
                    assertEquals(one.table().name(), first.table().name(), q);
                    assertEquals(one.score(), first.score(), 1e-12, "the score of " + one.table().name() + " for '" + q
                            + "' at limit 1 and " + limit);
                }
            }
        }
        // Before tables recording money answered money words: full@3 0.67 (Pagila) and 0.64 (hotel, blind).
        assertAll(() -> assertTrue(p.full().get(3) >= 0.83, "pagila money " + p.toText()),
                () -> assertTrue(h.full().get(3) >= 0.78, "hotel money (blind) " + h.toText()));
    }

    /**
     * A blind case: a university's admissions database (golden/blind/admissions.sql, 24 tables) and 44 questions
     * written before any score was seen; no weight was chosen on it. First scores, before any weight was changed
     * (full@3 / full@5 / full@10 / MRR): bge-small 0.818 / 0.955 / 0.977 / 0.977, static 0.841 / 0.932 / 0.977 / 0.966.
     * The floor is the lower first full@5. Figures in target/eval/admissions-blind-*.json.
     */
    @Test
    void admissionsBlindSet() throws Exception {
        TestPostgres.createDatabase("blind_admissions");
        TestPostgres.psql("blind_admissions", Path.of("golden", "blind", "admissions.sql"));
        ServedCatalog admissions = index(TestPostgres.url("blind_admissions"), "admissions.db");
        EvalResult r = eval(admissions, HybridRetriever.Mode.HYBRID, Path.of("golden", "blind", "admissions.json"), false,
                "admissions-blind");
        System.out.println("admissions (blind): " + r.toText());
        assertAll(() -> assertTrue(r.n() >= 40), () -> assertTrue(r.full().get(5) >= 0.93, r.toText()));
    }
}
