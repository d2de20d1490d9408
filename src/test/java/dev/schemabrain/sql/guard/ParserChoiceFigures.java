package dev.schemabrain.sql.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.sqlite.SqliteSource;
import dev.schemabrain.source.ddl.DdlSource;
import dev.schemabrain.testing.Bench;
import dev.schemabrain.testing.TestPostgres;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CharLiteralStyle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The measurement behind "JSqlParser, not Calcite, for agent SQL" (sql.guard): both libraries over the Spider dev
 * gold queries (SQLite, live catalogs) and an analyst corpus over Chinook and Northwind (PostgreSQL text, run
 * again as DuckDB, plus MySQL spellings), counting parses and binds per dialect, scoring lineage on a
 * hand-labelled subset, and timing the first call in a fresh JVM and warm calls. Not a test of behaviour (its
 * name keeps it out of the default run): {@code mvn -B test -Dtest=ParserChoiceFigures} writes
 * {@code target/sql-guard/parser-choice.txt}. It asserts only what the decision rests on.
 */
class ParserChoiceFigures {

    /** One analyst query: its catalog, dialect, text and, when labelled, each output's source columns. */
    record Query(String db, TestEngine engine, String sql, String label) {
    }

    static final List<Query> ANALYST = List.of(
            pg("chinook", "SELECT a.title, ar.name AS artist FROM album a JOIN artist ar ON ar.artist_id = a.artist_id",
                    "album.title | artist.name"),
            pg("chinook", "SELECT g.name AS genre, count(*) AS tracks, round(avg(t.milliseconds) / 60000.0, 2) AS avg_minutes"
                    + " FROM track t JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name ORDER BY tracks DESC",
                    "genre.name |  | track.milliseconds"),
            pg("chinook", "SELECT c.country, sum(i.total) AS revenue FROM invoice i JOIN customer c ON c.customer_id = i.customer_id"
                    + " GROUP BY c.country HAVING sum(i.total) > 50", "customer.country | invoice.total"),
            pg("chinook", "WITH sales AS (SELECT il.track_id, sum(il.unit_price * il.quantity) AS amount FROM invoice_line il"
                    + " GROUP BY il.track_id) SELECT t.name, s.amount FROM sales s JOIN track t ON t.track_id = s.track_id"
                    + " ORDER BY s.amount DESC LIMIT 10", "track.name | invoice_line.quantity,invoice_line.unit_price"),
            pg("chinook", "SELECT e.first_name || ' ' || e.last_name AS rep, count(c.customer_id) AS customers FROM employee e"
                    + " LEFT JOIN customer c ON c.support_rep_id = e.employee_id GROUP BY e.employee_id, e.first_name, e.last_name",
                    "employee.first_name,employee.last_name | customer.customer_id"),
            pg("chinook", "SELECT billing_country, date_trunc('month', invoice_date) AS month_start, sum(total) AS revenue"
                    + " FROM invoice GROUP BY 1, 2", "invoice.billing_country | invoice.invoice_date | invoice.total"),
            pg("chinook", "SELECT name, composer, CASE WHEN milliseconds > 300000 THEN 'long' ELSE 'short' END AS length_class"
                    + " FROM track WHERE composer IS NOT NULL", "track.name | track.composer | track.milliseconds"),
            pg("chinook", "SELECT customer_id, invoice_date, total, sum(total) OVER (PARTITION BY customer_id ORDER BY invoice_date)"
                    + " AS running_total FROM invoice",
                    "invoice.customer_id | invoice.invoice_date | invoice.total | invoice.total"),
            pg("chinook", "SELECT name, unit_price, rank() OVER (ORDER BY unit_price DESC) AS price_rank FROM track",
                    "track.name | track.unit_price | track.unit_price"),
            pg("chinook", "SELECT country FROM customer UNION SELECT billing_country FROM invoice",
                    "customer.country,invoice.billing_country"),
            pg("chinook", "SELECT a.title FROM album a WHERE a.album_id IN (SELECT t.album_id FROM track t WHERE t.genre_id = 1)",
                    "album.title"),
            pg("chinook", "SELECT c.first_name, c.last_name, (SELECT max(i.invoice_date) FROM invoice i"
                    + " WHERE i.customer_id = c.customer_id) AS last_purchase FROM customer c",
                    "customer.first_name | customer.last_name | invoice.invoice_date"),
            pg("chinook", "SELECT m.name AS media, count(*) FILTER (WHERE t.unit_price > 0.99) AS premium FROM track t"
                    + " JOIN media_type m ON m.media_type_id = t.media_type_id GROUP BY m.name", "media_type.name | "),
            pg("chinook", "SELECT string_agg(ar.name, ', ' ORDER BY ar.name) AS artists FROM artist ar WHERE ar.name LIKE 'A%'",
                    "artist.name"),
            pg("chinook", "SELECT CAST(invoice_date AS date) AS day, total::numeric(10,2) AS amount FROM invoice",
                    "invoice.invoice_date | invoice.total"),
            pg("chinook", "SELECT x.genre, x.n FROM (SELECT g.name AS genre, count(t.track_id) AS n FROM genre g"
                    + " JOIN track t USING (genre_id) GROUP BY g.name) AS x WHERE x.n > 100", "genre.name | track.track_id"),
            pg("chinook", "WITH RECURSIVE chain AS (SELECT employee_id, reports_to, last_name, 1 AS depth FROM employee"
                    + " WHERE reports_to IS NULL UNION ALL SELECT e.employee_id, e.reports_to, e.last_name, c.depth + 1"
                    + " FROM employee e JOIN chain c ON e.reports_to = c.employee_id) SELECT last_name, depth FROM chain",
                    "employee.last_name | "),
            pg("chinook", "SELECT coalesce(c.company, c.last_name) AS client, upper(c.city) AS city FROM customer c",
                    "customer.company,customer.last_name | customer.city"),
            pg("chinook", "SELECT p.name, count(pt.track_id) AS tracks FROM playlist p JOIN playlist_track pt"
                    + " ON pt.playlist_id = p.playlist_id GROUP BY p.name", "playlist.name | playlist_track.track_id"),
            pg("chinook", "SELECT t.name, il.quantity * il.unit_price AS line_total FROM invoice_line il"
                    + " JOIN track t ON t.track_id = il.track_id WHERE il.quantity > 1",
                    "track.name | invoice_line.quantity,invoice_line.unit_price"),
            pg("chinook", "SELECT extract(year FROM invoice_date) AS yr, count(DISTINCT customer_id) AS buyers FROM invoice"
                    + " GROUP BY 1", "invoice.invoice_date | invoice.customer_id"),
            pg("chinook", "SELECT e.last_name, m.last_name AS manager FROM employee e LEFT JOIN employee m"
                    + " ON m.employee_id = e.reports_to", "employee.last_name | employee.last_name"),
            pg("chinook", "SELECT * FROM genre", "genre.genre_id | genre.name"),
            pg("chinook", "SELECT al.title, lag(al.title) OVER (ORDER BY al.album_id) AS previous_title FROM album al",
                    "album.title | album.title"),
            pg("chinook", "SELECT billing_city, total FROM invoice WHERE total > (SELECT avg(total) FROM invoice)",
                    "invoice.billing_city | invoice.total"),
            pg("chinook", "SELECT g.name, round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct FROM track t"
                    + " JOIN genre g ON g.genre_id = t.genre_id GROUP BY g.name", "genre.name | "),
            pg("chinook", "SELECT country, count(*) AS n FROM customer GROUP BY country INTERSECT"
                    + " SELECT billing_country, count(*) FROM invoice GROUP BY billing_country",
                    "customer.country,invoice.billing_country | "),
            pg("northwind", "SELECT c.category_name, sum(od.unit_price * od.quantity * (1 - od.discount)) AS sales"
                    + " FROM order_details od JOIN products p ON p.product_id = od.product_id"
                    + " JOIN categories c ON c.category_id = p.category_id GROUP BY c.category_name",
                    "categories.category_name | order_details.discount,order_details.quantity,order_details.unit_price"),
            pg("northwind", "SELECT o.ship_country, avg(o.shipped_date - o.order_date) AS avg_days FROM orders o"
                    + " WHERE o.shipped_date IS NOT NULL GROUP BY o.ship_country",
                    "orders.ship_country | orders.order_date,orders.shipped_date"),
            pg("northwind", "SELECT s.company_name, count(p.product_id) AS products FROM suppliers s LEFT JOIN products p"
                    + " ON p.supplier_id = s.supplier_id GROUP BY s.company_name", "suppliers.company_name | products.product_id"),
            pg("northwind", "SELECT e.first_name, e.last_name, count(o.order_id) AS orders,"
                    + " dense_rank() OVER (ORDER BY count(o.order_id) DESC) AS r FROM employees e"
                    + " JOIN orders o ON o.employee_id = e.employee_id GROUP BY e.employee_id, e.first_name, e.last_name",
                    "employees.first_name | employees.last_name | orders.order_id | orders.order_id"),
            pg("northwind", "SELECT product_name, unit_price FROM products WHERE discontinued = 0"
                    + " ORDER BY unit_price DESC LIMIT 5", "products.product_name | products.unit_price"),
            // Unlabelled PostgreSQL spellings.
            pg("chinook", "SELECT DISTINCT ON (customer_id) customer_id, invoice_date, total FROM invoice"
                    + " ORDER BY customer_id, invoice_date DESC", null),
            pg("chinook", "SELECT name FROM artist WHERE name ILIKE '%metal%'", null),
            pg("chinook", "SELECT t.name, t.milliseconds / 1000 AS seconds FROM track t ORDER BY 2 DESC FETCH FIRST 5 ROWS ONLY", null),
            pg("chinook", "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) AS median_total FROM invoice", null),
            pg("chinook", "SELECT to_char(invoice_date, 'YYYY-MM') AS ym, count(*) AS n FROM invoice GROUP BY 1", null),
            pg("chinook", "SELECT c.first_name, i.total FROM customer c, LATERAL (SELECT total FROM invoice"
                    + " WHERE customer_id = c.customer_id ORDER BY total DESC LIMIT 1) i", null),
            pg("chinook", "SELECT a.title, array_agg(t.name) AS names FROM album a JOIN track t ON t.album_id = a.album_id"
                    + " GROUP BY a.title", null),
            pg("chinook", "SELECT billing_country, total, ntile(4) OVER (ORDER BY total) AS quartile FROM invoice", null),
            pg("chinook", "SELECT name FROM genre EXCEPT SELECT g.name FROM genre g JOIN track t ON t.genre_id = g.genre_id"
                    + " WHERE t.unit_price > 1", null),
            pg("chinook", "SELECT invoice_date::date AS day, total FROM invoice WHERE invoice_date >= now() - interval '30 days'", null),
            // MySQL spellings.
            my("SELECT `a`.`title`, `ar`.`name` FROM `album` `a` JOIN `artist` `ar` ON `ar`.`artist_id` = `a`.`artist_id`",
                    "album.title | artist.name"),
            my("SELECT g.name, GROUP_CONCAT(t.name ORDER BY t.name SEPARATOR '; ') AS tracks FROM genre g"
                    + " JOIN track t ON t.genre_id = g.genre_id GROUP BY g.name", "genre.name | track.name"),
            my("SELECT billing_country, DATE_FORMAT(invoice_date, '%Y-%m') AS ym, SUM(total) AS revenue FROM invoice"
                    + " GROUP BY billing_country, ym", "invoice.billing_country | invoice.invoice_date | invoice.total"),
            my("SELECT IFNULL(company, 'n/a') AS company, IF(country = 'USA', 'domestic', 'foreign') AS market FROM customer",
                    null),
            my("SELECT name FROM track ORDER BY milliseconds DESC LIMIT 5, 10", null),
            my("SELECT customer_id, YEAR(invoice_date) AS y, COUNT(*) AS n FROM invoice"
                    + " GROUP BY customer_id, YEAR(invoice_date) WITH ROLLUP", null),
            my("SELECT CAST(total AS SIGNED) AS t FROM invoice", null),
            my("SELECT t.name, t.unit_price FROM track t WHERE t.name REGEXP '^A'", null),
            my("SELECT DATEDIFF(NOW(), invoice_date) AS age_days FROM invoice", null),
            my("SELECT c.country, COUNT(*) AS n FROM customer AS c GROUP BY c.country HAVING n > 3", null),
            my("SELECT last_name, ROW_NUMBER() OVER (ORDER BY hire_date) AS rn FROM employee", null),
            my("SELECT TIMESTAMPDIFF(DAY, birth_date, hire_date) AS days FROM employee", null));

    private static Query pg(String db, String sql, String label) {
        return new Query(db, TestEngine.POSTGRESQL, sql, label);
    }

    private static Query my(String sql, String label) {
        return new Query("chinook", TestEngine.MYSQL, sql, label);
    }

    /** A tally of one library on one slice of the corpus. */
    static final class Tally {
        int total;
        int parsed;
        int bound;
        int labelled;
        int lineageRight;
        final List<String> misses = new ArrayList<>();
        final Map<String, Integer> failures = new TreeMap<>();
        int bothBound;
        int agree;
        final List<String> disagreements = new ArrayList<>();
        int deparsed;
        int deparsedSameRows;
        final List<String> deparseMisses = new ArrayList<>();

        void fail(String why) {
            failures.merge(why.length() > 110 ? why.substring(0, 107) + "..." : why, 1, Integer::sum);
        }
    }

    @Test
    void writeFigures() throws Exception {
        Map<String, Catalog> catalogs = new HashMap<>();
        catalogs.put("chinook", ddl("chinook.sql"));
        catalogs.put("northwind", ddl("northwind.sql"));
        Map<String, Tally> jsql = new TreeMap<>();
        Map<String, Tally> calcite = new TreeMap<>();

        // (a) Spider dev gold queries against their live SQLite catalogs.
        JsonNode questions = new ObjectMapper().readTree(Bench.root().resolve("spider/dev_questions.json").toFile());
        Map<String, Catalog> spider = new HashMap<>();
        int skipped = 0;
        for (JsonNode q : questions) {
            String db = q.get("db_id").asText();
            if (!Files.exists(Bench.root().resolve("spider/database").resolve(db).resolve(db + ".sqlite"))) {
                skipped++;   // the repository keeps 19 of the dev set's databases
                continue;
            }
            Catalog catalog = spider.computeIfAbsent(db, ParserChoiceFigures::spiderCatalog);
            Query query = new Query(db, TestEngine.SQLITE, q.get("query").asText(), null);
            run("spider/sqlite", query, catalog, jsql, calcite);
            deparse(query, catalog, jsql.get("spider/sqlite"));
        }
        // (b) the analyst corpus, the PostgreSQL texts run again as DuckDB.
        for (Query q : ANALYST) {
            run("analyst/" + q.engine().name().toLowerCase(Locale.ROOT), q, catalogs.get(q.db()), jsql, calcite);
            if (q.engine() == TestEngine.POSTGRESQL) {
                run("analyst/duckdb", new Query(q.db(), TestEngine.DUCKDB, q.sql(), q.label()), catalogs.get(q.db()), jsql, calcite);
            }
        }

        StringBuilder out = new StringBuilder();
        out.append("Agent SQL parser choice (generated by ParserChoiceFigures)\n");
        out.append("Spider dev gold queries whose database bench/spider lacks: ").append(skipped).append(" skipped\n\n");
        out.append(String.format("%-18s %-9s %6s %8s %8s %12s%n", "slice", "library", "total", "parsed", "bound", "lineage ok"));
        for (String slice : jsql.keySet()) {
            for (var e : List.of(Map.entry("jsqlparser", jsql.get(slice)), Map.entry("calcite", calcite.get(slice)))) {
                Tally t = e.getValue();
                out.append(String.format("%-18s %-9s %6d %8s %8s %12s%n", slice, e.getKey(), t.total,
                        pct(t.parsed, t.total), pct(t.bound, t.total),
                        t.labelled == 0 ? "-" : t.lineageRight + "/" + t.labelled));
            }
        }
        Timing jsqlTiming = timing(Lib.JSQL, catalogs.get("chinook"));
        Timing calciteTiming = timing(Lib.CALCITE, catalogs.get("chinook"));
        out.append(String.format("%nwarm per-call parse+bind+lineage over the %d chinook queries (after %d warm-up rounds)%n",
                jsqlTiming.calls, WARMUP));
        out.append(String.format("  jsqlparser+binder p50 %.3f ms, p99 %.3f ms%n", jsqlTiming.p50, jsqlTiming.p99));
        out.append(String.format("  calcite            p50 %.3f ms, p99 %.3f ms%n", calciteTiming.p50, calciteTiming.p99));
        out.append("\ncold start: first parse+bind in a fresh JVM (median of 3; JVM start to result in brackets)\n");
        long[] coldJsql = coldStart("jsql");
        long[] coldCalcite = coldStart("calcite");
        out.append(String.format("  jsqlparser+binder %d ms  [%d ms]%n", coldJsql[0], coldJsql[1]));
        out.append(String.format("  calcite            %d ms  [%d ms]%n", coldCalcite[0], coldCalcite[1]));
        out.append("\nwhy a query was not bound (slice, library: count x reason; first 12 per slice)\n");
        for (String slice : jsql.keySet()) {
            for (var e : List.of(Map.entry("jsqlparser", jsql.get(slice)), Map.entry("calcite", calcite.get(slice)))) {
                e.getValue().failures.entrySet().stream()
                        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(12)
                        .forEach(f -> out.append(String.format("  %s, %s: %d x %s%n", slice, e.getKey(), f.getValue(), f.getKey())));
            }
        }
        out.append("\nunlabelled lineage: where both bound, the two libraries' per-output source sets agree on\n");
        for (String slice : jsql.keySet()) {
            Tally t = jsql.get(slice);
            out.append(String.format("  %-18s %d of %d queries%n", slice, t.agree, t.bothBound));
        }
        out.append("  first disagreements on Spider:\n");
        jsql.get("spider/sqlite").disagreements.stream().limit(8).forEach(d -> out.append("    ").append(d).append('\n'));
        int[] pg = deparseOnPostgres(catalogs);
        out.append(String.format("%nthe same on PostgreSQL (embedded, Chinook and Northwind loaded): of %d bound analyst queries,"
                + " %d return the same rows (as multisets) from the rendering as from the original text%n", pg[0], pg[1]));
        Tally spiderTally = jsql.get("spider/sqlite");
        out.append(String.format("%nexecuting the deparsed AST instead of the text (the tool step's plan): of %d bound Spider"
                + " queries, %d return the same rows on SQLite as the original text%n", spiderTally.deparsed,
                spiderTally.deparsedSameRows));
        spiderTally.deparseMisses.stream().limit(5).forEach(m -> out.append("    ").append(m).append('\n'));
        out.append("\nlineage misses (first 40)\n");
        for (var e : List.of(Map.entry("jsqlparser", jsql), Map.entry("calcite", calcite))) {
            int shown = 0;
            for (Tally t : e.getValue().values()) {
                for (String miss : t.misses) {
                    if (shown++ < 40) {
                        out.append("  ").append(e.getKey()).append(": ").append(miss).append('\n');
                    }
                }
            }
        }
        Path file = Path.of("target", "sql-guard", "parser-choice.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, out);
        System.out.println(out);

        // What the decision rests on: the chosen path parses and binds the analyst corpus and gets its lineage right.
        Tally pgJsql = jsql.get("analyst/postgresql");
        assertEquals(pgJsql.labelled, pgJsql.lineageRight, "JSqlParser+binder lineage on the labelled PostgreSQL queries");
        assertTrue(jsql.get("spider/sqlite").parsed * 100 >= 95 * jsql.get("spider/sqlite").total, "Spider parse coverage");
    }

    private static String pct(int part, int total) {
        return total == 0 ? "-" : String.format("%.1f%%", 100.0 * part / total);
    }

    private static Catalog ddl(String file) throws Exception {
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + Bench.sampleDb(file)))) {
            return source.introspect(IntrospectionOptions.withoutSamples());
        }
    }

    private static Catalog spiderCatalog(String db) {
        Path file = Bench.root().resolve("spider/database").resolve(db).resolve(db + ".sqlite");
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + file))) {
            return source.introspect(IntrospectionOptions.withoutSamples());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(String slice, Query q, Catalog catalog, Map<String, Tally> jsql, Map<String, Tally> calcite) {
        Tally j = jsql.computeIfAbsent(slice, s -> new Tally());
        Tally c = calcite.computeIfAbsent(slice, s -> new Tally());
        j.total++;
        c.total++;
        try {
            CCJSqlParserUtil.parseStatements(q.sql());
            j.parsed++;
        } catch (Exception e) {
            // counted as not parsed
        }
        GuardResult result = SqlGuard.check(q.sql(), q.engine().rules(), catalog);
        List<Set<String>> jsqlLineage = null;
        if (result instanceof Refusal r) {
            j.fail(r.reason().wireName() + ": " + r.message());
        }
        if (result instanceof BoundSelect b) {
            j.bound++;
            jsqlLineage = b.outputs().stream().map(o -> shortNames(o.lineage())).toList();
        }
        List<Set<String>> calciteLineage = null;
        try {
            Planner planner = Frameworks.getPlanner(calciteConfig(q.engine(), catalog));
            SqlNode node = planner.parse(forCalcite(q.sql()));
            c.parsed++;
            RelNode rel = planner.rel(planner.validate(node)).project();
            c.bound++;
            calciteLineage = calciteLineage(rel);
            planner.close();
        } catch (Throwable e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String message = String.valueOf(root.getMessage()).split("\n")[0];
            c.fail(e.getClass().getSimpleName() + ": " + message.replaceAll("line \\d+, column \\d+", "line L, column C"));
        }
        if (jsqlLineage != null && calciteLineage != null) {
            j.bothBound++;
            if (jsqlLineage.equals(calciteLineage)) {
                j.agree++;
            } else {
                j.disagreements.add(q.sql() + "\n      jsqlparser " + jsqlLineage + "\n      calcite    " + calciteLineage);
            }
        }
        if (q.label() != null) {
            List<Set<String>> expected = label(q.label());
            j.labelled++;
            c.labelled++;
            if (expected.equals(jsqlLineage)) {
                j.lineageRight++;
            } else {
                j.misses.add(q.sql() + "\n      expected " + expected + " got " + (jsqlLineage == null ? result : jsqlLineage));
            }
            if (expected.equals(calciteLineage)) {
                c.lineageRight++;
            } else {
                c.misses.add(q.sql() + "\n      expected " + expected + " got " + calciteLineage);
            }
        }
    }

    /** Calcite parses a query, not a statement: a trailing ';' (a quarter of Spider's gold texts) is taken off first. */
    static String forCalcite(String sql) {
        return sql.strip().replaceAll(";+$", "");
    }

    private static Set<String> shortNames(Set<ColumnRef> refs) {
        Set<String> names = new TreeSet<>();
        refs.forEach(r -> names.add(r.shortName()));
        return names;
    }

    /** Runs the original text and JSqlParser's rendering of the bound AST on SQLite and compares the rows. */
    private static void deparse(Query q, Catalog catalog, Tally tally) {
        if (!(SqlGuard.check(q.sql(), q.engine().rules(), catalog) instanceof BoundSelect bound)) {
            return;
        }
        tally.deparsed++;
        Path file = Bench.root().resolve("spider/database").resolve(q.db()).resolve(q.db() + ".sqlite");
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection c = config.createConnection("jdbc:sqlite:" + file)) {
            List<List<String>> original = rows(c, q.sql());
            List<List<String>> rendered = rows(c, bound.ast().toString());
            if (original.equals(rendered)) {
                tally.deparsedSameRows++;
            } else {
                tally.deparseMisses.add(q.sql() + "\n      rendered " + bound.ast());
            }
        } catch (SQLException e) {
            tally.deparseMisses.add(q.sql() + "\n      rendered " + bound.ast() + "\n      " + e.getMessage());
        }
    }

    /** The analyst PostgreSQL queries, original text against rendering, on a real PostgreSQL: {bound, same rows}. */
    private static int[] deparseOnPostgres(Map<String, Catalog> catalogs) throws SQLException {
        TestPostgres.loadSample("chinook", "chinook.sql");
        TestPostgres.loadSample("guard_figures_northwind", "northwind.sql");
        int bound = 0;
        int same = 0;
        for (Query q : ANALYST) {
            if (q.engine() != TestEngine.POSTGRESQL
                    || !(SqlGuard.check(q.sql(), q.engine().rules(), catalogs.get(q.db())) instanceof BoundSelect b)) {
                continue;
            }
            bound++;
            String database = q.db().equals("chinook") ? "chinook" : "guard_figures_northwind";
            try (Connection c = TestPostgres.connect(database)) {
                List<List<String>> original = new ArrayList<>(rows(c, q.sql()));
                List<List<String>> rendered = new ArrayList<>(rows(c, b.ast().toString()));
                original.sort(Comparator.comparing(Object::toString));
                rendered.sort(Comparator.comparing(Object::toString));
                if (original.equals(rendered)) {
                    same++;
                } else {
                    System.out.println("rendering differs: " + q.sql() + "\n  " + b.ast());
                }
            } catch (SQLException e) {
                System.out.println("rendering fails: " + q.sql() + "\n  " + b.ast() + "\n  " + e.getMessage());
            }
        }
        return new int[] {bound, same};
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next() && rows.size() < 2000) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    static List<Set<String>> label(String label) {
        List<Set<String>> outputs = new ArrayList<>();
        for (String output : label.split("\\|", -1)) {
            Set<String> sources = new TreeSet<>();
            for (String s : output.split(",")) {
                if (!s.isBlank()) {
                    sources.add(s.strip());
                }
            }
            outputs.add(sources);
        }
        return outputs;
    }

    // ---- Calcite ------------------------------------------------------------------------------------------------

    static FrameworkConfig calciteConfig(TestEngine engine, Catalog catalog) {
        SqlParser.Config parser = SqlParser.config()
                .withParserFactory(SqlBabelParserImpl.FACTORY)
                .withConformance(SqlConformanceEnum.BABEL)
                .withCaseSensitive(false)
                .withUnquotedCasing(Casing.UNCHANGED)
                .withQuotedCasing(Casing.UNCHANGED);
        EnumSet<SqlLibrary> libraries = EnumSet.of(SqlLibrary.STANDARD);
        switch (engine) {
            case MYSQL -> {
                // Calcite takes "..." as a string only in its BigQuery lexical state (backticks, backslash escapes).
                parser = parser.withQuoting(Quoting.BACK_TICK_BACKSLASH)
                        .withCharLiteralStyles(Set.of(CharLiteralStyle.BQ_SINGLE, CharLiteralStyle.BQ_DOUBLE));
                libraries.add(SqlLibrary.MYSQL);
            }
            case SQLITE -> {
                // SQLite takes "..." for a string when it names no column, as Spider's queries rely on.
                // Calcite takes "..." as a string only in its BigQuery lexical state (backticks, backslash escapes).
                parser = parser.withQuoting(Quoting.BACK_TICK_BACKSLASH)
                        .withCharLiteralStyles(Set.of(CharLiteralStyle.BQ_SINGLE, CharLiteralStyle.BQ_DOUBLE));
                libraries.addAll(List.of(SqlLibrary.MYSQL, SqlLibrary.POSTGRESQL, SqlLibrary.BIG_QUERY, SqlLibrary.SPARK));
            }
            case POSTGRESQL, DUCKDB -> {
                parser = parser.withQuoting(Quoting.DOUBLE_QUOTE);
                libraries.add(SqlLibrary.POSTGRESQL);
            }
        }
        SchemaPlus root = Frameworks.createRootSchema(false);
        String schemaName = catalog.tables().isEmpty() ? "main" : catalog.tables().get(0).name().schema();
        SchemaPlus schema = root.add(schemaName, new CatalogSchema(catalog));
        return Frameworks.newConfigBuilder()
                .parserConfig(parser)
                .defaultSchema(schema)
                .operatorTable(SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(libraries))
                .sqlValidatorConfig(SqlValidator.Config.DEFAULT.withConformance(SqlConformanceEnum.BABEL)
                        .withIdentifierExpansion(true))
                .build();
    }

    /** The catalog as Calcite tables, column types mapped loosely (SQLite declares almost anything). */
    static final class CatalogSchema extends AbstractSchema {
        private final Map<String, org.apache.calcite.schema.Table> tables = new LinkedHashMap<>();

        CatalogSchema(Catalog catalog) {
            for (dev.schemabrain.catalog.Table t : catalog.tables()) {
                tables.put(t.name().table(), new AbstractTable() {
                    @Override
                    public RelDataType getRowType(RelDataTypeFactory types) {
                        RelDataTypeFactory.Builder row = types.builder();
                        for (Column c : t.columns()) {
                            row.add(c.name(), types.createTypeWithNullability(types.createSqlType(type(c.dataType())), true));
                        }
                        return row.build();
                    }
                });
            }
        }

        @Override
        protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
            return tables;
        }

        private static SqlTypeName type(String declared) {
            String d = declared.toLowerCase(Locale.ROOT);
            if (d.contains("int")) {
                return SqlTypeName.BIGINT;
            }
            if (d.contains("num") || d.contains("dec") || d.contains("real") || d.contains("double")
                    || d.contains("float") || d.contains("money")) {
                return SqlTypeName.DOUBLE;
            }
            if (d.contains("timestamp") || d.contains("datetime")) {
                return SqlTypeName.TIMESTAMP;
            }
            if (d.equals("date")) {
                return SqlTypeName.DATE;
            }
            if (d.contains("bool")) {
                return SqlTypeName.BOOLEAN;
            }
            return SqlTypeName.VARCHAR;
        }
    }

    static List<Set<String>> calciteLineage(RelNode rel) {
        RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
        List<Set<String>> outputs = new ArrayList<>();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            Set<RelColumnOrigin> origins = mq.getColumnOrigins(rel, i);
            Set<String> names = new TreeSet<>();
            if (origins == null) {
                names.add("?unknown");
            } else {
                for (RelColumnOrigin o : origins) {
                    List<String> qualified = o.getOriginTable().getQualifiedName();
                    names.add(qualified.get(qualified.size() - 1) + "."
                            + o.getOriginTable().getRowType().getFieldNames().get(o.getOriginColumnOrdinal()));
                }
            }
            outputs.add(names);
        }
        return outputs;
    }

    // ---- timing -------------------------------------------------------------------------------------------------

    enum Lib { JSQL, CALCITE }

    record Timing(int calls, double p50, double p99) {
    }

    static final int WARMUP = 30;

    static boolean once(Lib lib, Query q, Catalog catalog) {
        if (lib == Lib.JSQL) {
            GuardResult r = SqlGuard.check(q.sql(), q.engine().rules(), catalog);
            return r instanceof BoundSelect;
        }
        try {
            Planner planner = Frameworks.getPlanner(calciteConfig(q.engine(), catalog));
            RelNode rel = planner.rel(planner.validate(planner.parse(forCalcite(q.sql())))).project();
            calciteLineage(rel);
            planner.close();
            return true;
        } catch (Throwable e) {
            return false;
        }
    }

    private static Timing timing(Lib lib, Catalog chinook) {
        List<Query> queries = ANALYST.stream().filter(q -> q.db().equals("chinook") && q.engine() == TestEngine.POSTGRESQL).toList();
        for (int round = 0; round < WARMUP; round++) {
            for (Query q : queries) {
                once(lib, q, chinook);
            }
        }
        List<Long> nanos = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            for (Query q : queries) {
                long start = System.nanoTime();
                once(lib, q, chinook);
                nanos.add(System.nanoTime() - start);
            }
        }
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Timing(queries.size(), sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6);
    }

    private static long[] coldStart(String lib) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long[] firsts = new long[3];
        long[] totals = new long[3];
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-Dschemabrain.bench=" + Bench.root().toAbsolutePath(), ColdStart.class.getName(), lib)
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            p.waitFor(120, TimeUnit.SECONDS);
            totals[i] = (System.nanoTime() - start) / 1_000_000;
            String line = Arrays.stream(output.split("\n")).filter(l -> l.startsWith("first-call-ms ")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("cold start run printed " + output));
            firsts[i] = Long.parseLong(line.substring("first-call-ms ".length()).strip());
        }
        Arrays.sort(firsts);
        Arrays.sort(totals);
        return new long[] {firsts[1], totals[1]};
    }

    /** Run in a fresh JVM: load the Chinook catalog, then time the first parse+bind+lineage of one query. */
    public static final class ColdStart {
        public static void main(String[] args) throws Exception {
            Catalog chinook = ddl("chinook.sql");
            Query q = ANALYST.get(3);
            long start = System.nanoTime();
            boolean ok = once(args[0].equals("calcite") ? Lib.CALCITE : Lib.JSQL, q, chinook);
            System.out.println("first-call-ms " + (System.nanoTime() - start) / 1_000_000);
            System.out.println("ok " + ok);
        }
    }
}
