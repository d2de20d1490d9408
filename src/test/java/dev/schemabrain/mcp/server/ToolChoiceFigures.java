package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.embed.OnnxEmbedder;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.ToolGroups;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A blind proxy for tool choice, not part of the suite:
 * {@code mvn -B -q test -Dtest=ToolChoiceFigures -Dsurefire.failIfNoSpecifiedTests=false}
 * (optional {@code -Dschemabrain.toolchoice.tools=a,b,c} scores only that subset of tools/list).
 * Ranks the tools of tools/list as served against the 50 questions of bench/toolchoice/questions.tsv
 * (mapped to acceptable first tools before any matcher ran) with BM25, the repository's own embedder
 * (cosine) and their reciprocal rank fusion; prints top-1/top-3, the confusions and the misses, and
 * writes the same to target/toolchoice.json.
 *
 * <p>Measured 2026-11-26 before the tools/list diet (top-1/top-3 of 50): FULL bm25 23/35, embedding 18/33, rrf 25/37;
 * COMPACT bm25 17/32, embedding 21/32, rrf 21/34. The 8-tool core group (19 questions have no acceptable tool in
 * it and count as misses): FULL 11/22, 15/24, 14/25; COMPACT 11/20, 15/25, 16/26.
 *
 * <p>After the diet (published schemas without lengths and strictness, five descriptions pointing at core tools):
 * FULL 23/35, 18/33, 25/37 and COMPACT 17/32, 21/32, 21/34, unchanged. The default core
 * ({@code -Dschemabrain.toolchoice.tools=core}): FULL 11/22, 15/24, 14/25; with stand-ins (a question whose tools
 * are absent accepts what the server's answers point to instead, 3 left with none) 14/30, 19/35, 20/35.
 */
class ToolChoiceFigures {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RRF_K = 60;

    record Question(String id, String text, Set<String> acceptable) {}

    record Tool(String name, String text) {}

    @Test
    void toolChoiceBeforeAndAfter() throws Exception {
        List<Question> questions = questions();
        assertEquals(50, questions.size(), "bench/toolchoice/questions.tsv should hold 50 questions");
        Set<String> subset = subset();
        ObjectNode report = JSON.createObjectNode();
        StringBuilder out = new StringBuilder();
        try (OnnxEmbedder embedder = OnnxEmbedder.load()) {
            for (ToolListing listing : ToolListing.values()) {
                String label = listing.name() + (subset.isEmpty() ? "" : " subset " + subset);
                List<Tool> tools = tools(ToolListSizeTest.served(listing), subset);
                report.set(label, score(label, tools, questions, embedder, out));
                if (!subset.isEmpty()) {
                    // What the served list offers instead: a question whose tools are absent accepts their stand-ins,
                    // the tools the server's answers point to in their place (ToolGroups).
                    Set<String> served = new LinkedHashSet<>();
                    tools.forEach(t -> served.add(t.name()));
                    List<Question> standIns = questions.stream().map(q -> q.acceptable().stream().anyMatch(served::contains) ? q
                            : new Question(q.id(), q.text(), q.acceptable().stream()
                                    .flatMap(a -> ToolGroups.standIn(a, served::contains).stream())
                                    .map(ToolRegistry.Pointer::tool)
                                    .collect(Collectors.toCollection(LinkedHashSet::new)))).toList();
                    report.set(label + " with stand-ins", score(label + " with stand-ins", tools, standIns, embedder, out));
                }
            }
        }
        System.out.println(out);
        Path target = Path.of("target", "toolchoice.json");
        Files.createDirectories(target.getParent());
        JSON.writerWithDefaultPrettyPrinter().writeValue(target.toFile(), report);
    }

    private static ObjectNode score(String label, List<Tool> tools, List<Question> questions, OnnxEmbedder embedder,
                                    StringBuilder out) throws Exception {
        Set<String> present = new LinkedHashSet<>();
        tools.forEach(t -> present.add(t.name()));
        List<float[]> passages = embedder.embedPassages(tools.stream().map(Tool::text).toList());
        Map<String, List<List<String>>> rankings = new LinkedHashMap<>();
        try (Bm25 bm25 = new Bm25(tools)) {
            for (Question q : questions) {
                List<String> lexical = bm25.rank(q.text());
                List<String> embedding = cosineRank(embedder.embedQuery(q.text()), passages, tools);
                rankings.computeIfAbsent("bm25", k -> new ArrayList<>()).add(lexical);
                rankings.computeIfAbsent("embedding", k -> new ArrayList<>()).add(embedding);
                rankings.computeIfAbsent("rrf", k -> new ArrayList<>()).add(rrf(lexical, embedding));
            }
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("tools", tools.size());
        ArrayNode unanswerable = node.putArray("unanswerable");
        for (Question q : questions) {
            if (q.acceptable().stream().noneMatch(present::contains)) {
                unanswerable.add(q.id());
            }
        }
        out.append(String.format("%n== %s: %d tools, %d questions (%d with no acceptable tool listed, counted as misses)%n",
                label, tools.size(), questions.size(), unanswerable.size()));
        out.append(String.format("  %-10s %6s %6s%n", "matcher", "top-1", "top-3"));
        for (Map.Entry<String, List<List<String>>> e : rankings.entrySet()) {
            int top1 = 0;
            int top3 = 0;
            Map<String, Integer> confusion = new HashMap<>();
            ArrayNode misses = JSON.createArrayNode();
            for (int i = 0; i < questions.size(); i++) {
                Question q = questions.get(i);
                List<String> ranked = e.getValue().get(i);
                String first = ranked.isEmpty() ? "(none)" : ranked.get(0);
                if (q.acceptable().contains(first)) {
                    top1++;
                } else {
                    confusion.merge(String.join(",", q.acceptable()) + " -> " + first, 1, Integer::sum);
                    ObjectNode miss = misses.addObject();
                    miss.put("id", q.id()).put("question", q.text()).put("acceptable", String.join(",", q.acceptable()))
                            .put("top3", String.join(",", ranked.subList(0, Math.min(3, ranked.size()))));
                }
                if (ranked.subList(0, Math.min(3, ranked.size())).stream().anyMatch(q.acceptable()::contains)) {
                    top3++;
                }
            }
            out.append(String.format("  %-10s %6d %6d%n", e.getKey(), top1, top3));
            ObjectNode m = node.putObject(e.getKey());
            m.put("top1", top1).put("top3", top3).put("n", questions.size());
            ObjectNode pairs = m.putObject("confusion");
            confusion.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()
                    .thenComparing(Map.Entry.comparingByKey())).forEach(c -> pairs.put(c.getKey(), c.getValue()));
            m.set("misses", misses);
        }
        for (Map.Entry<String, List<List<String>>> e : rankings.entrySet()) {
            JsonNode m = node.path(e.getKey());
            out.append(String.format("  %s confusion (acceptable -> wrong top-1, count):%n", e.getKey()));
            m.path("confusion").fields().forEachRemaining(c ->
                    out.append(String.format("    %2d  %s%n", c.getValue().asInt(), c.getKey())));
            out.append(String.format("  %s misses:%n", e.getKey()));
            for (JsonNode miss : m.path("misses")) {
                out.append(String.format("    %s [%s] top3=%s  %s%n", miss.path("id").asText(),
                        miss.path("acceptable").asText(), miss.path("top3").asText(), miss.path("question").asText()));
            }
        }
        return node;
    }

    /** Each tool's text as the client sees it: name split on _, title, description, input property names and descriptions. */
    static List<Tool> tools(byte[] served, Set<String> subset) throws Exception {
        List<Tool> tools = new ArrayList<>();
        for (JsonNode tool : JSON.readTree(served).path("tools")) {
            String name = tool.path("name").asText();
            if (!subset.isEmpty() && !subset.contains(name)) {
                continue;
            }
            StringBuilder text = new StringBuilder(name.replace('_', ' '));
            append(text, tool.path("title"));
            append(text, tool.path("annotations").path("title"));
            append(text, tool.path("description"));
            tool.path("inputSchema").path("properties").fields().forEachRemaining(p -> {
                text.append(". ").append(p.getKey().replace('_', ' '));
                append(text, p.getValue().path("description"));
            });
            tools.add(new Tool(name, text.toString()));
        }
        return tools;
    }

    private static void append(StringBuilder text, JsonNode value) {
        if (value.isTextual() && !value.asText().isBlank()) {
            text.append(". ").append(value.asText());
        }
    }

    private static List<String> cosineRank(float[] query, List<float[]> passages, List<Tool> tools) {
        Integer[] order = new Integer[tools.size()];
        double[] score = new double[tools.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            score[i] = cosine(query, passages.get(i));
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -score[i]));
        return Arrays.stream(order).map(i -> tools.get(i).name()).toList();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    /** Reciprocal rank fusion; a tool BM25 did not match at all gets only its embedding term. */
    private static List<String> rrf(List<String> lexical, List<String> embedding) {
        Map<String, Double> fused = new HashMap<>();
        for (int i = 0; i < lexical.size(); i++) {
            fused.merge(lexical.get(i), 1.0 / (RRF_K + i + 1), Double::sum);
        }
        for (int i = 0; i < embedding.size(); i++) {
            fused.merge(embedding.get(i), 1.0 / (RRF_K + i + 1), Double::sum);
        }
        return fused.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).map(Map.Entry::getKey).toList();
    }

    /** An in-memory BM25 (Lucene's default similarity) over the tool texts, queried with the question's terms OR'ed. */
    private static final class Bm25 implements AutoCloseable {
        private final Analyzer analyzer = new EnglishAnalyzer();
        private final DirectoryReader reader;
        private final IndexSearcher searcher;

        Bm25(List<Tool> tools) throws Exception {
            ByteBuffersDirectory directory = new ByteBuffersDirectory();
            try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
                for (Tool tool : tools) {
                    Document doc = new Document();
                    doc.add(new StringField("name", tool.name(), Field.Store.YES));
                    doc.add(new TextField("text", tool.text(), Field.Store.NO));
                    writer.addDocument(doc);
                }
            }
            reader = DirectoryReader.open(directory);
            searcher = new IndexSearcher(reader);
        }

        List<String> rank(String question) throws Exception {
            BooleanQuery.Builder query = new BooleanQuery.Builder();
            try (TokenStream tokens = analyzer.tokenStream("text", question)) {
                CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
                tokens.reset();
                while (tokens.incrementToken()) {
                    query.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
                }
                tokens.end();
            }
            List<String> ranked = new ArrayList<>();
            for (ScoreDoc hit : searcher.search(query.build(), Math.max(1, reader.maxDoc())).scoreDocs) {
                ranked.add(searcher.storedFields().document(hit.doc).get("name"));
            }
            return ranked;
        }

        @Override
        public void close() throws Exception {
            reader.close();
            analyzer.close();
        }
    }

    private static List<Question> questions() throws Exception {
        Path file = Path.of(System.getProperty("schemabrain.bench", "bench"), "toolchoice", "questions.tsv");
        List<Question> questions = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String[] cols = line.split("\t");
            if (cols.length < 3 || cols[0].equals("id")) {
                continue;
            }
            questions.add(new Question(cols[0], cols[1], new LinkedHashSet<>(List.of(cols[2].split(",")))));
        }
        return questions;
    }

    private static Set<String> subset() {
        String tools = System.getProperty("schemabrain.toolchoice.tools", "").trim();
        if (tools.equals("core")) {   // the default of serve: ToolGroups.DEFAULT
            return new LinkedHashSet<>(ToolGroups.GROUPS.get("core"));
        }
        return tools.isEmpty() ? Set.of() : new LinkedHashSet<>(List.of(tools.split("\\s*,\\s*")));
    }
}
