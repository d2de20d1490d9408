package dev.schemabrain.retrieve.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Locale;
import java.util.Map;

/**
 * The scores of one eval run: recall@k and full@k for k = 1, 3, 5, 10, MRR of the first
 * expected table, and query latency.
 */
public record EvalResult(int n, Map<Integer, Double> recall, Map<Integer, Double> full, double mrr,
                         double latencyP50, double latencyP95) {

    public static final int[] KS = {1, 3, 5, 10};

    /** Exactly the keys `eval --json` documents (docs/cli.md). */
    public String toJson() {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode().put("n", n);
        ObjectNode r = root.putObject("recall");
        ObjectNode f = root.putObject("full");
        for (int k : KS) {
            r.put(String.valueOf(k), round(recall.get(k)));
            f.put(String.valueOf(k), round(full.get(k)));
        }
        root.put("mrr", round(mrr));
        root.putObject("latency_ms").put("p50", round(latencyP50)).put("p95", round(latencyP95));
        return root.toString();
    }

    public String toText() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%d questions%n", n));
        s.append(String.format(Locale.ROOT, "  recall@1 %.3f  @3 %.3f  @5 %.3f  @10 %.3f%n",
                recall.get(1), recall.get(3), recall.get(5), recall.get(10)));
        s.append(String.format(Locale.ROOT, "  full@1   %.3f  @3 %.3f  @5 %.3f  @10 %.3f%n",
                full.get(1), full.get(3), full.get(5), full.get(10)));
        s.append(String.format(Locale.ROOT, "  MRR %.3f   latency p50 %.2f ms, p95 %.2f ms%n", mrr, latencyP50, latencyP95));
        return s.toString();
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }
}
