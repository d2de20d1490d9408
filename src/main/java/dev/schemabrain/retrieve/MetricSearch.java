package dev.schemabrain.retrieve;

import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Vectors;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Metric;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Metrics ranked for a question in words (find_relevant_metrics), as {@link HybridRetriever} ranks tables: BM25 over
 * one document per metric (its name in words, description, measure, and its entity's name and description) with
 * the metric's own names boosted, and the cosine between the question and the document, each min-max normalized
 * and summed. A metric sharing no word with the question and far from it in meaning is no match. Built once per
 * served catalog: the documents are embedded when it is built, a question once per search.
 */
public final class MetricSearch {

    /** A ranked metric and its score in [0, 1]. */
    public record Hit(Metric metric, double score) {
    }

    static final double LEXICAL = 0.5;
    static final double DENSE = 1.0;
    /** Below this cosine a metric sharing no word with the question is no match. */
    static final double NO_MATCH_COSINE = HybridRetriever.COSINE_LOW;

    private final List<Metric> metrics;
    private final LexicalIndex lexical;
    private final List<Set<String>> terms;
    private final List<float[]> vectors;
    private final Function<String, float[]> queryEmbedder;

    /**
     * @param entities         the entities by name, for their descriptions
     * @param passageEmbedder  embeds the documents, or null (then the search is lexical)
     * @param queryEmbedder    embeds a question, or null (then the search is lexical)
     */
    public MetricSearch(List<Metric> metrics, Map<String, Entity> entities,
                        Function<List<String>, List<float[]>> passageEmbedder, Function<String, float[]> queryEmbedder) {
        this.metrics = List.copyOf(metrics);
        List<String> documents = metrics.stream().map(m -> document(m, entities.get(m.entity()))).toList();
        List<String> names = metrics.stream().map(MetricSearch::ownNames).toList();
        this.lexical = new LexicalIndex(documents, names);
        this.terms = documents.stream().map(d -> (Set<String>) new HashSet<>(lexical.analyze(d))).toList();
        boolean dense = passageEmbedder != null && queryEmbedder != null && !metrics.isEmpty();
        this.vectors = dense ? passageEmbedder.apply(documents) : null;
        this.queryEmbedder = dense ? queryEmbedder : null;
    }

    /** Whether cosines take part (a model was given). */
    public boolean dense() {
        return vectors != null;
    }

    public int size() {
        return metrics.size();
    }

    /** The best {@code limit} metrics for {@code query}, best first; empty when none matches. */
    public List<Hit> search(String query, int limit) {
        int n = metrics.size();
        if (n == 0 || limit <= 0) {
            return List.of();
        }
        List<String> asked = questionTerms(query);
        double[] bm25 = new double[n];
        float[] scores = lexical.scores(String.join(" ", asked));
        for (int i = 0; i < n; i++) {
            bm25[i] = scores[i];
        }
        double[] cosine = new double[n];
        if (vectors != null) {
            float[] q = queryEmbedder.apply(query);
            for (int i = 0; i < n; i++) {
                cosine[i] = Vectors.dot(q, vectors.get(i));
            }
        }
        double[] lex = HybridRetriever.minmax(bm25);
        double[] dense = vectors == null ? new double[n] : HybridRetriever.minmax(cosine);
        double[] fused = new double[n];
        for (int i = 0; i < n; i++) {
            fused[i] = LEXICAL * lex[i] + DENSE * dense[i];
        }
        List<Integer> matches = IntStream.range(0, n)
                .filter(i -> bm25[i] > 0 || (vectors != null && cosine[i] >= NO_MATCH_COSINE)).boxed()
                .sorted(Comparator.<Integer>comparingDouble(i -> -fused[i]).thenComparing(i -> metrics.get(i).name()))
                .limit(limit).toList();
        if (matches.isEmpty()) {
            return List.of();
        }
        double top = fused[matches.get(0)];
        double quality = 0;
        for (int i : matches) {
            quality = Math.max(quality, quality(asked, i, cosine[i]));
        }
        List<Hit> hits = new ArrayList<>();
        for (int i : matches) {
            double relative = top > 0 ? Math.max(0, fused[i]) / top : 0;
            hits.add(new Hit(metrics.get(i), HybridRetriever.clamp(relative * quality)));
        }
        return hits;
    }

    /** How well a metric answers at all: the share of the question's words it holds and, with vectors, its cosine. */
    private double quality(List<String> asked, int i, double cosine) {
        double coverage = asked.isEmpty() ? 0 : asked.stream().filter(terms.get(i)::contains).count() / (double) asked.size();
        if (vectors == null) {
            return coverage;
        }
        double closeness = HybridRetriever.clamp((cosine - HybridRetriever.COSINE_LOW) / (HybridRetriever.COSINE_HIGH - HybridRetriever.COSINE_LOW));
        return HybridRetriever.COVERAGE_SHARE * coverage + (1 - HybridRetriever.COVERAGE_SHARE) * closeness;
    }

    private List<String> questionTerms(String query) {
        List<String> out = new ArrayList<>(new LinkedHashSet<>(lexical.analyze(query)));
        out.removeIf(HybridRetriever.QUESTION_WORDS::contains);
        return out;
    }

    /** The text a metric is found by: its name in words, description and measure, then its entity's. */
    static String document(Metric m, Entity entity) {
        StringBuilder out = new StringBuilder(words(m.name())).append(". ");
        if (m.description() != null && !m.description().isBlank()) {
            out.append(m.description().strip()).append(' ');
        }
        out.append(m.measure().agg().wireName()).append(" of ")
                .append(m.measure().column() != null ? words(m.measure().column())
                        : m.measure().expression() != null ? m.measure().expression().replace('_', ' ') : "rows");
        out.append(". Entity ").append(words(m.entity()));
        if (entity != null && entity.description() != null && !entity.description().isBlank()) {
            out.append(": ").append(entity.description().strip());
        }
        return out.toString();
    }

    /** The metric's own names in words: its name, its entity's and its measure column's. */
    private static String ownNames(Metric m) {
        return words(m.name()) + " " + words(m.entity()) + (m.measure().column() == null ? "" : " " + words(m.measure().column()));
    }

    private static String words(String identifier) {
        return String.join(" ", Words.pieces(identifier));
    }
}
