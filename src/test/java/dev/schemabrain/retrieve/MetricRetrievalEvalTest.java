package dev.schemabrain.retrieve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * find_relevant_metrics scored on its golden set (src/test/resources/metric-retrieval/golden.json) through the real
 * tool: four real stores (the demo SQLite database, Chinook and Northwind on the embedded PostgreSQL, and a clinic's
 * SQLite database with a YAML project applied), recall@k = |expected ∩ top k| / |expected| averaged over questions.
 * The figures and every miss land in target/eval/metrics-retrieval.txt.
 */
class MetricRetrievalEvalTest {

    private static final Path GOLDEN = Path.of("src", "test", "resources", "metric-retrieval");
    /**
     * The target, met: untuned 0.827, tuned 0.875, 0.894 with the question's time bound, shape and non-content
     * words read, 0.913 once a line's quantity beside a price reads as units sold, 0.933 with grouping words lighter.
     */
    private static final double TARGET = 0.9;
    /** What the build holds to: the figure reached, so any regression fails. */
    private static final double FLOOR = 0.932;
    /** The blind set's floor: its first score, taken before any rule was changed (unchanged since). */
    private static final double BLIND_FLOOR = 0.969;

    /**
     * The ferry set's floor: 0.750 before the units-sold description and the grouping rule, 0.917 with the first,
     * 1.000 with both; held at what it reached.
     */
    private static final double FERRY_FLOOR = 1.0;

    /** The utility set's floor: its first score (13 of 14; the same with grouping words at full weight). */
    private static final double UTILITY_FLOOR = 13 / 14.0;

    /**
     * The issue 46 blind sets (blind-drafts/cinema.sql, brewery.sql, school.sql and their golden-blind-*.json: 43
     * questions written before any score), held at recall@3 and recall@1. Before any rule change (f01d2a5): cinema
     * recall@1 0.800 recall@3 0.867, brewery 0.857 / 0.929, school 0.857 / 0.929; together 36 and 39 of 43, the
     * units sold of "top beers by units sold" third. After the measure words are read (a ranking's "by" names the
     * measure, units said or sold answered by a sum of units, money by a total that is not of units): cinema 0.867 /
     * 0.867, brewery 0.929 / 0.929, school 0.929 / 1.000; together 39 and 40 of 43. The same change on the other sets
     * (recall@1 / recall@3, before → after): golden 0.712 / 0.933 → 0.731 / 0.933, HR 0.848 / 0.970 unchanged, ferry
     * 0.583 / 1.000 → 0.667 / 1.000, utility 0.857 / 0.929 → 0.929 / 0.929. Reproduce:
     * {@code mvn -B -q -o test -Dtest=MetricRetrievalEvalTest -Dsurefire.failIfNoSpecifiedTests=false}
     * (figures in target/eval/metrics-retrieval*.txt).
     */
    private static final double CINEMA_FLOOR = 13 / 15.0;
    private static final double CINEMA_FLOOR_1 = 13 / 15.0;
    private static final double BREWERY_FLOOR = 13 / 14.0;
    private static final double BREWERY_FLOOR_1 = 13 / 14.0;
    private static final double SCHOOL_FLOOR = 1.0;
    private static final double SCHOOL_FLOOR_1 = 13 / 14.0;

    @TempDir
    Path dir;

    @Test
    void recallAtThreeHoldsItsFloor() throws Exception {
        Map<String, ToolRegistry> tools = new LinkedHashMap<>();
        tools.put("demo", served("sqlite:" + DemoDatabase.ensure(dir.resolve("demo.sqlite")), "demo"));
        TestPostgres.loadSample("chinook", "chinook.sql");
        tools.put("chinook", served(TestPostgres.url("chinook"), "chinook"));
        TestPostgres.loadSample("northwind", "northwind.sql");
        tools.put("northwind", served(TestPostgres.url("northwind"), "northwind"));
        tools.put("clinic", sqliteWithProject("clinic", "clinic.sql", "clinic-project"));
        Score score = score("golden.json", tools, "metrics-retrieval.txt", FLOOR);
        assertTrue(score.questions() >= 40, "at least 40 questions");
        assertEquals(4, score.schemas(), "four schemas");
        assertTrue(score.recall3() >= FLOOR - 1e-9, score.report());
        assertTrue(score.recall3() >= TARGET, score.report());
    }

    /** The blind set: a domain (HR) no rule was fitted to, so a rule that only fits golden.json shows here. */
    @Test
    void blindSetHoldsItsFloor() throws Exception {
        Map<String, ToolRegistry> tools = Map.of("hr", sqliteWithProject("hr", "blind-hr.sql", "blind-hr-project"));
        Score score = score("golden-blind.json", tools, "metrics-retrieval-blind.txt", BLIND_FLOOR);
        assertTrue(score.questions() >= 12, "at least 12 questions");
        assertTrue(score.recall3() >= BLIND_FLOOR - 1e-9, score.report());
    }

    /** A second blind set: the ferry operator's drafted metrics (no project), questions written before any score. */
    @Test
    void ferryBlindSetHoldsItsFloor() throws Exception {
        draftedBlindSet("ferry", FERRY_FLOOR);
    }

    /** A third blind set: the utility's drafted metrics, questions written before any score on its schema. */
    @Test
    void utilityBlindSetHoldsItsFloor() throws Exception {
        draftedBlindSet("utility", UTILITY_FLOOR);
    }

    /** Issue 46: a cinema chain's drafts; its concession lines hold both units sold and an average unit price. */
    @Test
    void cinemaBlindSetHoldsItsFloor() throws Exception {
        draftedBlindSet("cinema", CINEMA_FLOOR, CINEMA_FLOOR_1);
    }

    /** Issue 46: a craft brewery's drafts. */
    @Test
    void breweryBlindSetHoldsItsFloor() throws Exception {
        draftedBlindSet("brewery", BREWERY_FLOOR, BREWERY_FLOOR_1);
    }

    /** Issue 46: a language school's drafts. */
    @Test
    void schoolBlindSetHoldsItsFloor() throws Exception {
        draftedBlindSet("school", SCHOOL_FLOOR, SCHOOL_FLOOR_1);
    }

    /** blind-drafts/NAME.sql on PostgreSQL, its drafts served, scored on golden-blind-NAME.json and held to {@code floor}. */
    private void draftedBlindSet(String name, double floor) throws Exception {
        draftedBlindSet(name, floor, 0);
    }

    /** As above, recall@1 held to {@code floor1} too. */
    private void draftedBlindSet(String name, double floor, double floor1) throws Exception {
        String database = "t30_" + name + "_metrics";
        TestPostgres.createDatabase(database);
        TestPostgres.psql(database, Path.of("src", "test", "resources", "blind-drafts", name + ".sql"));
        Map<String, ToolRegistry> tools = Map.of(name, served(TestPostgres.url(database), name));
        Score score = score("golden-blind-" + name + ".json", tools, "metrics-retrieval-blind-" + name + ".txt", floor);
        assertTrue(score.questions() >= 12, "at least 12 questions");
        assertTrue(score.recall3() >= floor - 1e-9, score.report());
        assertTrue(score.recall1() >= floor1 - 1e-9, score.report());
    }

    private record Score(int questions, int schemas, double recall1, double recall3, String report) {
    }

    /** Scores one golden file over its stores and writes the figures and misses to target/eval/{@code out}. */
    private static Score score(String file, Map<String, ToolRegistry> tools, String out, double floor) throws Exception {
        JsonNode golden = new ObjectMapper().readTree(GOLDEN.resolve(file).toFile());
        Map<String, List<Double>> recall3 = new TreeMap<>();
        List<Double> recall1 = new ArrayList<>();
        List<Double> recall5 = new ArrayList<>();
        StringBuilder misses = new StringBuilder();
        StringBuilder second = new StringBuilder();
        for (JsonNode q : golden.path("questions")) {
            String schema = q.path("schema").asText();
            Set<String> expected = new LinkedHashSet<>();
            q.path("expected").forEach(e -> expected.add(e.asText()));
            Set<String> known = metricNames(tools.get(schema));
            assertTrue(known.containsAll(expected), q.path("id").asText() + " expects a metric " + schema
                    + " does not have: " + expected + " (it has " + known + ")");
            List<String> ranked = ranked(tools.get(schema), q.path("question").asText());
            recall1.add(recall(expected, ranked, 1));
            if (recall(expected, ranked, 1) < 1 && recall(expected, ranked, 3) == 1) {
                second.append(String.format(Locale.ROOT, "  %s %s%n    expected %s, got %s%n", q.path("id").asText(),
                        q.path("question").asText(), expected, ranked.subList(0, Math.min(3, ranked.size()))));
            }
            double r3 = recall(expected, ranked, 3);
            recall3.computeIfAbsent(schema, s -> new ArrayList<>()).add(r3);
            recall5.add(recall(expected, ranked, 5));
            if (r3 < 1) {
                misses.append(String.format(Locale.ROOT, "  %s %s%n    expected %s, got %s%n", q.path("id").asText(),
                        q.path("question").asText(), expected, ranked.subList(0, Math.min(3, ranked.size()))));
            }
        }
        List<Double> all = recall3.values().stream().flatMap(List::stream).toList();
        double overall = mean(all);
        StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "find_relevant_metrics %s: %d questions%nrecall@1 %.3f  recall@3 %.3f  recall@5 %.3f (target recall@3 >= %.2f, %s; the build asserts >= %.3f)%n",
                file, all.size(), mean(recall1), overall, mean(recall5), TARGET, overall >= TARGET ? "met" : "not met", floor));
        recall3.forEach((schema, r) -> report.append(String.format(Locale.ROOT, "  %-10s recall@3 %.3f over %d%n", schema, mean(r), r.size())));
        report.append("misses at 3:\n").append(misses.length() == 0 ? "  none\n" : misses);
        report.append("found at 3 but not first:\n").append(second.length() == 0 ? "  none\n" : second);
        Path path = Path.of("target", "eval", out);
        Files.createDirectories(path.getParent());
        Files.writeString(path, report);
        System.out.println(report);
        return new Score(all.size(), recall3.size(), mean(recall1), overall, report.toString());
    }

    private ToolRegistry served(String url, String name) throws Exception {
        Path store = dir.resolve(name + ".db");
        SourceUrl source = SourceUrl.parse(url);
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().run(source, s, store, false, IndexListener.SILENT);
        }
        return StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
    }

    /** A SQLite database from its SQL file, indexed, then the operator's YAML project applied. */
    private ToolRegistry sqliteWithProject(String name, String sqlFile, String project) throws Exception {
        Path database = dir.resolve(name + ".sqlite");
        String sql = Files.readAllLines(GOLDEN.resolve(sqlFile)).stream().filter(l -> !l.startsWith("--"))
                .collect(Collectors.joining("\n"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement st = c.createStatement()) {
            for (String statement : sql.split(";\n")) {
                if (!statement.isBlank()) {
                    st.execute(statement);
                }
            }
        }
        ToolRegistry tools = served("sqlite:" + database, name);
        InProcessCli.Result applied = InProcessCli.run("--store", dir.resolve(name + ".db").toString(), "apply",
                GOLDEN.resolve(project).toString());
        assertEquals(0, applied.exitCode(), applied.toString());
        return tools;
    }

    private static Set<String> metricNames(ToolRegistry tools) {
        Envelope listed = tools.call("list_metrics", Map.of("limit", 200));
        Set<String> names = new HashSet<>();
        listed.data().path("metrics").forEach(m -> names.add(m.path("name").asText()));
        return names;
    }

    private static List<String> ranked(ToolRegistry tools, String question) {
        Envelope found = tools.call("find_relevant_metrics", Map.of("query", question, "limit", 5));
        List<String> names = new ArrayList<>();
        found.data().path("hits").forEach(h -> names.add(h.path("name").asText()));
        return names;
    }

    private static double recall(Set<String> expected, List<String> ranked, int k) {
        return ranked.stream().limit(k).filter(expected::contains).count() / (double) expected.size();
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }
}
