package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.QueryLogRepository;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which literals may stay in a stored example (issue 30): written adversarially first. The catalog below holds,
 * as a store written before the PII rules might, values for the tagged columns too; none of them may come back
 * through an example. Only ordinals, date units and formats, and a value the served catalog already shows for a
 * non-PII column with few values stay.
 */
class KeptLiteralsTest {

    private static Column text(String name, List<String> samples, List<String> values, Domain domain) {
        return new Column(name, 1, "text", true, null, null, samples, values, domain);
    }

    private static final Catalog CATALOG = new Catalog(List.of(
            new Table(qn("billing.invoice"), TableKind.TABLE, 1000L, null, List.of(
                    new Column("invoice_id", 1, "integer", false, null, null, List.of()),
                    new Column("customer_id", 2, "integer", false, null, null, List.of()),
                    text("status", List.of("paid", "void"), List.of("paid", "void", "draft"), null),
                    new Column("kind", 4, "billing.invoice_kind", true, null, null, List.of(), List.of(),
                            new Domain(Domain.Kind.ENUM, "billing.invoice_kind", List.of("standard", "credit_note"))),
                    text("notes", List.of("please call me back tomorrow about the refund", "customer asked for a discount on the next order"),
                            List.of("call back"), null),
                    new Column("created_at", 6, "timestamp", false, null, null, List.of()),
                    new Column("total", 7, "numeric", false, null, null, List.of())),
                    List.of("invoice_id"), List.of(), List.of(), null),
            new Table(qn("billing.customer"), TableKind.TABLE, 1000L, null, List.of(
                    new Column("customer_id", 1, "integer", false, null, null, List.of()),
                    text("email", List.of("jane@example.org"), List.of("jane@example.org"), null),
                    text("full_name", List.of("Jane Roe"), List.of("Jane Roe", "John Smith"), null),
                    text("segment", List.of("retail"), List.of("retail", "wholesale"), null)),
                    List.of("customer_id"), List.of(), List.of(), null)));

    private static final PiiTags PII = new PiiTags(List.of(
            new PiiTags.Entry(qn("billing.customer"), "email", PiiTag.of(List.of(PiiCategory.CONTACT), List.of("name")), PiiTags.Origin.HEURISTIC),
            new PiiTags.Entry(qn("billing.customer"), "full_name", PiiTag.of(List.of(PiiCategory.CONTACT), List.of("name")), PiiTags.Origin.HEURISTIC)),
            List.of());

    /** The example stored for {@code sql}, as mined from a PostgreSQL log that kept its literals. */
    private static String stored(String sql) {
        LogAnalysis.Result r = LogAnalysis.analyze(List.of(new LoggedStatement(sql, 1)), CATALOG, List.of("billing"), Map.of(), PII,
                SqlNormalizer.Dialect.POSTGRESQL);
        assertEquals(1, r.statements().size(), () -> "stored: " + sql + " -> " + r);
        return r.statements().get(0).normalizedSql();
    }

    private static void stripped(String sql, String... values) {
        String out = stored(sql);
        for (String v : values) {
            assertFalse(out.contains(v), v + " reached the example: " + out);
        }
    }

    @Test
    void aPersonsNameAnEmailAndAnUnknownValueStayPlaceholders() {
        stripped("SELECT invoice_id FROM invoice WHERE status = 'Jane Roe'", "Jane");
        stripped("SELECT invoice_id FROM invoice WHERE status = 'jane@example.org'", "jane");
        stripped("SELECT invoice_id FROM invoice WHERE status = 'refunded'", "refunded");
        stripped("SELECT customer_id FROM customer WHERE full_name = 'Jane Roe'", "Jane");
        stripped("SELECT customer_id FROM customer WHERE email = 'jane@example.org'", "jane");
        stripped("SELECT invoice_id FROM invoice WHERE notes = 'call back'", "call back");
    }

    @Test
    void aPiiColumnReachedThroughAnAliasAFunctionOrASubqueryKeepsNothing() {
        stripped("SELECT i.invoice_id FROM invoice i JOIN customer c ON c.customer_id = i.customer_id WHERE c.email = 'jane@example.org'", "jane");
        stripped("SELECT customer_id FROM customer c WHERE lower(c.full_name) = 'jane roe'", "jane");
        stripped("SELECT customer_id FROM customer WHERE 'Jane Roe' = full_name", "Jane");
        stripped("SELECT s.e FROM (SELECT email AS e FROM customer) s WHERE s.e = 'jane@example.org'", "jane");
        stripped("SELECT customer_id FROM customer WHERE full_name LIKE 'Jane%'", "Jane");
    }

    @Test
    void caseBranchesAndMixedInListsKeepOnlyWhatTheCatalogShows() {
        String searched = stored("SELECT CASE WHEN status = 'paid' THEN 'Jane Roe' ELSE 'John Smith' END FROM invoice");
        assertTrue(searched.contains("status = 'paid'"), searched);
        assertFalse(searched.contains("Jane") || searched.contains("John"), searched);
        stripped("SELECT CASE status WHEN 'paid' THEN 1 END, CASE full_name WHEN 'Jane Roe' THEN 1 END FROM invoice, customer", "Jane", "'paid'");
        stripped("SELECT invoice_id FROM invoice WHERE status IN ('paid', 'Jane Roe')", "Jane", "'paid'");
        assertTrue(stored("SELECT invoice_id FROM invoice WHERE status IN ('paid', 'void')").contains("IN ('paid', 'void')"));
        stripped("SELECT customer_id FROM customer WHERE segment = 'retail' OR full_name IN ('retail', 'Jane Roe')", "Jane", "'retail')");
    }

    @Test
    void ordinalsDateUnitsFormatsAndKnownValuesStaySoTheExampleRuns() {
        assertEquals("SELECT billing.invoice.status, sum(total) FROM billing.invoice WHERE status = 'paid' AND kind = 'credit_note'"
                        + " GROUP BY 1 ORDER BY 2 DESC LIMIT ?",
                stored("SELECT billing.invoice.status, sum(total) FROM invoice WHERE status = 'paid' AND kind = 'credit_note'"
                        + " GROUP BY 1 ORDER BY 2 DESC LIMIT 10"));
        assertEquals("SELECT date_trunc('month', created_at), to_char(created_at, 'YYYY-MM'), count(*) FROM billing.invoice"
                        + " WHERE 'paid' = status GROUP BY 1, 2 ORDER BY ?",
                stored("SELECT date_trunc('month', created_at), to_char(created_at, 'YYYY-MM'), count(*) FROM invoice"
                        + " WHERE 'paid' = status GROUP BY 1, 2 ORDER BY 9"));
        stripped("SELECT date_trunc('Jane Roe', created_at), to_char(created_at, 'John') FROM invoice", "Jane", "John");
        stripped("SELECT status FROM invoice WHERE total > 1234567 AND invoice_id = 42", "1234567", "42");
    }

    @Test
    void observedFiltersCountStatementsAndShowOnlyKeptValues() {
        LogAnalysis.Result r = LogAnalysis.analyze(List.of(
                        new LoggedStatement("SELECT sum(total) FROM invoice WHERE status = 'paid'", 5),
                        new LoggedStatement("SELECT count(*) FROM invoice WHERE status = 'paid' AND created_at > $1", 3),
                        new LoggedStatement("SELECT customer_id FROM customer WHERE email = 'jane@example.org'", 2)),
                CATALOG, List.of("billing"), Map.of(), PII, SqlNormalizer.Dialect.POSTGRESQL);
        List<ObservedFilter> filters = r.observedFilters();
        assertEquals("billing.invoice.status = 'paid'", filters.get(0).describe());
        assertEquals(2, filters.get(0).statements());
        assertEquals(8, filters.get(0).observations());
        ObservedFilter email = filters.stream().filter(f -> f.column().equals("email")).findFirst().orElseThrow();
        assertEquals(List.of(), email.values(), "a PII column's value is never shown");
        assertEquals("billing.customer.email = ?", email.describe());
        assertTrue(filters.stream().anyMatch(f -> f.describe().equals("billing.invoice.created_at > ?")), filters.toString());
        for (QueryLogRepository.Statement s : r.statements()) {
            assertFalse(s.normalizedSql().contains("jane"), s.normalizedSql());
        }
    }
}
