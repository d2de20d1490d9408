package dev.schemabrain.retrieve;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.store.DocumentKey;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Table retrieval. Three signals, each min-max normalized over the candidate tables:
 * BM25 over one document per table (its sentence and every column sentence), the best cosine between
 * the question and the table's column vectors, and the cosine to the table's own vector; fused as (with
 * bge-small's {@link FusionWeights}) {@code 0.5·lexical + 0.5·column + 0.8·table}, then a table gains 0.3 × its best
 * foreign-key neighbour's score (the tables a question joins come up together) and 0.25 × the best score in its
 * schema (a coherent schema beats scattered matches when many databases are searched at once). When the question
 * names a value, tables of its holder's schema far from the holder by foreign keys lose a little ({@link ValueDistance}).
 * <p>
 * The displayed score is the fused score relative to the top one times the best absolute match
 * quality among the hits (the share of the question's words the table contains, and how high its cosine is), so it
 * lies in [0, 1] and a question nothing answers well scores low. The weights are the embedding model's own
 * ({@link FusionWeights}); nothing is specific to any schema.
 * <p>
 * Modes: {@code embedding} is the seed's baseline (max cosine over column vectors); {@code keyword}
 * is BM25 with the same neighbour and schema terms. Without vectors (or a query model) the hybrid
 * works as {@code keyword}.
 */
public final class HybridRetriever implements TableRetriever {

    private static final Logger LOG = LoggerFactory.getLogger(HybridRetriever.class);

    /** Which signals rank. */
    public enum Mode {
        HYBRID, EMBEDDING, KEYWORD;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final double COVERAGE_SHARE = 0.25;
    /** The match quality a named value vouches for on its own (a phrase; a single word scales it down). */
    static final double VALUE_QUALITY = 0.6;
    /** The confidence is the best match quality among this many top tables, whatever the limit. */
    static final int CONFIDENCE_WINDOW = 5;
    /** With no evidence at all the ranked list is still returned, its scores scaled by this floor (confidence LOW). */
    static final double NO_EVIDENCE = 0.05;
    /** Above this many candidate tables only the best by table cosine or BM25 have their columns scanned. */
    static final int PREFILTER = 1000;
    /** With the table graph: how many nearest tables it is asked for (its search beam), as many as BM25 adds. */
    public static final int GRAPH_CANDIDATES = PREFILTER / 2;
    /**
     * With the table graph, the schemas and neighbours of this many best tables by cosine (and by BM25), or of as
     * many as the search returns, are scored exactly.
     */
    static final int LEADERS = 10;
    /** The beam of the search for the lowest cosine (only its value is used, to scale the table signal). */
    static final int FAR_BEAM = 100;
    /** Question words that never name data (as the English analyzer stems them). */
    static final Set<String> QUESTION_WORDS = Set.of("how", "mani", "much", "what", "which", "who", "whom",
            "whose", "where", "when", "why", "do", "doe", "did", "we", "you", "i", "have", "ha", "had", "list", "show",
            "give", "find", "return", "tell", "me", "our", "all", "each", "everi", "ani", "some", "can", "could",
            "would", "should", "get", "also", "than", "those");

    private final Mode mode;
    private final FusionWeights w;
    private final List<Table> tables;
    private final List<TableDocuments> documents;
    private final LexicalIndex lexical;
    private final Function<String, float[]> queryEmbedder;
    /** Turned off for good when the questions' embeddings do not fit the store's vectors (another model). */
    private volatile boolean dense;
    private final VectorIndex vectors;
    private final int[][] neighbours;
    /** The tables each table's foreign keys point at. */
    private final int[][] references;
    private final Map<String, int[]> bySchema = new HashMap<>();
    /** Each table's schema as a small number, so per-schema sums need no string hashing per query. */
    private final int[] schemaOf;
    private final int schemaCount;
    private final int[] all;
    private final Map<Integer, Set<String>> termsOfTable = new ConcurrentHashMap<>();
    private final ValueIndex values;
    private final ValueDistance valueDistance;
    /** Each table's own name as the lexical index analyzes it (not its columns'). */
    private final List<Set<String>> tableNameTerms;
    private final JoinCompletion joinCompletion;
    /** Per table, the column holding its money, or -1 ({@link MoneyWords}). */
    private final int[] moneyColumn;
    /**
     * The money words as the lexical index stems them, less those the catalog's own text holds: where the schema says
     * "sales" (a job title, a view's name), BM25 already finds it; the boost bridges only the words it does not.
     */
    private final Set<String> moneyTerms;
    /** Off: on Spider dev and the golden sets it changed no figure (docs/architecture.md, Retrieval). */
    private volatile boolean completeJoins;

    /**
     * @param documents     one per table of {@code catalog}, in the catalog's order
     * @param vectors       stored vectors by document; missing ones count as no similarity
     * @param queryEmbedder embeds a question; null when no model is available
     */
    public HybridRetriever(Mode mode, Catalog catalog, List<TableDocuments> documents, Map<DocumentKey, float[]> vectors,
                           Function<String, float[]> queryEmbedder) {
        this(mode, catalog, documents, VectorIndex.of(catalog.tables(), vectors), queryEmbedder);
    }

    /** With the weights of the embedder this process uses ({@link Embedders#MODEL_ID}). */
    public HybridRetriever(Mode mode, Catalog catalog, List<TableDocuments> documents, VectorIndex vectors,
                           Function<String, float[]> queryEmbedder) {
        this(mode, catalog, documents, vectors, queryEmbedder, FusionWeights.forModel(Embedders.MODEL_ID));
    }

    /**
     * @param vectors the vectors of {@code catalog}'s tables and columns, in its order (one index can serve every
     *                mode of a catalog)
     * @param weights the fusion weights of the model that embedded them
     */
    public HybridRetriever(Mode mode, Catalog catalog, List<TableDocuments> documents, VectorIndex vectors,
                           Function<String, float[]> queryEmbedder, FusionWeights weights) {
        this.mode = mode;
        this.w = weights;
        this.tables = catalog.tables();
        this.documents = List.copyOf(documents);
        if (documents.size() != tables.size()) {
            throw new IllegalArgumentException("one document per table is needed");
        }
        this.lexical = new LexicalIndex(documents.stream().map(TableDocuments::lexicalText).toList(),
                tables.stream().map(HybridRetriever::ownNames).toList());
        int n = tables.size();
        this.values = new ValueIndex(tables, tables.stream().map(HybridRetriever::nameWords).toList());
        this.tableNameTerms = tables.stream()
                .map(t -> Set.copyOf(lexical.analyze(String.join(" ", Words.pieces(t.name().table()))))).toList();
        Map<QualifiedName, Integer> position = new HashMap<>();
        for (int i = 0; i < n; i++) {
            position.put(tables.get(i).name(), i);
            bySchema.computeIfAbsent(tables.get(i).name().schema(), k -> new int[0]);
        }
        schemaOf = new int[n];
        Map<String, Integer> schemaIds = new HashMap<>();
        for (int i = 0; i < n; i++) {
            schemaOf[i] = schemaIds.computeIfAbsent(tables.get(i).name().schema(), k -> schemaIds.size());
        }
        schemaCount = schemaIds.size();
        for (String schema : bySchema.keySet()) {
            int id = schemaIds.get(schema);
            bySchema.put(schema, IntStream.range(0, n).filter(i -> schemaOf[i] == id).toArray());
        }
        all = IntStream.range(0, n).toArray();
        neighbours = new int[n][];
        List<Set<Integer>> links = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            links.add(new LinkedHashSet<>());
        }
        for (int i = 0; i < n; i++) {
            for (ForeignKey fk : tables.get(i).foreignKeys()) {
                Integer j = position.get(fk.target());
                if (j != null && j != i) {
                    links.get(i).add(j);
                    links.get(j).add(i);
                }
            }
        }
        references = new int[n][];
        for (int i = 0; i < n; i++) {
            references[i] = tables.get(i).foreignKeys().stream().map(fk -> position.get(fk.target()))
                    .filter(j -> j != null).mapToInt(Integer::intValue).filter(j -> j != -1).distinct().toArray();
        }
        for (int i = 0; i < n; i++) {
            neighbours[i] = links.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        moneyColumn = tables.stream().mapToInt(MoneyWords::moneyColumn).toArray();
        moneyTerms = lexical.analyze(MoneyWords.WORDS).stream().filter(w -> !lexical.holds(w)).collect(Collectors.toUnmodifiableSet());
        valueDistance = new ValueDistance(neighbours, schemaOf, weights.twoSteps(), weights.far());
        joinCompletion = new JoinCompletion(neighbours);
        this.dense = vectors.dimension() > 0 && queryEmbedder != null && mode != Mode.KEYWORD;
        this.queryEmbedder = queryEmbedder;
        this.vectors = vectors;
    }

    /** Turns join completion on or off, for the eval that decides whether it stays off ({@link JoinCompletion}). */
    void completeJoins(boolean on) {
        completeJoins = on;
    }

    /** Whether vectors take part (a model and stored vectors, and not keyword mode). */
    public boolean dense() {
        return dense;
    }

    /**
     * Runs up to {@code searches} searches over the catalog's own table names, for at most {@code maxMillis}, so
     * the JIT has compiled the ranking path before the first caller is timed or served.
     */
    public void warmUp(int searches, long maxMillis) {
        warmUp(searches, maxMillis, () -> { });
    }

    /** As above, running {@code between} before each search (a server's warm-up gives way to its callers there). */
    public void warmUp(int searches, long maxMillis, Runnable between) {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        for (int i = 0; i < searches && !tables.isEmpty() && System.nanoTime() < deadline; i++) {
            between.run();
            search(tables.get(i % tables.size()).name().table().replace('_', ' '), 10, Optional.empty());
        }
    }

    @Override
    public List<TableHit> search(String query, int limit, Optional<String> schema) {
        int[] candidates = schema.map(s -> bySchema.getOrDefault(s, new int[0])).orElse(all);
        if (candidates.length == 0 || limit <= 0) {
            return List.of();
        }
        if (query.strip().equals("*")) {
            return Arrays.stream(candidates).limit(limit)
                    .mapToObj(i -> new TableHit(tables.get(i), 1.0, null, null, List.of())).toList();
        }
        int n = candidates.length;
        // The question's embedding (the longest single step) runs here while BM25 and the value lookup run on a
        // second core, when there is one (Helper).
        Callable<Lexical> lexicalWork = () -> new Lexical(lexical.scores(query),
                mode == Mode.EMBEDDING && dense ? null : valueMatches(candidates, query));
        FutureTask<Lexical> lexicalPart = dense ? Helper.fork(lexicalWork) : new FutureTask<>(lexicalWork);
        float[] q = dense ? queryEmbedder.apply(query) : null;
        if (q != null && q.length != vectors.dimension()) {
            // The int8 scans would compare the first components only and rank silently wrong: keywords only, said once.
            Helper.join(lexicalPart);
            if (dense) {
                dense = false;
                LOG.warn("the store's vectors have {} dimensions and the embedding model gives {}: searching by keywords"
                        + " only; index the store again with the embedder this process uses", vectors.dimension(), q.length);
            }
            return search(query, limit, schema);
        }
        Lexical found = Helper.join(lexicalPart);
        double[] lex = new double[n];
        for (int k = 0; k < n; k++) {
            lex[k] = found.bm25()[candidates[k]];
        }
        double[] tab = new double[n];
        double[] col = new double[n];
        int[] bestColumn = new int[n];
        Arrays.fill(bestColumn, -1);
        if (dense) {
            scanColumns(q, candidates, lex, tab, col, bestColumn, limit);
        }
        List<String> terms = questionTerms(query);
        if (mode == Mode.EMBEDDING && dense) {
            return rankByColumns(candidates, col, bestColumn, terms, limit);
        }
        return rankFused(candidates, lex, tab, col, bestColumn, terms, found.values(),
                terms.stream().anyMatch(moneyTerms::contains), limit);
    }

    /** BM25 per table of the catalog, and per candidate the strongest value the question names (null if unused). */
    private record Lexical(float[] bm25, ValueIndex.Match[] values) {
    }

    /** Per candidate, the strongest value the question names in that table, or null. */
    private ValueIndex.Match[] valueMatches(int[] candidates, String query) {
        ValueIndex.Match[] best = new ValueIndex.Match[candidates.length];
        List<ValueIndex.Match> matches = values.match(query);
        if (matches.isEmpty()) {
            return best;
        }
        Map<Integer, Integer> at = new HashMap<>();
        for (int k = 0; k < candidates.length; k++) {
            at.put(candidates[k], k);
        }
        for (ValueIndex.Match m : matches) {
            Integer k = at.get(m.holder().table());
            if (k != null && (best[k] == null || m.words() > best[k].words())) {
                best[k] = m;
            }
        }
        return best;
    }

    private double valueStrength(ValueIndex.Match match) {
        return match == null ? 0 : match.words() >= 2 ? 1 : w.oneWordValue();
    }

    /** A table's own name and its columns' names as words, for the lexical own-name field. */
    private static String ownNames(Table table) {
        StringBuilder out = new StringBuilder(String.join(" ", Words.pieces(table.name().table())));
        table.columns().forEach(c -> out.append(' ').append(String.join(" ", Words.pieces(c.name()))));
        return out.toString();
    }

    /** The words of a table's own name and its columns' names, as the value index splits them. */
    private static Set<String> nameWords(Table table) {
        Set<String> words = new HashSet<>();
        words.addAll(ValueIndex.words(String.join(" ", Words.pieces(table.name().table()))));
        table.columns().forEach(c -> words.addAll(ValueIndex.words(String.join(" ", Words.pieces(c.name())))));
        return words;
    }

    /**
     * The table cosine and the best column cosine per candidate; at scale the columns only of the best tables by
     * table cosine or BM25. Searching the whole of a catalog with a table graph ({@link VectorIndex}), the best
     * tables by cosine come from the graph and only they and BM25's best are scored exactly; the others get the
     * lowest table cosine scored, as unscanned tables get the lowest column cosine.
     */
    private void scanColumns(float[] q, int[] candidates, double[] lex, double[] tab, double[] col, int[] bestColumn,
                             int limit) {
        int n = candidates.length;
        Optional<int[]> near = candidates == all && n > PREFILTER ? vectors.nearestTables(q, GRAPH_CANDIDATES) : Optional.empty();
        int[] scan;
        if (near.isPresent()) {
            // Candidates are all tables here: position k is table k.
            boolean[] chosen = top(lex, PREFILTER / 2);
            for (int t : near.get()) {
                chosen[t] = true;
            }
            scan = IntStream.range(0, n).filter(k -> chosen[k]).toArray();
            Arrays.fill(tab, Double.NaN);
            for (int k : scan) {
                tab[k] = vectors.table(k, q);
            }
            // The schema and neighbour terms let the tables around the best ones rank on their own cosine: score
            // those exactly too, for the schemas and foreign-key neighbours of the best few by cosine and by BM25.
            int lead = Math.max(LEADERS, limit);
            int[] leaders = IntStream.concat(Arrays.stream(near.get()).limit(lead),
                    Arrays.stream(scan).boxed().sorted(Comparator.comparingDouble(k -> -lex[k])).limit(lead)
                            .mapToInt(Integer::intValue)).distinct().toArray();
            for (int leader : leaders) {
                for (int k : bySchema.get(tables.get(leader).name().schema())) {
                    scoreTable(k, q, tab);
                }
                for (int k : neighbours[leader]) {
                    scoreTable(k, q, tab);
                }
            }
            // The rest rank below every scored table: the lowest cosine of all (the graph's nearest to -q).
            float[] away = new float[q.length];
            for (int j = 0; j < q.length; j++) {
                away[j] = -q[j];
            }
            double lowest = Double.MAX_VALUE;
            for (int k : vectors.nearestTables(away, LEADERS, FAR_BEAM).orElse(new int[0])) {
                lowest = Math.min(lowest, scoreTable(k, q, tab));
            }
            for (int k = 0; k < n; k++) {
                lowest = Double.isNaN(tab[k]) ? lowest : Math.min(lowest, tab[k]);
            }
            for (int k = 0; k < n; k++) {
                if (Double.isNaN(tab[k])) {
                    tab[k] = lowest;
                }
            }
        } else {
            Helper.forEach(n, n, k -> tab[k] = vectors.table(candidates[k], q));
            scan = n > PREFILTER ? union(top(tab, PREFILTER / 2), top(lex, PREFILTER / 2), n) : IntStream.range(0, n).toArray();
        }
        Arrays.fill(col, Double.NaN);
        long columnScores = 0;
        for (int k : scan) {
            columnScores += vectors.columnCount(candidates[k]);
        }
        int[] scanned = scan;
        Helper.forEach(scan.length, columnScores, i -> {
            int k = scanned[i];
            int t = candidates[k];
            double best = -2;
            for (int c = 0, m = vectors.columnCount(t); c < m; c++) {
                double s = vectors.column(t, c, q);
                if (s > best) {
                    best = s;
                    bestColumn[k] = c;
                }
            }
            col[k] = best == -2 ? 0 : best;
        });
        double floor = Double.MAX_VALUE;
        for (int k : scan) {
            floor = Math.min(floor, col[k]);
        }
        // Tables not scanned get the lowest column score seen: they rank on their other signals.
        for (int k = 0; k < n; k++) {
            if (Double.isNaN(col[k])) {
                col[k] = floor;
            }
        }
    }

    private List<TableHit> rankFused(int[] candidates, double[] lex, double[] tab, double[] col, int[] bestColumn,
                                     List<String> terms, ValueIndex.Match[] valued, boolean money, int limit) {
        int n = candidates.length;
        double[] fused = new double[n];
        double[] l = minmax(lex);
        if (dense) {
            double[] c = minmax(col);
            double[] t = minmax(tab);
            for (int k = 0; k < n; k++) {
                fused[k] = w.lexical() * l[k] + w.column() * c[k] + w.table() * t[k];
            }
        } else {
            fused = l;
        }
        double[] valueOf = new double[tables.size()];
        for (int k = 0; k < n; k++) {
            valueOf[candidates[k]] = valueStrength(valued[k]);
        }
        for (int k = 0; k < n; k++) {
            double referred = 0;
            for (int j : references[candidates[k]]) {
                referred = Math.max(referred, valueOf[j]);
            }
            fused[k] += w.value() * valueOf[candidates[k]] + w.valueReferrer() * referred;
            if (money && moneyColumn[candidates[k]] >= 0) {
                fused[k] += w.money();
                bestColumn[k] = moneyColumn[candidates[k]];
            }
        }
        int[] at = new int[tables.size()];
        Arrays.fill(at, -1);
        for (int k = 0; k < n; k++) {
            at[candidates[k]] = k;
        }
        double[] score = new double[n];
        for (int k = 0; k < n; k++) {
            double neighbour = 0;
            for (int j : neighbours[candidates[k]]) {
                if (at[j] >= 0) {
                    neighbour = Math.max(neighbour, fused[at[j]]);
                }
            }
            score[k] = fused[k] + w.neighbour() * neighbour;
        }
        double[] bestInSchema = new double[schemaCount];
        Arrays.fill(bestInSchema, -Double.MAX_VALUE);
        for (int k = 0; k < n; k++) {
            int schemaId = schemaOf[candidates[k]];
            bestInSchema[schemaId] = Math.max(bestInSchema[schemaId], score[k]);
        }
        for (int k = 0; k < n; k++) {
            score[k] += w.schema() * bestInSchema[schemaOf[candidates[k]]];
        }
        boolean[] holds = new boolean[n];
        for (int k = 0; k < n; k++) {
            holds[k] = valued[k] != null;
        }
        double[] far = valueDistance.penalties(candidates, holds, at);
        for (int k = 0; far != null && k < n; k++) {
            // A table the question names by its own name keeps its place: that is stronger evidence than a
            // value's neighbourhood ("music genres" names a playlist called Music, and the genre table).
            if (terms.stream().noneMatch(tableNameTerms.get(candidates[k])::contains)) {
                score[k] -= far[k];
            }
        }
        int[] window = best(candidates, score, Math.max(limit, CONFIDENCE_WINDOW));
        // How well the question is answered at all: the best match quality among the top few tables, so a weak top
        // table above a strong second one cannot blank the answer, and a table's score does not depend on the limit.
        double confidence = 0;
        for (int r = 0; r < Math.min(CONFIDENCE_WINDOW, window.length); r++) {
            int k = window[r];
            double quality = matchQuality(terms, candidates[k], col[k], tab[k], money && moneyColumn[candidates[k]] >= 0);
            confidence = Math.max(confidence, Math.max(quality, VALUE_QUALITY * valueStrength(valued[k])));
        }
        int[] order = Arrays.copyOf(window, Math.min(limit, window.length));
        if (completeJoins) {
            order = joinCompletion.complete(order, candidates, at, limit);
        }
        int top = order[0];
        int shown = order.length;
        // Never empty while there are tables: with no evidence the ranking is still the best guess, shown as
        // such (scores under the floor, so confidence LOW) rather than leaving the agent with nothing.
        confidence = Math.max(confidence, NO_EVIDENCE);
        List<TableHit> hits = new ArrayList<>();
        for (int r = 0; r < shown; r++) {
            int k = order[r];
            double relative = score[top] > 0 ? Math.max(0, score[k]) / score[top] : 0;
            double display = clamp(relative * confidence);
            hits.add(hit(candidates[k], display, bestColumn[k], terms, valued[k]));
        }
        return hits;
    }

    /** The seed's retriever: max cosine over a table's column vectors; tables scoring ≤ 0 dropped. */
    private List<TableHit> rankByColumns(int[] candidates, double[] col, int[] bestColumn, List<String> terms, int limit) {
        int[] order = best(candidates, col, limit);
        List<TableHit> hits = new ArrayList<>();
        for (int r = 0; r < order.length; r++) {
            int k = order[r];
            if (col[k] <= 0) {
                break;
            }
            hits.add(hit(candidates[k], clamp(col[k]), bestColumn[k], terms, null));
        }
        return hits;
    }

    private TableHit hit(int t, double score, int bestColumn, List<String> terms, ValueIndex.Match value) {
        Table table = tables.get(t);
        int c = value != null ? value.holder().column() : bestColumn >= 0 ? bestColumn : bestColumnByWords(t, terms);
        Column column = c >= 0 ? table.columns().get(c) : null;
        String description = c >= 0 ? documents.get(t).columns().get(c).description().text() : null;
        Set<String> own = termsOf(t);
        TableHit.MatchedValue matched = value == null ? null
                : new TableHit.MatchedValue(table.columns().get(value.holder().column()).name(), value.holder().value());
        return new TableHit(table, score, column, description, terms.stream().filter(own::contains).toList(), matched);
    }

    /** Without vectors: the column whose sentence shares most of the question's words. */
    private int bestColumnByWords(int t, List<String> terms) {
        int best = -1;
        long most = 0;
        List<TableDocuments.ColumnDocument> columns = documents.get(t).columns();
        for (int c = 0; c < columns.size(); c++) {
            Set<String> words = new HashSet<>(lexical.analyze(columns.get(c).column() + " " + columns.get(c).description().text()));
            long shared = terms.stream().filter(words::contains).count();
            if (shared > most) {
                most = shared;
                best = c;
            }
        }
        return best;
    }

    private List<String> questionTerms(String query) {
        List<String> terms = new ArrayList<>(new LinkedHashSet<>(lexical.analyze(query)));
        terms.removeIf(QUESTION_WORDS::contains);
        return terms;
    }

    /** Absolute match quality in [0, 1]: the share of the question's words a table has and, with vectors, how high its cosine is. */
    private double matchQuality(List<String> terms, int t, double col, double tab, boolean holdsAskedMoney) {
        double coverage = coverage(terms, t, holdsAskedMoney);
        return dense
                ? COVERAGE_SHARE * coverage + (1 - COVERAGE_SHARE) * clamp((Math.max(col, tab) - w.cosineLow()) / (w.cosineHigh() - w.cosineLow()))
                : coverage;
    }

    /** Share of the question's words found in a table's names and descriptions. */
    private double coverage(List<String> terms, int t, boolean holdsAskedMoney) {
        if (terms.isEmpty()) {
            return 0;
        }
        Set<String> own = termsOf(t);
        return terms.stream().filter(w -> own.contains(w) || holdsAskedMoney && moneyTerms.contains(w)).count()
                / (double) terms.size();
    }

    private Set<String> termsOf(int t) {
        return termsOfTable.computeIfAbsent(t, k -> new HashSet<>(lexical.analyze(
                String.join(" ", Words.pieces(tables.get(k).name().table())) + " "
                        + documents.get(k).lexicalText())));
    }

    /**
     * The positions of the {@code limit} best scores, best first, ties by qualified name. Only scores at
     * or above the limit-th largest (found by selection) are sorted: at 10,000 tables a full sort costs more than the rest.
     */
    private int[] best(int[] candidates, double[] score, int limit) {
        int n = candidates.length;
        double floor = -Double.MAX_VALUE;
        if (n > limit) {
            floor = kthLargest(score, limit);
        }
        List<Integer> chosen = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (score[k] >= floor) {
                chosen.add(k);
            }
        }
        chosen.sort(Comparator.<Integer>comparingDouble(k -> -score[k]).thenComparing(k -> tables.get(candidates[k]).name()));
        return chosen.stream().limit(limit).mapToInt(Integer::intValue).toArray();
    }

    static double[] minmax(double[] values) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (double v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double[] out = new double[values.length];
        if (max > min) {
            for (int i = 0; i < values.length; i++) {
                out[i] = (values[i] - min) / (max - min);
            }
        }
        return out;
    }

    /** Marks the positions of the {@code k} largest values; ties at the boundary go to the lower positions. */
    private static boolean[] top(double[] values, int k) {
        double floor = kthLargest(values, Math.min(k, values.length));
        boolean[] marked = new boolean[values.length];
        int left = k;
        for (int i = 0; i < values.length; i++) {
            if (values[i] > floor) {
                marked[i] = true;
                left--;
            }
        }
        for (int i = 0; i < values.length && left > 0; i++) {
            if (values[i] == floor) {
                marked[i] = true;
                left--;
            }
        }
        return marked;
    }

    private double scoreTable(int k, float[] q, double[] tab) {
        if (Double.isNaN(tab[k])) {
            tab[k] = vectors.table(k, q);
        }
        return tab[k];
    }

    /** The {@code k}-th largest value (1-based), by selection rather than a full sort: O(n) on average. */
    static double kthLargest(double[] values, int k) {
        double[] a = values.clone();
        int target = a.length - Math.max(1, k);  // its position in ascending order
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            double pivot = a[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (Double.compare(a[i], pivot) < 0) {
                    i++;
                }
                while (Double.compare(a[j], pivot) > 0) {
                    j--;
                }
                if (i <= j) {
                    double swap = a[i];
                    a[i++] = a[j];
                    a[j--] = swap;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                break;
            }
        }
        return a[target];
    }

    private static int[] union(boolean[] a, boolean[] b, int n) {
        return IntStream.range(0, n).filter(i -> a[i] || b[i]).toArray();
    }

    static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
