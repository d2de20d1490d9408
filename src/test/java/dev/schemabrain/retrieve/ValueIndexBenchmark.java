package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.ValuePolicy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The value index at the 100,000-column scale (100 schemas × 100 tables × 10 columns, 5 of them text, each read
 * with the full 200 values per column before the per-store bound): the values kept, their stored size (the JSON of
 * value_index), the index's build time and heap, and the per-question lookup cost. Run with
 * {@code mvn -o -Pbench test -Dtest=ValueIndexBenchmark}; figures go to target/bench/value-index.txt.
 */
@Tag("benchmark")
class ValueIndexBenchmark {

    @Test
    void valueIndexAtTheHundredThousandColumnScale() throws Exception {
        Random random = new Random(20);
        List<Table> tables = new ArrayList<>();
        for (int s = 0; s < 100; s++) {
            for (int t = 0; t < 100; t++) {
                List<Column> columns = new ArrayList<>();
                for (int c = 0; c < 10; c++) {
                    List<String> values = new ArrayList<>();
                    if (c % 2 == 1) {
                        for (int v = 0; v < ValuePolicy.MAX_PER_COLUMN; v++) {
                            values.add("Value " + Integer.toString(random.nextInt(1 << 30), 36) + " " + (char) ('a' + v % 26));
                        }
                    }
                    columns.add(new Column("col_" + c, c + 1, c % 2 == 1 ? "text" : "integer", true, null, null, List.of(), values));
                }
                tables.add(new Table(QualifiedName.of("s" + s, "t" + t), TableKind.TABLE, null, null, columns, List.of(),
                        List.of(), List.of(), null));
            }
        }
        Catalog bounded = ValuePolicy.bounded(new Catalog(tables));
        long kept = bounded.tables().stream().flatMap(t -> t.columns().stream()).mapToLong(c -> c.values().size()).sum();
        long storedBytes = bounded.tables().stream().flatMap(t -> t.columns().stream())
                .mapToLong(c -> ("[\"" + String.join("\",\"", c.values()) + "\"]").getBytes(StandardCharsets.UTF_8).length).sum();
        List<Set<String>> names = bounded.tables().stream().map(t -> Set.of("col")).toList();
        System.gc();
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        long t0 = System.nanoTime();
        ValueIndex index = new ValueIndex(bounded.tables(), names);
        long buildMillis = (System.nanoTime() - t0) / 1_000_000;
        System.gc();
        long heap = rt.totalMemory() - rt.freeMemory() - before;
        String known = bounded.tables().get(4321).columns().get(1).values().get(0);
        int runs = 2000;
        long[] micros = new long[runs];
        int found = 0;
        for (int i = 0; i < runs; i++) {
            String question = "how many orders in the " + (i % 2 == 0 ? known : "unknown place " + i) + " region last year by customer";
            long q0 = System.nanoTime();
            found += index.match(question).isEmpty() ? 0 : 1;
            micros[i] = (System.nanoTime() - q0) / 1000;
        }
        Arrays.sort(micros);
        String figures = String.format(Locale.ROOT,
                "value index, 100,000 columns (50,000 text, %d values read before the bound)%n"
                        + "  values kept %d (bound %d), stored as JSON %.1f MB%n"
                        + "  build %d ms, heap %.1f MB%n"
                        + "  lookup per question p50 %d us, p95 %d us (%d of %d questions named a value)%n",
                50_000L * ValuePolicy.MAX_PER_COLUMN, kept, ValuePolicy.MAX_PER_STORE, storedBytes / 1e6, buildMillis,
                heap / 1e6, micros[runs / 2], micros[runs * 95 / 100], found, runs);
        Path out = Path.of("target", "bench", "value-index.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, figures);
        System.out.print(figures);
        assertTrue(kept <= ValuePolicy.MAX_PER_STORE && found == runs / 2, figures);
    }
}
