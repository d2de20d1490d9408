package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.postgres.log.SearchPathSetting;
import dev.schemabrain.pii.PiiTags;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Unqualified names in a logged statement (issue 30): resolved through what is known of the path the statement ran
 * with, else the one indexed schema that has the name; several candidates are ambiguous and skipped, none is
 * unresolved and skipped, and both are counted. A resolved name is written qualified in the example.
 */
class SearchPathResolutionTest {

    /** invoice exists in billing and in public; customer only in billing. */
    private static final Catalog CATALOG = new Catalog(List.of(
            table("billing.invoice").columns("invoice_id", "customer_id").pk("invoice_id").build(),
            table("billing.customer").columns("customer_id").pk("customer_id").build(),
            table("public.invoice").columns("invoice_id").pk("invoice_id").build()));

    private static LogAnalysis.Result pg(Map<String, List<String>> rolePaths, LoggedStatement... logged) {
        return LogAnalysis.analyze(List.of(logged), CATALOG, List.of(), rolePaths, PiiTags.NONE, Lexis.POSTGRESQL);
    }

    private static List<String> sql(LogAnalysis.Result r) {
        return r.statements().stream().map(s -> s.normalizedSql()).toList();
    }

    @Test
    void aNameInOneIndexedSchemaResolvesThereAndIsWrittenQualified() {
        LogAnalysis.Result r = pg(Map.of(), new LoggedStatement("SELECT count(*) FROM customer c JOIN \"customer\" d USING (customer_id)", 4, "app", null));
        assertEquals(List.of("SELECT count(*) FROM billing.customer c JOIN billing.\"customer\" d USING (customer_id)"), sql(r));
    }

    @Test
    void aNameInSeveralSchemasIsAmbiguousUnlessThePathSaysWhich() {
        LoggedStatement query = new LoggedStatement("SELECT invoice_id FROM invoice", 3, "app", null);
        LogAnalysis.Result none = pg(Map.of(), query);
        assertEquals(List.of(), sql(none));
        assertEquals(1, none.ambiguous());
        LogAnalysis.Result session = pg(Map.of(), new LoggedStatement("SET search_path = billing", 1, "app", null), query);
        assertEquals(List.of("SELECT invoice_id FROM billing.invoice"), sql(session));
        LogAnalysis.Result role = pg(Map.of("app", List.of("public")), query);
        assertEquals(List.of("SELECT invoice_id FROM public.invoice"), sql(role));
        // The role's path says public, its session said billing: either could have run.
        LogAnalysis.Result both = pg(Map.of("app", List.of("public")), new LoggedStatement("set search_path to billing, public", 1, "app", null), query);
        assertEquals(1, both.ambiguous());
        // Another role's SET says nothing about this one.
        LogAnalysis.Result other = pg(Map.of(), new LoggedStatement("SET search_path = billing", 1, "etl", null), query);
        assertEquals(1, other.ambiguous());
        // $user expands to the role.
        LogAnalysis.Result user = pg(Map.of("billing", List.of("$user", "public")), new LoggedStatement("SELECT invoice_id FROM invoice", 1, "billing", null));
        assertEquals(List.of("SELECT invoice_id FROM billing.invoice"), sql(user));
    }

    @Test
    void aNameNoIndexedSchemaHasIsUnresolvedButSystemCatalogsAreNot() {
        LogAnalysis.Result r = pg(Map.of(), new LoggedStatement("SELECT * FROM ledger", 1, "app", null),
                new LoggedStatement("SELECT relname FROM pg_class", 1, "app", null));
        assertEquals(1, r.unresolved());
        assertEquals(1, r.elsewhere());
        assertEquals(List.of(), sql(r));
    }

    @Test
    void mysqlResolvesInTheStatementsDefaultDatabaseOnly() {
        LogAnalysis.Result r = LogAnalysis.analyze(List.of(
                        new LoggedStatement("SELECT `invoice_id` FROM `invoice` WHERE `customer_id` = ?", 2, null, "public"),
                        new LoggedStatement("SELECT `customer_id` FROM `customer`", 2, null, "public")),
                CATALOG, List.of("billing"), Map.of(), PiiTags.NONE, Lexis.MYSQL);
        assertEquals(List.of("SELECT `invoice_id` FROM public.`invoice` WHERE `customer_id` = ?"), sql(r));
        assertEquals(1, r.unresolved(), "customer is not in the default database public");
    }

    @Test
    void searchPathSettingsParseAsTheServerReadsThem() {
        assertEquals(List.of("$user", "public"), SearchPathSetting.parse("\"$user\", public"));
        assertEquals(List.of("Billing", "sales"), SearchPathSetting.parse("\"Billing\",Sales"));
        assertEquals(List.of("billing"), SearchPathSetting.ofStatement("SET LOCAL search_path TO 'billing';").orElseThrow());
        assertEquals(Optional.empty(), SearchPathSetting.ofStatement("SET search_path = DEFAULT"));
        assertEquals(Optional.empty(), SearchPathSetting.ofStatement("SET statement_timeout = 5"));
    }
}
