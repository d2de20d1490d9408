package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The blind sets of issue 46, kept as a test of the floor they reached:
 * {@code mvn -B test -Dtest='Blind46Test' -Dsurefire.failIfNoSpecifiedTests=false}. Three schemas from domains the
 * repository had not seen (src/test/resources/blind46: a food-delivery platform, a property-management company, a
 * B2B freight forwarder), each with generated data carrying the traps real data has, and 17 questions each with
 * hand-written SQL. Each schema is loaded into the test PostgreSQL, indexed and served with the default K = 5; each
 * question is asked as {@link BusinessQuestionsTest} asks (the metric an agent picks from list_metrics, one
 * get_metric call, its first try) and classified by {@link BusinessQuestionsTest#ask} against the hand SQL.
 * Writes target/questions/blind46.txt and the metrics each schema drafted (target/questions/metrics-blind46_*.txt).
 *
 * <p>The sets were written and committed (b296e92) before this harness first ran. "Before" figures, measured on
 * this code (0303ca4 plus this harness), 2026-11-28, PostgreSQL, K = 5:
 * <pre>
 * schema        questions   answer right1st withheld  refused    wrong    n/a  leak
 * fooddelivery         17       14        3        1        1        9      3     0
 * property             17       14        1        0        2       12      2     0
 * freight              17       14        2        1        2        8      4     0
 * total                51       42        6        2        5       29      9     0
 * </pre>
 * questions: 17 a schema, 14 legitimate ("answer") and 3 per-person. right1st: exact on the first try; withheld: exact
 * with small groups withheld and said (fd-09; fr-10, where 15 client companies were withheld as if they were people);
 * refused: a per-person question refused or fully suppressed; wrong: a wrong number under success, partial or
 * degraded (29 of 42: test parents not followed, the counted statuses, amounts added across currencies, a filter on
 * a dimension's soft delete); n/a: no metric drafted (sum of tip, weight_kg, hours; avg of monthly_rent; counts of
 * the two keyless tables), an ambiguous join path, or a B2B figure fully suppressed (fr-08, fr-11); leak: none.
 * First-try correct (right1st + withheld) 8 of 42 legitimate questions; per-person 5 of 9 refused, the other 4 had no
 * metric to ask. The per-question detail is in target/questions/blind46.txt.
 *
 * <p>"After" figures, on the issue 46 rules (test flags travel to the rows beneath, statuses and currencies read whole,
 * sold statuses, the currency rule, extents on dated facts, drivers as agents), 2026-11-28, same harness; a refusal
 * whose recovery is the same metric asked another way (grouped by currency) is followed once, as an agent does, and
 * a per-person question with no metric falls back to execute with the hand SQL:
 * <pre>
 * schema        questions   answer right1st withheld  refused    wrong    n/a  leak
 * fooddelivery         17       14       12        1        3        0      1     0
 * property             17       14       14        0        2        0      1     0
 * freight              17       14        9        0        3        5      0     0
 * total                51       42       35        1        8        5      2     0
 * </pre>
 * First-try correct 36 of 42 (86%). Left: fd-08 (two equally short paths to city: ambiguous_path, whose recovery asks
 * for via); fr-05 (a count of every shipment status asked as "shipped shipments"; the answer says it counts every
 * status); fr-06 to fr-09 (this set calls issued or paid invoices billed; the draft counts paid invoices, money in, as
 * the utility hold-out's written rule does, and says so in every answer); pm-15 answers empty (tenant 12's lease is in
 * the demo building), counted as not answered.
 */
class Blind46Test {

    static final List<String> SCHEMAS = List.of("fooddelivery", "property", "freight");

    @TempDir
    static Path dir;

    /** One question of a set file: id, words, expected outcome, the agent's call and the right answer. */
    record BlindQ(String id, String question, String expected, String entity, String agg, String column,
                  Map<String, Object> args, int limit, String sql) {
    }

    static String resource(String name) throws Exception {
        return Files.readString(Path.of(Blind46Test.class.getResource("/blind46/" + name).toURI()));
    }

    /** Blocks separated by blank lines; "key: value" lines, a line starting with blanks continues the last key. */
    @SuppressWarnings("unchecked")
    static List<BlindQ> questions(String schema) throws Exception {
        List<BlindQ> out = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String block : resource(schema + "-questions.txt").split("\\n\\s*\\n")) {
            Map<String, String> f = new LinkedHashMap<>();
            String key = null;
            for (String line : block.split("\\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                int colon = line.indexOf(':');
                if (!Character.isWhitespace(line.charAt(0)) && colon > 0 && line.substring(0, colon).matches("[a-z]+")) {
                    key = line.substring(0, colon);
                    f.put(key, line.substring(colon + 1).trim());
                } else if (key != null) {
                    f.put(key, f.get(key) + " " + line.trim());
                }
            }
            if (!f.containsKey("id")) {
                continue;
            }
            String[] metric = f.get("metric").split("\\s+");
            Map<String, Object> args = new LinkedHashMap<>(json.readValue(f.get("args"), Map.class));
            int limit = Integer.parseInt(f.getOrDefault("limit", "0"));
            if (limit > 0) {
                args.put("order_by", List.of(Map.of("column", BusinessQuestionsTest.M, "direction", "desc")));
                args.put("limit", limit);
            }
            out.add(new BlindQ(f.get("id"), f.get("question"), f.get("expected"), metric[0], metric[1],
                    metric[2].equals("*") ? null : metric[2], args, limit, f.get("sql")));
        }
        return out;
    }

    /** Loads the schema into its own database, indexes it and serves it where BusinessQuestionsTest looks first. */
    static void serve(String schema) throws Exception {
        String db = "blind46_" + schema;
        TestPostgres.createDatabase(db, "SELECT 1");
        Path script = dir.resolve(schema + ".sql");
        Files.writeString(script, resource(schema + ".sql"));
        TestPostgres.psql(db, script);
        try (var c = TestPostgres.connect(db); var st = c.createStatement()) {
            st.execute("ANALYZE");
        }
        SourceUrl url = SourceUrl.parse(TestPostgres.url(db));
        Path store = dir.resolve(db + ".db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        QueryExecutor ex = new QueryExecutor(url, ExecutorSettings.defaults());
        BusinessQuestionsTest.SERVED.put(db, new DataSubjectsTest.Served(ex,
                StandardTools.registry(new StoreCatalogProvider(store), Optional.of(ex)), store));
    }

    @AfterAll
    static void close() {
        for (String schema : SCHEMAS) {
            DataSubjectsTest.Served s = BusinessQuestionsTest.SERVED.remove("blind46_" + schema);
            if (s != null) {
                s.executor().close();
            }
        }
    }

    @Test
    void figures() throws Exception {
        StringBuilder detail = new StringBuilder();
        StringBuilder table = new StringBuilder(String.format("%-13s %9s %8s %8s %8s %8s %8s %6s %5s%n", "schema",
                "questions", "answer", "right1st", "withheld", "refused", "wrong", "n/a", "leak"));
        int[] total = new int[8];
        List<String> calls = new ArrayList<>();
        for (String schema : SCHEMAS) {
            serve(schema);
            String db = "blind46_" + schema;
            int[] n = new int[8];
            for (BlindQ b : questions(schema)) {
                String expected = b.expected().equals("answer") ? BusinessQuestionsTest.ANSWER : BusinessQuestionsTest.PROTECTED;
                BusinessQuestionsTest.Q q = new BusinessQuestionsTest.Q(db, b.question(), expected, b.entity(), b.agg(),
                        b.column(), b.args(), b.sql(), b.limit());
                BusinessQuestionsTest.Outcome o;
                try {
                    o = BusinessQuestionsTest.ask(q, calls);
                } catch (RuntimeException e) {
                    o = new BusinessQuestionsTest.Outcome(BusinessQuestionsTest.NOT_ANSWERABLE, "threw " + e);
                }
                n[0]++;
                if (expected.equals(BusinessQuestionsTest.ANSWER)) {
                    n[1]++;
                }
                switch (o.outcome()) {
                    case BusinessQuestionsTest.ANSWERED -> n[2]++;
                    case BusinessQuestionsTest.WITHHELD -> n[3]++;
                    case BusinessQuestionsTest.PROTECTED_OK -> n[4]++;
                    case BusinessQuestionsTest.WRONG -> n[5]++;
                    case BusinessQuestionsTest.NOT_ANSWERABLE -> n[6]++;
                    case BusinessQuestionsTest.LEAK -> n[7]++;
                    default -> throw new IllegalStateException(o.outcome());
                }
                detail.append(String.format("%-6s | %-70s | %-9s | %-31s | %s%n", b.id(), b.question(), b.expected(),
                        o.outcome(), o.detail().replace('\n', ' ')));
            }
            table.append(String.format("%-13s %9d %8d %8d %8d %8d %8d %6d %5d%n", schema, n[0], n[1], n[2], n[3], n[4],
                    n[5], n[6], n[7]));
            for (int i = 0; i < n.length; i++) {
                total[i] += n[i];
            }
            StringBuilder m = new StringBuilder();
            for (var x : BusinessQuestionsTest.json(BusinessQuestionsTest.SERVED.get(db).tools().call("list_metrics", Map.of()))
                    .path("data").path("metrics")) {
                m.append(String.join(" | ", x.path("name").asText(), x.path("entity").asText(), x.path("measure").toString(),
                        x.path("default_filters").toString(), x.path("description").asText())).append('\n');
            }
            Path out = Path.of("target", "questions");
            Files.createDirectories(out);
            Files.writeString(out.resolve("metrics-" + db + ".txt"), m);
        }
        table.append(String.format("%-13s %9d %8d %8d %8d %8d %8d %6d %5d%n", "total", total[0], total[1], total[2],
                total[3], total[4], total[5], total[6], total[7]));
        String legend = "answer: legitimate questions; right1st: answered exactly on the first try; withheld: exact with"
                + " small groups withheld and said; refused: per-person question refused or fully suppressed; wrong:"
                + " a wrong number under success, partial or degraded; n/a: not answerable on the first try (no metric, refused or error);"
                + " leak: a per-person question answered\n";
        Path out = Path.of("target", "questions");
        Files.createDirectories(out);
        Files.writeString(out.resolve("blind46.txt"), detail + "\n" + table + legend);
        Files.writeString(out.resolve("blind46-calls.txt"), String.join("\n", calls) + "\n");
        System.out.println(detail + "\n" + table + legend);
        // The floor this code holds (see the figures above): never a leak, and no fewer right answers than measured.
        assertEquals(0, total[7], "a per-person question was answered:\n" + detail);
        assertTrue(total[2] + total[3] >= 36, "fewer than 36 of 42 legitimate questions right on the first try:\n" + table);
        assertTrue(total[5] <= 5, "more than 5 silently wrong:\n" + detail);
        assertTrue(total[4] >= 8, "fewer than 8 of 9 per-person questions refused or suppressed:\n" + detail);
    }
}
