package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.mining.StatementAnalysis.ColumnRef;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.semantic.JoinGraph;
import dev.schemabrain.semantic.QueryLogJoin;
import dev.schemabrain.semantic.SemanticInference;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.testing.TestCatalogs;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The normalizer, the analyzer and the join seam on the Chinook catalog shape. */
class StatementAnalysisTest {

    private static final Catalog CHINOOK = TestCatalogs.chinook();
    private static final StatementAnalyzer ANALYZER = new StatementAnalyzer(CHINOOK, SearchPaths.of(CHINOOK, List.of("public")),
            PiiTags.NONE);

    private static String pg(String sql) {
        return SqlNormalizer.normalize(sql, Lexis.POSTGRESQL, n -> true);
    }

    @Test
    void everyLiteralAndCommentBecomesAPlaceholderOrGoes() {
        assertEquals("SELECT * FROM t WHERE a = ? AND b = ? AND c IN (?) AND d = ?",
                pg("SELECT *\n FROM t WHERE a = 'it''s x@y.org' AND b = E'\\'q' AND c IN (...) AND d = $1"));
        assertEquals("SELECT t1.c2 FROM \"T 3\" WHERE x > ? AND y = ? AND z = ?",
                pg("SELECT t1.c2 FROM \"T 3\" /* secret@x.org */ WHERE x > 1.5e3 AND y = $tag$a$tag$ -- 42\n AND z = 0x1F"));
        assertEquals("SELECT ? FROM `t`", SqlNormalizer.normalize("SELECT _utf8mb4'v' FROM `t`", Lexis.MYSQL, n -> false));
        assertEquals(SqlNormalizer.fingerprint("SELECT ?"), SqlNormalizer.fingerprint("SELECT ?"));
    }

    @Test
    void aliasesCtesSubqueriesAndWhereFormJoinsResolveToCatalogTables() {
        StatementAnalysis a = ANALYZER.analyze(pg(
                "WITH big AS (SELECT invoice_id FROM invoice WHERE total > 10) SELECT c.email, count(*) FROM big b, invoice_line il,"
                        + " track t, customer c WHERE il.invoice_id = b.invoice_id AND il.track_id = t.track_id"
                        + " AND c.customer_id IN (SELECT i.customer_id FROM invoice i WHERE i.invoice_id = il.invoice_id)"
                        + " GROUP BY c.email ORDER BY 2")).orElseThrow();
        assertEquals(StatementAnalysis.Kind.SELECT, a.kind());
        assertEquals(List.of(qn("public.invoice"), qn("public.invoice_line"), qn("public.track"), qn("public.customer")), a.tables());
        assertEquals(Set.of("count"), a.aggregates());
        assertTrue(a.joins().contains(ObservedJoin.of(qn("public.invoice_line"), List.of("track_id"), qn("public.track"), List.of("track_id"))));
        assertTrue(a.joins().contains(ObservedJoin.of(qn("public.invoice"), List.of("invoice_id"), qn("public.invoice_line"), List.of("invoice_id"))),
                "a correlated subquery's equality is a join: " + a.joins());
        assertEquals(2, a.joins().size(), "the CTE is no table: " + a.joins());
        assertEquals(Set.of("group_by", "select"), a.columns().get(new ColumnRef(qn("public.customer"), "email")));
        assertEquals(Set.of("filter"), a.columns().get(new ColumnRef(qn("public.invoice"), "total")));
    }

    @Test
    void writesCountPerTableAndGarbageIsAParseFailure() {
        StatementAnalysis w = ANALYZER.analyze("UPDATE track SET unit_price = ? WHERE track_id = ?").orElseThrow();
        assertEquals(StatementAnalysis.Kind.WRITE, w.kind());
        assertEquals(List.of(qn("public.track")), w.written());
        assertTrue(ANALYZER.analyze("SELEC nonsense FROM").isEmpty());
        assertFalse(ANALYZER.analyze("SELECT relname FROM pg_class").orElseThrow().touchesCatalog());
    }

    @Test
    void aForeignKeyAlwaysWinsOverAnObservation() {
        QueryLogJoin lineTrack = QueryLogJoin.of(CHINOOK.byName(), qn("public.track"), List.of("track_id"),
                qn("public.invoice_line"), List.of("track_id"), 50).orElseThrow();
        assertEquals(qn("public.invoice_line"), lineTrack.many(), "oriented by the key");
        QueryLogJoin audit = QueryLogJoin.of(CHINOOK.byName(), qn("public.audit_log"), List.of("id"),
                qn("public.customer"), List.of("customer_id"), 2).orElseThrow();
        assertEquals(ValidationState.DRAFT, audit.state());
        assertTrue(QueryLogJoin.of(CHINOOK.byName(), qn("public.customer"), List.of("email"), qn("public.employee"),
                List.of("last_name"), 9).isEmpty(), "no key on either side: no join");

        JoinGraph graph = new JoinGraph(CHINOOK, List.of(lineTrack, audit));
        JoinGraph.Path fk = graph.paths(List.of(qn("public.invoice_line"), qn("public.track")), 6).paths().get(0);
        assertEquals(JoinGraph.Via.FOREIGN_KEY, fk.steps().get(0).via());
        JoinGraph.Path seen = graph.paths(List.of(qn("public.audit_log"), qn("public.invoice")), 6).paths().get(0);
        assertEquals(JoinGraph.Via.QUERY_LOG, seen.steps().get(0).via());
        assertEquals(ValidationState.DRAFT, seen.steps().get(0).observed());

        List<Join> joins = new SemanticInference(t -> null).infer(CHINOOK, List.of(lineTrack, audit), List.of(), (table, column) -> true).joins();
        assertEquals(1, joins.stream().filter(j -> j.origin().method().wireName().equals("observed_in_query_log")).count(),
                "only the join no key makes: " + joins);
    }
}
