package dev.schemabrain.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.IndexResult;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreCopy;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 15's store figures: a 2,000-table / 20,000-column schema indexed into the SQLite store and into a
 * PostgreSQL schema (embedded server, fsync off: the write path, not the disk), the catalog load a serving
 * instance pays at start on each, and store copy between them. Run with
 * {@code mvn -Pbench test -Dtest=StoreBackendBenchmark}; figures go to target/bench/store-backends.txt.
 */
@Tag("benchmark")
class StoreBackendBenchmark {

    static final int SCHEMAS = 20;
    static final int TABLES = 100;
    static final int COLUMNS = 10;

    @TempDir
    Path dir;

    @Test
    void twoThousandTablesOnEachStore() throws Exception {
        Path tables = dir.resolve("tables.json");
        Files.writeString(tables, new ObjectMapper().writeValueAsString(synthetic()));
        SourceUrl url = SourceUrl.parse("spider:" + tables);
        StoreLocation sqlite = StoreLocation.file(dir.resolve("bench.db"));
        StoreLocation pg = Stores.location(TestPostgres.url("postgres") + "?schema=bench_" + ProcessHandle.current().pid(),
                null, null, Map.of());

        List<String> lines = new ArrayList<>();
        lines.add("store backends: " + SCHEMAS * TABLES + " tables, " + SCHEMAS * TABLES * COLUMNS + " columns (spider file,"
                + " offline describer, local embeddings)");
        for (StoreLocation location : List.of(sqlite, pg)) {
            IndexResult r;
            try (SchemaSource source = Sources.open(url)) {
                r = new Indexer().run(url, source, location, false, IndexListener.SILENT);
            }
            assertEquals(SCHEMAS * TABLES * COLUMNS, r.columns());
            long t = System.nanoTime();
            assertTrue(new StoreCatalogProvider(location, () -> q -> null, Optional.empty()).current().isPresent());
            long loadMillis = (System.nanoTime() - t) / 1_000_000;
            lines.add(String.format("%-10s index total %6d ms (store write %5d ms, describe+embed %6d ms); catalog load at serve"
                            + " start %5d ms", location instanceof StoreLocation.SqliteFile ? "sqlite" : "postgresql",
                    r.totalMillis(), r.writeMillis(), r.documents().describeMillis() + r.documents().embedMillis(), loadMillis));
        }
        StoreLocation back = StoreLocation.file(dir.resolve("copy.db"));
        try (Store from = Stores.open(pg); Store to = Stores.openOrCreate(back)) {
            long t = System.nanoTime();
            StoreCopy.Result copied = StoreCopy.copy(from, to, false);
            lines.add(String.format("store copy postgresql -> sqlite: %d rows in %d ms, digest %s", copied.rows(),
                    (System.nanoTime() - t) / 1_000_000, copied.digest().substring(0, 16)));
        }
        Path out = Path.of("target", "bench", "store-backends.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        lines.forEach(System.out::println);
    }

    private static ArrayNode synthetic() {
        ObjectMapper json = new ObjectMapper();
        ArrayNode databases = json.createArrayNode();
        for (int s = 0; s < SCHEMAS; s++) {
            ObjectNode db = databases.addObject();
            db.put("db_id", "domain_" + s);
            ArrayNode tableNames = db.putArray("table_names_original");
            ArrayNode columnNames = db.putArray("column_names_original");
            ArrayNode columnTypes = db.putArray("column_types");
            ArrayNode primaryKeys = db.putArray("primary_keys");
            ArrayNode foreignKeys = db.putArray("foreign_keys");
            columnNames.addArray().add(-1).add("*");
            columnTypes.add("text");
            for (int t = 0; t < TABLES; t++) {
                tableNames.add("entity_" + t);
                int first = columnNames.size();
                for (int c = 0; c < COLUMNS; c++) {
                    columnNames.addArray().add(t).add(c == 0 ? "id" : c == 1 && t > 0 ? "entity_" + (t - 1) + "_id" : "attribute_" + c);
                    columnTypes.add(c == 0 || c == 1 ? "number" : "text");
                }
                primaryKeys.add(first);
                if (t > 0) {
                    foreignKeys.addArray().add(first + 1).add(first - COLUMNS);
                }
            }
        }
        return databases;
    }
}
