package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.source.Sources;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The analyst blind set (issue 45): two invented schemas (pharmacy, wineclub; {@link AnalystBlindData}), each built on
 * a SQLite file, indexed as {@code schemabrain index} does, served with the standard tools, and 49 legitimate analyst
 * statements ({@code src/test/resources/analyst-blind/<schema>-statements.sql}) run through validate_query and execute,
 * each execute answer compared with the hand-written expected SQL run directly on the file.
 *
 * <p>How the set was made: the schemas, data and statements were written for this set before it was scored, from the
 * issue's list of what analysts run (totals by a dimension, by month, top-N, running totals, CTEs, ratios, distinct
 * counts, product analytics with no person in the query, averages per visit, joins over two or three tables, HAVING,
 * CASE buckets, date filters), without reading the gate's code. The same source compiles against the code before the
 * gate (fd533e8), so the figures before and after come from one harness. Only the SQL tools' public registry is used.
 */
final class AnalystBlindSet {

    static final List<String> SCHEMAS = List.of("pharmacy", "wineclub");

    /**
     * The second set (bikeshare, skiresort; {@link AnalystBlindData2}): 53 statements written and committed before it
     * was first scored, after the first set had been used to fix the gate, so it measures the gate as it was then.
     */
    static final List<String> SECOND = List.of("bikeshare", "skiresort");

    /** One statement of the set: its expectation is "plain" (no person) or "subject" (the small-group rule applies). */
    record Item(String schema, String id, String expect, String question, String sql, String expectedSql) {
    }

    /** What became of one statement. */
    record Outcome(Item item, boolean validateAllowed, String validateKind, String executeStatus, String refusal,
                   boolean correct, String wrong, boolean suppressionMatters, boolean ruleApplied, String detail) {

        /** A statement about people answered without the small-group rule (correct only if no group was small). */
        boolean unguarded() {
            return item.expect().equals("subject") && !refused() && !ruleApplied;
        }

        boolean refused() {
            return refusal != null;
        }

        boolean wrongWithSuccess() {
            return wrong != null;
        }
    }

    /** A schema built, indexed and served. */
    record Served(String schema, Path file, QueryExecutor executor, ToolRegistry tools) implements AutoCloseable {
        @Override
        public void close() {
            executor.close();
        }
    }

    static Served serve(String schema, Path dir) throws Exception {
        Path file = dir.resolve(schema + ".sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String sql : AnalystBlindData.statements(schema)) {
                st.execute(sql);
            }
        }
        SourceUrl url = SourceUrl.parse("sqlite:" + file);
        Path store = dir.resolve(schema + ".db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        QueryExecutor executor = new QueryExecutor(url, ExecutorSettings.defaults());
        return new Served(schema, file, executor, StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor)));
    }

    static List<Item> items(String schema) throws IOException {
        String text;
        try (InputStream in = AnalystBlindSet.class.getResourceAsStream("/analyst-blind/" + schema + "-statements.sql")) {
            if (in == null) {
                throw new IOException("no statements for " + schema);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Item> items = new ArrayList<>();
        String[] blocks = text.split("(?m)^-- id: ");
        for (int b = 1; b < blocks.length; b++) {
            String[] lines = blocks[b].split("\n");
            String id = lines[0].strip();
            String expect = null;
            String question = "";
            StringBuilder sql = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            boolean inExpected = false;
            boolean same = false;
            for (int i = 1; i < lines.length; i++) {
                String line = lines[i];
                if (line.startsWith("-- expect: ")) {
                    expect = line.substring("-- expect: ".length()).strip();
                } else if (line.startsWith("-- question: ")) {
                    question = line.substring("-- question: ".length()).strip();
                } else if (line.startsWith("-- expected:")) {
                    inExpected = true;
                    same = line.substring("-- expected:".length()).strip().equals("same");
                } else if (!line.startsWith("--") && !line.isBlank()) {
                    (inExpected ? expected : sql).append(line.strip()).append('\n');
                }
            }
            if (expect == null || !List.of("plain", "subject").contains(expect) || sql.isEmpty()
                    || (!same && expected.isEmpty()) || (expect.equals("plain") && !same)) {
                throw new IllegalStateException("malformed block " + id);
            }
            String s = sql.toString().strip();
            items.add(new Item(schema, id, expect, question, s, same ? s : expected.toString().strip()));
        }
        return items;
    }

    static final Pattern REASON = Pattern.compile("\\(([a-z_]+)\\)$");

    /** A refusal's kind, with the reason the message ends with when it gives one. */
    static String refusalKey(JsonNode e) {
        String kind = e.path("error").path("kind").asText();
        Matcher m = REASON.matcher(e.path("error").path("message").asText().strip());
        return kind + (m.find() ? "/" + m.group(1) : "");
    }

    static Outcome score(Served served, Item item) throws Exception {
        JsonNode v = served.tools().call("validate_query", Map.of("sql", item.sql()), "analyst-blind", Access.UNRESTRICTED).toTree();
        boolean allowed = !v.path("error").isObject() && !List.of("refused", "error").contains(v.path("status").asText());
        String validateKind = allowed ? null : refusalKey(v);
        List<List<String>> expected = SqlAnswers.sqliteRows(served.file(), item.expectedSql());
        List<List<String>> plain = SqlAnswers.sqliteRows(served.file(), item.sql());
        boolean matters = !same(expected, plain);
        JsonNode e = served.tools().call("execute", Map.of("sql", item.sql(), "limit", 10000), "analyst-blind",
                Access.UNRESTRICTED).toTree();
        String status = e.path("status").asText();
        if (e.path("error").isObject() || List.of("refused", "error").contains(status)) {
            return new Outcome(item, allowed, validateKind, status, refusalKey(e), false, null, matters, false,
                    e.path("error").path("message").asText());
        }
        boolean ruled = e.path("data").has("min_group_size");
        List<List<String>> got = SqlAnswers.rows(e);
        if (same(got, expected)) {
            return new Outcome(item, allowed, validateKind, status, null, true, null, matters, ruled, "");
        }
        String wrong = matters && same(got, plain) ? "small groups shown" : "other rows";
        return new Outcome(item, allowed, validateKind, status, null, false, wrong, matters, ruled,
                "got " + head(got) + " expected " + head(expected));
    }

    static String head(List<List<String>> rows) {
        return rows.size() + " rows " + rows.subList(0, Math.min(4, rows.size()));
    }

    /** Row for row, numbers equal to 1e-9 relative (a sum's last digit depends on the order the engine adds in). */
    static boolean same(List<List<String>> a, List<List<String>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            List<String> x = a.get(i);
            List<String> y = b.get(i);
            if (x.size() != y.size()) {
                return false;
            }
            for (int j = 0; j < x.size(); j++) {
                if (!cell(x.get(j), y.get(j))) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean cell(String x, String y) {
        if (String.valueOf(x).equals(String.valueOf(y))) {
            return true;
        }
        try {
            double p = new BigDecimal(x).doubleValue();
            double q = new BigDecimal(y).doubleValue();
            return Math.abs(p - q) <= 1e-9 * Math.max(1, Math.max(Math.abs(p), Math.abs(q)));
        } catch (RuntimeException notNumbers) {
            return false;
        }
    }

    /** Every statement of every schema of the first set, scored. */
    static List<Outcome> scoreAll(Path dir) throws Exception {
        return scoreAll(dir, SCHEMAS);
    }

    /** Every statement of every one of {@code schemas}, scored. */
    static List<Outcome> scoreAll(Path dir, List<String> schemas) throws Exception {
        List<Outcome> out = new ArrayList<>();
        for (String schema : schemas) {
            try (Served served = serve(schema, dir)) {
                for (Item item : items(schema)) {
                    out.add(score(served, item));
                }
            }
        }
        return out;
    }

    /** The figures table, per schema and in total, then one line per statement not answered correctly. */
    static String table(List<Outcome> outcomes) {
        Map<String, List<Outcome>> bySchema = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            bySchema.computeIfAbsent(o.item().schema(), k -> new ArrayList<>()).add(o);
        }
        bySchema.put("total", outcomes);
        StringBuilder s = new StringBuilder(String.format("%-9s %10s %8s %8s %8s %8s %14s %10s %s%n", "schema", "statements",
                "(rule)", "allowed", "correct", "refused", "wrong+success", "unguarded", "refused by kind"));
        for (Map.Entry<String, List<Outcome>> e : bySchema.entrySet()) {
            List<Outcome> os = e.getValue();
            Map<String, Integer> kinds = new TreeMap<>();
            os.stream().filter(Outcome::refused).forEach(o -> kinds.merge(o.refusal(), 1, Integer::sum));
            s.append(String.format("%-9s %10d %8d %8d %8d %8d %14d %10d %s%n", e.getKey(), os.size(),
                    os.stream().filter(Outcome::suppressionMatters).count(),
                    os.stream().filter(Outcome::validateAllowed).count(), os.stream().filter(Outcome::correct).count(),
                    os.stream().filter(Outcome::refused).count(), os.stream().filter(Outcome::wrongWithSuccess).count(),
                    os.stream().filter(Outcome::unguarded).count(), kinds));
        }
        s.append("(rule) = statements whose expected answer differs from the plain one because a small group is left out\n"
                + "unguarded = statements about people answered without the small-group rule (no min_group_size)\n");
        for (Outcome o : outcomes) {
            if (!o.correct() || !o.validateAllowed() || o.unguarded()) {
                s.append(String.format("  %s %-7s validate=%s execute=%s%s: %s%n    %s%n", o.item().id(), o.item().expect(),
                        o.validateAllowed() ? "allowed" : o.validateKind(), o.executeStatus(),
                        o.refused() ? " " + o.refusal() : o.wrong() != null ? " WRONG (" + o.wrong() + ")"
                                : o.unguarded() ? " correct but unguarded" : "",
                        o.item().question(), o.detail().length() > 400 ? o.detail().substring(0, 400) : o.detail()));
            }
        }
        return s.toString();
    }
}
