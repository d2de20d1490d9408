package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.QueryLogRepository;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Yes/no filters on yes/no columns, however written ({@code = false}, {@code IS FALSE}, {@code NOT flag}, a bare
 * flag, {@code <> TRUE}, {@code = 0} on a 0/1 number column, {@code = 'f'}), are recorded as one filter with the
 * value kept, and the example keeps the literal; the same shapes on other columns keep nothing.
 */
class FlagFiltersTest {

    private static Column column(String name, String type, boolean nullable, List<String> samples) {
        return new Column(name, 1, type, nullable, null, null, samples);
    }

    private static final Catalog CATALOG = new Catalog(List.of(
            new Table(qn("shop.orders"), TableKind.TABLE, 1000L, null, List.of(
                    column("order_id", "integer", false, List.of("1", "2")),
                    column("is_test", "boolean", false, List.of("false", "true")),
                    column("archived", "boolean", true, List.of("false")),
                    column("deleted", "integer", false, List.of("0", "1")),
                    column("quantity", "integer", false, List.of("0", "1", "2", "7")),
                    new Column("gift", 6, "tinyint(1)", false, null, null, List.of("0", "1"), List.of(), Domain.BOOLEAN),
                    column("note", "text", true, List.of("false"))),
                    List.of("order_id"), List.of(), List.of(), null)));

    private static LogAnalysis.Result analyze(String... sql) {
        return LogAnalysis.analyze(java.util.Arrays.stream(sql).map(s -> new LoggedStatement(s, 1)).toList(), CATALOG,
                List.of("shop"), PiiTags.NONE, Lexis.POSTGRESQL);
    }

    private static List<String> filters(String sql) {
        return analyze(sql).observedFilters().stream().map(ObservedFilter::describe).sorted().toList();
    }

    private static String example(String sql) {
        List<QueryLogRepository.Statement> stored = analyze(sql).statements();
        assertEquals(1, stored.size(), sql);
        return stored.get(0).normalizedSql();
    }

    @Test
    void everySpellingOfNotATestRowIsOneFilter() {
        List<String> spellings = List.of(
                "SELECT count(*) FROM orders WHERE is_test = false",
                "SELECT count(*) FROM orders WHERE FALSE = is_test",
                "SELECT count(*) FROM orders WHERE is_test IS FALSE",
                "SELECT count(*) FROM orders WHERE is_test IS NOT TRUE",
                "SELECT count(*) FROM orders WHERE NOT is_test",
                "SELECT count(*) FROM orders WHERE is_test <> true",
                "SELECT count(*) FROM orders WHERE is_test = 'f'",
                "SELECT count(*) FROM orders o WHERE o.order_id > 3 AND NOT (o.is_test)");
        for (String sql : spellings) {
            assertTrue(filters(sql).contains("shop.orders.is_test = false"), sql + " -> " + filters(sql));
        }
        LogAnalysis.Result all = analyze(spellings.toArray(String[]::new));
        ObservedFilter merged = all.observedFilters().stream().filter(f -> f.column().equals("is_test")).findFirst().orElseThrow();
        assertEquals(spellings.size(), merged.statements(), "one filter over every statement: " + all.observedFilters());
    }

    @Test
    void bareFlagsTrueFormsAndNumberFlags() {
        assertEquals(List.of("shop.orders.archived = true"), filters("SELECT count(*) FROM orders WHERE archived"));
        assertEquals(List.of("shop.orders.archived = true"), filters("SELECT count(*) FROM orders WHERE archived IS TRUE"));
        assertEquals(List.of("shop.orders.deleted = 0"), filters("SELECT count(*) FROM orders WHERE deleted = 0"));
        assertEquals(List.of("shop.orders.deleted = 0"), filters("SELECT count(*) FROM orders WHERE deleted <> 1"));
        assertEquals(List.of("shop.orders.gift = true"), filters("SELECT count(*) FROM orders WHERE gift = 1"),
                "a tinyint(1) is a boolean");
        assertEquals("SELECT count(*) FROM shop.orders WHERE deleted = 0 AND is_test = 'f' AND quantity = ?",
                example("SELECT count(*) FROM orders WHERE deleted = 0 AND is_test = 'f' AND quantity = 1"),
                "yes/no literals stay in the example, a quantity does not");
    }

    @Test
    void nothingYesNoWhereTheColumnOrTheTestIsNot() {
        assertEquals(List.of("shop.orders.quantity = ?"), filters("SELECT count(*) FROM orders WHERE quantity = 0"),
                "a quantity that is sometimes 0 or 1 is no flag");
        assertEquals(List.of("shop.orders.note = ?"), filters("SELECT count(*) FROM orders WHERE note = 'false'"));
        assertEquals(List.of(), filters("SELECT count(*) FROM orders WHERE archived IS NOT TRUE"),
                "on a nullable column IS NOT TRUE also keeps NULL rows: no = false");
        assertEquals(List.of("shop.orders.deleted > ?"), filters("SELECT count(*) FROM orders WHERE deleted > 0"));
        assertEquals(List.of("shop.orders.deleted = ?"), filters("SELECT count(*) FROM orders WHERE deleted = 2"));
        assertEquals(List.of(), filters("SELECT CASE WHEN is_test THEN 1 END FROM orders"), "a flag in the select list is no filter");
    }
}
