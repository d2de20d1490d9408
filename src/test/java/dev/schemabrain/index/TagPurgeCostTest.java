package dev.schemabrain.index;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.SqliteStore;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The purge re-describes from the stored catalog, which must round-trip exactly: tagging one column of
 * Chinook rewrites that column's document only (nothing else is re-described or re-embedded). The time
 * it took goes to target/security/tag-purge-cost.txt, not into an assertion.
 */
class TagPurgeCostTest {

    @TempDir
    Path dir;

    @Test
    void taggingOneColumnRewritesOnlyItsDocument() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        SourceUrl url = SourceUrl.parse(TestPostgres.url("chinook"));
        Path store = dir.resolve("chinook.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        PiiTags.Entry composer = new PiiTags.Entry(QualifiedName.of("public", "track"), "composer",
                PiiTag.of(Set.of(PiiCategory.CONTACT), List.of("operator")), PiiTags.Origin.OPERATOR);
        try (SqliteStore opened = SqliteStore.open(store)) {
            long start = System.nanoTime();
            int rewritten = opened.write(c -> new TagPurge(Embedders::shared, Embedders.MODEL_ID).replace(c, List.of(composer)));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1, rewritten, "only track.composer's sentence quoted its samples");
            Files.createDirectories(Path.of("target", "security"));
            Files.writeString(Path.of("target", "security", "tag-purge-cost.txt"), String.format(Locale.ROOT,
                    "policy tag of one Chinook column: %d document rewritten, %d ms in the write transaction%n", rewritten, millis));
        }
    }
}
