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
        List<DescriptionCorpus.Described> snapshot = before();
        StringBuilder counts = new StringBuilder("before (offline-2, the snapshot)\n")
                .append(count("tuning ", snapshot.stream().filter(d -> !holdout(d)).toList()))
                .append(count("holdout", snapshot.stream().filter(DescriptionFigures::holdout).toList()))
                .append("now (").append(OfflineDescriber.VERSION).append(")\n")
                .append(count("tuning ", tuning)).append(count("holdout", holdout));
        StringBuilder broken = new StringBuilder();
        for (DescriptionCorpus.Described d : tuning) {
            BrokenPatterns.problems(d.where(), d.text()).forEach(p -> broken.append(d.where()).append('\t').append(p)
                    .append('\t').append(d.text()).append('\n'));
        }
        Files.writeString(dir.resolve("broken-tuning.txt"), broken);
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

        {
            List<DescriptionCorpus.Described> before = snapshot;
            StringBuilder table = new StringBuilder("| column | before (offline-2) | after (" + OfflineDescriber.VERSION + ") |\n|---|---|---|\n");
            for (int i = 0; i < ROWS; i++) {
                DescriptionCorpus.Described row = before.get(i * before.size() / ROWS);
                table.append("| ").append(row.where()).append(" | ").append(row.text()).append(" | ")
                        .append(now.getOrDefault(row.corpus() + "\t" + row.where(), "(database comment)")).append(" |\n");
            }
            Files.writeString(dir.resolve("before-after.md"), table);
            System.out.print(table);
        }
    }

    /** The previous describer's output over the same corpus, in corpus order. */
    private static List<DescriptionCorpus.Described> before() throws Exception {
        try (InputStream in = DescriptionFigures.class.getResourceAsStream(BEFORE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(l -> l.split("\t", 3))
                    .map(r -> new DescriptionCorpus.Described(r[0], r[1], r[2])).toList();
        }
    }

    private static boolean holdout(DescriptionCorpus.Described d) {
        return d.corpus().equals("chinook")
                || d.corpus().equals("spider") && DescriptionCorpus.HOLDOUT_SPIDER.contains(d.where().substring(0, d.where().indexOf('.')));
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
