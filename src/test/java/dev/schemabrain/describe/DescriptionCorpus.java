package dev.schemabrain.describe;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.Bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Every table and column of the sample databases, described by the offline describer: Chinook, Northwind,
 * Pagila, Sakila (their dumps, read as DDL), the demo database, and the Spider dev schemas.
 *
 * <p>The blind hold-out (chosen before any rule was changed, and never looked at while tuning): Chinook and the
 * Spider dev schemas from {@code network_1} on in alphabetical order. The rules were tuned on the rest.
 */
final class DescriptionCorpus {

    /** One described table or column. */
    record Described(String corpus, String where, String text) {
    }

    static final Set<String> HOLDOUT_SPIDER = Set.of("network_1", "orchestra", "pets_1", "poker_player",
            "real_estate_properties", "singer", "student_transcripts_tracking", "tvshow", "voter_1", "world_1", "wta_1");

    private DescriptionCorpus() {
    }

    static List<Described> tuning() throws Exception {
        List<Described> out = new ArrayList<>();
        for (String dump : List.of("northwind.sql", "pagila.sql", "sakila.sql")) {
            out.addAll(describe(dump.replace(".sql", ""), catalog("ddl:" + Bench.sampleDb(dump))));
        }
        Path demo = Files.createTempDirectory("describe-corpus").resolve("demo.sqlite");
        DemoDatabase.ensure(demo);
        out.addAll(describe("demo", catalog("sqlite:" + demo)));
        out.addAll(describe("spider", spider(false)));
        return out;
    }

    static List<Described> holdout() throws Exception {
        List<Described> out = new ArrayList<>(describe("chinook", catalog("ddl:" + Bench.sampleDb("chinook.sql"))));
        out.addAll(describe("spider", spider(true)));
        return out;
    }

    static List<Described> all() throws Exception {
        List<Described> out = new ArrayList<>(tuning());
        out.addAll(holdout());
        return out;
    }

    private static Catalog spider(boolean holdout) throws Exception {
        List<Table> tables = catalog("spider:" + Bench.spiderTables()).tables().stream()
                .filter(t -> HOLDOUT_SPIDER.contains(t.name().schema()) == holdout).toList();
        return new Catalog(tables);
    }

    private static Catalog catalog(String url) throws Exception {
        try (SchemaSource source = Sources.open(SourceUrl.parse(url))) {
            return source.introspect(IntrospectionOptions.withoutSamples());
        }
    }

    static List<Described> describe(String corpus, Catalog catalog) {
        List<Described> out = new ArrayList<>();
        for (TableDocuments t : new OfflineDescriber(new Words(WordVocabulary.get().words())).describe(catalog)) {
            // A database's own comment is its author's text, not the describer's.
            if (t.description().origin() == DescriptionOrigin.HEURISTIC) {
                out.add(new Described(corpus, t.table().toString(), t.description().text()));
            }
            for (TableDocuments.ColumnDocument c : t.columns()) {
                if (c.description().origin() == DescriptionOrigin.HEURISTIC) {
                    out.add(new Described(corpus, t.table() + "." + c.column(), c.description().text()));
                }
            }
        }
        return out;
    }
}
