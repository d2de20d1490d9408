package dev.schemabrain.retrieve;

import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.embed.StaticEmbedder;
import dev.schemabrain.embed.Vectors;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Metrics ranked for a question in words (find_relevant_metrics), as {@link HybridRetriever} ranks tables. Four
 * signals: BM25 over one document per metric (what it computes in words, its name, description and its entity's
 * description) with the metric's own names boosted; the cosine between the question and that document plus the best
 * cosine among its parts (the measure in words, the description, the entity's description), so a short question
 * meets a short part a long document dilutes; the aggregation and measure the question asks for ("average", "units
 * sold", "revenue": {@link AggregationWords}); and,
 * for a question bounded in time ("last month", "per week"), whether the metric has a time axis to answer it by.
 * The first two are min-max normalized. A metric sharing no word with the question and far from it in meaning is no
 * match. Built once per served catalog, when the documents are embedded; a question is embedded once per search.
 */
public final class MetricSearch {

    /** A ranked metric and its score in [0, 1]. */
    public record Hit(Metric metric, double score) {
    }

    static final double LEXICAL = 0.5;
    static final double DENSE = 1.0;
    /** Added when the metric aggregates the way the question asks (an average for "average", a count for "how many"). */
    static final double AGGREGATION = 0.3;
    /** Added when the question is bounded in time ("last month", "per week") and the metric has a time axis. */
    static final double DATED = 0.15;
    /**
     * Below this cosine a metric sharing no word with the question is no match: off-topic questions reached at most
     * 0.47 on the golden set's four schemas, its questions' answers at least 0.48.
     */
    static final double NO_MATCH_COSINE = 0.5;
    /** A metric this close to the question matches it fully: the golden set's answers lay between 0.48 and 0.78. */
    static final double FULL_MATCH_COSINE = 0.75;
    /**
     * The two levels for the static embedder, whose cosines spread lower: bge-small's moved to the same percentiles of
     * Spider dev's matching and non-matching tables (0.40 and 0.35 found the same metrics; 0.45 fewer).
     */
    static final double STATIC_NO_MATCH_COSINE = 0.40;
    static final double STATIC_FULL_MATCH_COSINE = 0.73;
    /** How much a grouping word weighs in BM25 against a word of the measure. */
    static final float GROUPING = 0.3f;
    /** A grouping phrase: the two words after "by", "per", "each", "every" or "across". */
    private static final Pattern GROUPED_BY = Pattern.compile("\\b(?:by|per|each|every|across)\\s+([a-z]+(?:\\s+[a-z]+)?)");
    /**
     * A ranking: "top products by units sold", "rank clinics by revenue". The words after its "by" say what is
     * measured; the one or two words before it are the grouping. Not "highest" or "most": "highest revenue by
     * store" names the measure first.
     */
    private static final Pattern RANKED_BY = Pattern.compile(
            "\\b(?:top|bottom|best|worst|rank|ranked|ranking)(?:\\s+\\d+)?\\s+([a-z]+(?:\\s+[a-z]+)?)\\s+(by)\\b");
    private static final String NOT_MEASURED = "us my your they them their it its last past previous next this current";

    private final List<Metric> metrics;
    private final LexicalIndex lexical;
    private final List<Set<String>> terms;
    /** Per metric, the vectors of its document and of its parts (the document first); null without a model. */
    private final List<List<float[]>> vectors;
    private final Function<String, float[]> queryEmbedder;
    /**
     * Question words that never say what to measure, analyzed as the documents are: pronouns, and the words that
     * place a period ("last month", "this year"), which the time grain answers: "last" would meet "last name".
     */
    private final Set<String> notMeasured;
    /** The cosine levels of the embedder this process uses. */
    private final double noMatch = staticModel() ? STATIC_NO_MATCH_COSINE : NO_MATCH_COSINE;
    private final double fullMatch = staticModel() ? STATIC_FULL_MATCH_COSINE : FULL_MATCH_COSINE;

    /**
     * @param entities        the entities by name, for their descriptions
     * @param passageEmbedder embeds the documents, or null (then the search is lexical)
     * @param queryEmbedder   embeds a question, or null (then the search is lexical)
     */
    public MetricSearch(List<Metric> metrics, Map<String, Entity> entities,
                        Function<List<String>, List<float[]>> passageEmbedder, Function<String, float[]> queryEmbedder) {
        this.metrics = List.copyOf(metrics);
        List<List<String>> parts = metrics.stream().map(m -> parts(m, entities.get(m.entity()))).toList();
        List<String> documents = parts.stream().map(p -> p.get(0)).toList();
        this.lexical = new LexicalIndex(documents, metrics.stream().map(MetricSearch::ownNames).toList());
        this.notMeasured = Set.copyOf(lexical.analyze(NOT_MEASURED));
        this.terms = documents.stream().map(d -> (Set<String>) new HashSet<>(lexical.analyze(d))).toList();
        boolean dense = passageEmbedder != null && queryEmbedder != null && !metrics.isEmpty();
        this.vectors = dense ? embed(parts, passageEmbedder) : null;
        this.queryEmbedder = dense ? queryEmbedder : null;
    }

    private static boolean staticModel() {
        return StaticEmbedder.MODEL_ID.equals(Embedders.MODEL_ID);
    }

    /** Each distinct text embedded once: metrics of one entity share its description. */
    private static List<List<float[]>> embed(List<List<String>> parts, Function<List<String>, List<float[]>> passageEmbedder) {
        Map<String, Integer> distinct = new LinkedHashMap<>();
        parts.forEach(p -> p.forEach(text -> distinct.putIfAbsent(text, distinct.size())));
        List<float[]> embedded = passageEmbedder.apply(List.copyOf(distinct.keySet()));
        return parts.stream().map(p -> p.stream().map(text -> embedded.get(distinct.get(text))).toList()).toList();
    }

    /** Whether cosines take part (a model was given). */
    public boolean dense() {
        return vectors != null;
    }

    /** The best {@code limit} metrics for {@code query}, best first; empty when none matches. */
    public List<Hit> search(String query, int limit) {
        int n = metrics.size();
        if (n == 0 || limit <= 0) {
            return List.of();
        }
        List<String> asked = questionTerms(query);
        double[] bm25 = new double[n];
        float[] scores = lexical.scores(String.join(" ", asked), groupedBy(query), GROUPING);
        for (int i = 0; i < n; i++) {
            bm25[i] = scores[i];
        }
        double[] cosine = new double[n];
        double[] meaning = new double[n];
        if (vectors != null) {
            float[] q = queryEmbedder.apply(query);
            for (int i = 0; i < n; i++) {
                cosine[i] = Vectors.dot(q, vectors.get(i).get(0));
                double best = cosine[i];
                for (float[] part : vectors.get(i)) {
                    best = Math.max(best, Vectors.dot(q, part));
                }
                meaning[i] = cosine[i] + best;
            }
        }
        double[] lex = HybridRetriever.minmax(bm25);
        double[] dense = HybridRetriever.minmax(meaning);
        AggregationWords.Ask wanted = AggregationWords.ask(query);
        boolean inTime = AggregationWords.inTime(query);
        Optional<AggregationWords.Shape> shape = AggregationWords.shape(query);
        double[] fused = new double[n];
        for (int i = 0; i < n; i++) {
            fused[i] = LEXICAL * lex[i] + DENSE * dense[i]
                    + AGGREGATION * (fit(wanted, metrics.get(i)) + shapeFit(shape, metrics.get(i)))
                    + (inTime && dated(metrics.get(i)) ? DATED : 0);
        }
        List<Integer> matches = IntStream.range(0, n)
                .filter(i -> bm25[i] > 0 || (vectors != null && cosine[i] >= noMatch)).boxed()
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

    /** Whether the metric can be read by a time grain: its own time axis, or grains it declares. */
    private static boolean dated(Metric m) {
        return m.timeDimension() != null || !m.timeGrains().isEmpty();
    }

    private static double fit(AggregationWords.Ask wanted, Metric m) {
        return m.isSimple() ? wanted.fit(m.measure()) : 0.0;
    }

    /** 1 when the metric has the shape asked for: a ratio for a share, a cumulative metric for a running total. */
    private static double shapeFit(Optional<AggregationWords.Shape> shape, Metric m) {
        return shape.isPresent() && shape.equals(m.kind().accept(SHAPE)) ? 1 : 0;
    }

    /** The shape of question each kind of metric answers, if any. */
    private static final MetricKind.Cases<Optional<AggregationWords.Shape>> SHAPE = MetricKind.Cases.of(
            s -> Optional.empty(), r -> Optional.of(AggregationWords.Shape.SHARE), d -> Optional.empty(),
            c -> Optional.of(AggregationWords.Shape.RUNNING));

    /** How well a metric answers at all: the share of the question's words it holds and, with vectors, its cosine. */
    private double quality(List<String> asked, int i, double cosine) {
        double coverage = asked.isEmpty() ? 0 : asked.stream().filter(terms.get(i)::contains).count() / (double) asked.size();
        if (vectors == null) {
            return coverage;
        }
        double closeness = HybridRetriever.clamp((cosine - noMatch) / (fullMatch - noMatch));
        return HybridRetriever.COVERAGE_SHARE * coverage + (1 - HybridRetriever.COVERAGE_SHARE) * closeness;
    }

    /**
     * The analyzed words that name what the answer is grouped by ("by country", "per clinic", "of each product"):
     * a metric is found by what it measures, and the grouping is a dimension most metrics of the entity share. In a
     * ranking ("top products by units sold") the grouping comes before "by" and the measure after it.
     */
    private Set<String> groupedBy(String query) {
        Set<String> out = new HashSet<>();
        String q = query.toLowerCase(Locale.ROOT);
        Set<Integer> rankedBy = new HashSet<>();
        Matcher r = RANKED_BY.matcher(q);
        while (r.find()) {
            rankedBy.add(r.start(2));
            groupingWords(r.group(1), out);
        }
        Matcher m = GROUPED_BY.matcher(q);
        while (m.find()) {
            if (!rankedBy.contains(m.start())) {
                groupingWords(m.group(1), out);
            }
        }
        return out;
    }

    /** Adds a grouping phrase's analyzed words, up to the first that does not name a thing. */
    private void groupingWords(String phrase, Set<String> out) {
        // The phrase ends at the first word that does not name a thing ("did", "last").
        for (String w : lexical.analyze(phrase)) {
            if (HybridRetriever.QUESTION_WORDS.contains(w) || notMeasured.contains(w)) {
                break;
            }
            out.add(w);
        }
    }

    private List<String> questionTerms(String query) {
        List<String> out = new ArrayList<>(new LinkedHashSet<>(lexical.analyze(query)));
        out.removeIf(HybridRetriever.QUESTION_WORDS::contains);
        out.removeIf(notMeasured::contains);
        return out;
    }

    /**
     * The texts a metric is found by: first its whole document (what it computes in words, such as "total amount
     * cents of invoices", its name, its description and its entity's), then each of those parts alone.
     */
    static List<String> parts(Metric m, Entity entity) {
        String computes = computes(m);
        List<String> parts = new ArrayList<>(List.of(computes));
        if (m.description() != null && !m.description().isBlank()) {
            parts.add(m.description().strip());
        }
        if (entity != null && entity.description() != null && !entity.description().isBlank()) {
            parts.add(entity.description().strip());
        }
        List<String> described = parts.subList(1, parts.size());
        String document = computes + " (" + words(m.name()) + "). " + String.join(" ", described);
        parts.add(0, document.strip());
        return parts;
    }

    /** What the metric computes, in words: a measure's aggregate, or how other metrics are combined. */
    private static String computes(Metric m) {
        return m.kind().accept(new MetricKind.Cases<String>() {
            @Override
            public String simple(MetricKind.Simple s) {
                Measure measure = m.measure();
                return AggregationWords.phrase(measure.agg()) + " "
                        + (measure.column() != null ? words(measure.column())
                        : measure.expression() != null ? measure.expression().replace('_', ' ') : "rows")
                        + " of " + words(m.entity());
            }

            @Override
            public String ratio(MetricKind.Ratio r) {
                return "rate ratio share of " + words(r.numerator()) + " per " + words(r.denominator());
            }

            @Override
            public String derived(MetricKind.Derived d) {
                return d.expression().replace('_', ' ').replaceAll("[-+*/()]", " ") + " of " + words(m.entity());
            }

            @Override
            public String cumulative(MetricKind.Cumulative c) {
                return (c.window() != null ? "trailing " + c.window() + " " + c.windowGrain().wireName()
                        : c.grainToDate() != null ? c.grainToDate().wireName() + " to date" : "running cumulative total")
                        + " " + words(c.metric());
            }
        });
    }

    /** The metric's own names in words: its name, its entity's and its measure column's. */
    private static String ownNames(Metric m) {
        return words(m.name()) + " " + words(m.entity()) + (!m.isSimple() || m.measure().column() == null ? ""
                : " " + words(m.measure().column()));
    }

    private static String words(String identifier) {
        return String.join(" ", Words.pieces(identifier));
    }
}
