package dev.schemabrain.describe;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of issue 18's description work, written to target/describe/ (run on its own:
 * {@code mvn -o -B test -Dtest=DescriptionFigures -Dsurefire.failIfNoSpecifiedTests=false}): broken-pattern counts
 * on the tuning set and on the blind hold-out, every description (descriptions.tsv), and a before/after table of
 * 30 descriptions, evenly spaced over the corpus, against the snapshot of the previous describer (offline-2).
 */
class DescriptionFigures {

    private static final String BEFORE = "/describe/offline-2.tsv";
    private static final int ROWS = 30;

    @Test
    void write() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "describe"));
        List<DescriptionCorpus.Described> tuning = DescriptionCorpus.tuning();
        List<DescriptionCorpus.Described> holdout = DescriptionCorpus.holdout();
        StringBuilder counts = new StringBuilder("describer " + OfflineDescriber.VERSION + "\n");
        counts.append(count("tuning ", tuning)).append(count("holdout", holdout));
        Files.writeString(dir.resolve("counts.txt"), counts);
        System.out.print(counts);

        Map<String, String> now = new LinkedHashMap<>();
        StringBuilder tsv = new StringBuilder();
        List<DescriptionCorpus.Described> all = new ArrayList<>(tuning);
        all.addAll(holdout);
        for (DescriptionCorpus.Described d : all) {
            now.put(d.corpus() + "\t" + d.where(), d.text());
            tsv.append(d.corpus()).append('\t').append(d.where()).append('\t').append(d.text()).append('\n');
        }
        Files.writeString(dir.resolve("descriptions.tsv"), tsv);

        try (InputStream in = DescriptionFigures.class.getResourceAsStream(BEFORE)) {
            List<String[]> before = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(l -> l.split("\t", 3)).toList();
            StringBuilder table = new StringBuilder("| column | before (offline-2) | after (" + OfflineDescriber.VERSION + ") |\n|---|---|---|\n");
            for (int i = 0; i < ROWS; i++) {
                String[] row = before.get(i * before.size() / ROWS);
                table.append("| ").append(row[1]).append(" | ").append(row[2]).append(" | ")
                        .append(now.getOrDefault(row[0] + "\t" + row[1], "(database comment)")).append(" |\n");
            }
            Files.writeString(dir.resolve("before-after.md"), table);
            System.out.print(table);
        }
    }

    private static String count(String name, List<DescriptionCorpus.Described> corpus) {
        int broken = 0;
        Map<String, Integer> byKind = new LinkedHashMap<>();
        for (DescriptionCorpus.Described d : corpus) {
            List<String> problems = BrokenPatterns.problems(d.where(), d.text());
            broken += problems.isEmpty() ? 0 : 1;
            problems.forEach(p -> byKind.merge(p.substring(0, p.indexOf(':')), 1, Integer::sum));
        }
        return name + ": " + broken + " of " + corpus.size() + " descriptions broken " + byKind + "\n";
    }
}
