package dev.schemabrain.retrieve.eval;

import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.retrieve.TableRetriever;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Scores a retriever against questions. Names compare case-insensitively. */
public final class Evaluation {

    static final int DEPTH = 10;

    private Evaluation() {
    }

    public static EvalResult run(TableRetriever retriever, List<Question> questions, boolean perSchema) {
        Map<Integer, Double> recall = new HashMap<>();
        Map<Integer, Double> full = new HashMap<>();
        for (int k : EvalResult.KS) {
            recall.put(k, 0.0);
            full.put(k, 0.0);
        }
        double mrr = 0;
        double[] millis = new double[questions.size()];
        for (int i = 0; i < questions.size(); i++) {
            Question q = questions.get(i);
            long start = System.nanoTime();
            List<TableHit> hits = retriever.search(q.text(), DEPTH, perSchema ? Optional.of(q.schema()) : Optional.empty());
            millis[i] = (System.nanoTime() - start) / 1e6;
            List<String> ranked = hits.stream().map(h -> lower(h.table().name().toString())).toList();
            List<String> expected = q.expected().stream().map(Evaluation::lower).toList();
            for (int k : EvalResult.KS) {
                List<String> top = ranked.subList(0, Math.min(k, ranked.size()));
                long found = expected.stream().filter(top::contains).count();
                recall.merge(k, (double) found / expected.size(), Double::sum);
                full.merge(k, found == expected.size() ? 1.0 : 0.0, Double::sum);
            }
            for (int r = 0; r < ranked.size(); r++) {
                if (expected.contains(ranked.get(r))) {
                    mrr += 1.0 / (r + 1);
                    break;
                }
            }
        }
        int n = questions.size();
        recall.replaceAll((k, v) -> v / n);
        full.replaceAll((k, v) -> v / n);
        Arrays.sort(millis);
        return new EvalResult(n, recall, full, mrr / n, percentile(millis, 50), percentile(millis, 95));
    }

    static double percentile(double[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(p / 100.0 * sorted.length) - 1))];
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
