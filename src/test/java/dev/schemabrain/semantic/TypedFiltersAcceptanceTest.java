package dev.schemabrain.semantic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.describe.OfflineDescriber;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.describe.Words;
import dev.schemabrain.embed.WordVocabulary;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.semantic.compile.CompileException;
import dev.schemabrain.semantic.compile.CompiledMetric;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.compile.MetricRequest;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Typed dimensions and filters on a small SaaS billing schema written for this test (not one of the
 * sample databases): PostgreSQL ENUM types (one under a domain), MariaDB ENUM and tinyint(1), SQLite CHECK lists.
 * Each engine reads the domains, and a metric filtered by and grouped by ENUM columns returns exactly what
 * hand-written SQL returns there; a typo gets invalid_argument with the domain's nearest value.
 */
public class TypedFiltersAcceptanceTest {

    static final List<String> INVOICE_STATUSES = List.of("draft", "open", "paid", "void", "uncollectible");
    static final List<String> SUBSCRIPTION_STATUSES = List.of("trialing", "active", "past_due", "canceled");
    static final List<String> PAYMENT_STATUSES = List.of("pending", "succeeded", "failed", "refunded");

    @TempDir
    static Path dir;
    static String maria;
    static Path sqlite;
    static final Map<String, Source> SOURCES = new HashMap<>();

    @BeforeAll
    static void create() throws Exception {
        TestPostgres.createDatabase("sb_typed_billing", ddl("postgresql").toArray(String[]::new));
        maria = TestMariaDb.create("sb_typed", ddl("mariadb").toArray(String[]::new));
        sqlite = dir.resolve("billing.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            for (String s : ddl("sqlite")) {
                st.execute(s);
            }
        }
    }

    @AfterAll
    static void drop() throws Exception {
        TestMariaDb.drop(maria);
    }

    /** The schema in each engine's own words, then the same rows everywhere. */
    public static List<String> ddl(String engine) {
        boolean pg = engine.equals("postgresql");
        boolean my = engine.equals("mariadb");
        String s = pg ? "billing." : "";
        List<String> out = new ArrayList<>();
        if (pg) {
            out.add("CREATE SCHEMA billing");
            out.add("CREATE TYPE billing.billing_interval AS ENUM ('month', 'year')");
            out.add("CREATE TYPE billing.subscription_status AS ENUM ('trialing', 'active', 'past_due', 'canceled')");
            out.add("CREATE TYPE billing.invoice_status AS ENUM ('draft', 'open', 'paid', 'void', 'uncollectible')");
            out.add("CREATE TYPE billing.payment_status AS ENUM ('pending', 'succeeded', 'failed', 'refunded')");
            // A domain over an ENUM: the labels are the ENUM's; PostgreSQL has no = for it, so both sides are cast to the ENUM.
            out.add("CREATE DOMAIN billing.payment_state AS billing.payment_status NOT NULL");
            // PostgreSQL keeps an IN list as = ANY (ARRAY[...]): a domain's CHECK and a column's.
            out.add("CREATE DOMAIN billing.currency_code AS CHAR(3) CHECK (VALUE IN ('USD', 'EUR', 'GBP'))");
        }
        String interval = pg ? "billing.billing_interval" : my ? "ENUM('month','year')"
                : "TEXT CHECK (billing_interval IN ('month', 'year'))";
        String subscriptionStatus = pg ? "billing.subscription_status" : my ? "ENUM('trialing','active','past_due','canceled')"
                : "TEXT CHECK (status IN ('trialing', 'active', 'past_due', 'canceled'))";
        String invoiceStatus = pg ? "billing.invoice_status" : my ? "ENUM('draft','open','paid','void','uncollectible')"
                : "TEXT";
        String paymentStatus = pg ? "billing.payment_state" : my ? "ENUM('pending','succeeded','failed','refunded')"
                : "TEXT CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded'))";
        String flag = pg ? "BOOLEAN" : my ? "TINYINT(1)" : "INTEGER CHECK (is_test IN (0, 1))";
        String id = pg ? "INTEGER" : "INT";
        out.add("CREATE TABLE " + s + "plans (plan_id " + id + " PRIMARY KEY, name VARCHAR(40) NOT NULL, billing_interval "
                + interval + " NOT NULL, price_cents BIGINT NOT NULL)");
        // The contact's gender is PII (demographic): its labels are withheld like samples.
        String gender = pg ? "billing.gender" : my ? "ENUM('female','male','diverse')"
                : "TEXT CHECK (contact_gender IN ('female', 'male', 'diverse'))";
        if (pg) {
            out.add("CREATE TYPE billing.gender AS ENUM ('female', 'male', 'diverse')");
        }
        out.add("CREATE TABLE " + s + "accounts (account_id " + id + " PRIMARY KEY, name VARCHAR(80) NOT NULL, country "
                + (pg ? "VARCHAR(2) CHECK (country IN ('US', 'DE', 'FR', 'GB'))" : "CHAR(2)") + ","
                + " is_test " + flag + " NOT NULL DEFAULT " + (pg ? "FALSE" : "0") + ", created_on DATE NOT NULL,"
                + " contact_gender " + gender + ")");
        out.add("CREATE TABLE " + s + "subscriptions (subscription_id " + id + " PRIMARY KEY, account_id " + id + " NOT NULL REFERENCES "
                + s + "accounts (account_id), plan_id " + id + " NOT NULL REFERENCES " + s + "plans (plan_id), status "
                + subscriptionStatus + " NOT NULL, started_on DATE NOT NULL)");
        // SQLite's invoice status is a table-level CHECK, the other lists are column-level.
        out.add("CREATE TABLE " + s + "invoices (invoice_id " + id + " PRIMARY KEY, subscription_id " + id + " NOT NULL REFERENCES "
                + s + "subscriptions (subscription_id), status " + invoiceStatus + " NOT NULL, currency "
                + (pg ? "billing.currency_code" : "CHAR(3)") + " NOT NULL,"
                + " amount_cents BIGINT NOT NULL, issued_on DATE NOT NULL"
                + (pg || my ? "" : ", CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible'))") + ")");
        out.add("CREATE TABLE " + s + "payments (payment_id " + id + " PRIMARY KEY, invoice_id " + id + " NOT NULL REFERENCES "
                + s + "invoices (invoice_id), status " + paymentStatus + (pg ? "" : " NOT NULL")
                + ", amount_cents BIGINT NOT NULL, paid_on DATE NOT NULL)");

        String[] plans = {"(1, 'Starter', 'month', 900)", "(2, 'Starter yearly', 'year', 9000)", "(3, 'Team', 'month', 4900)",
                "(4, 'Team yearly', 'year', 49000)"};
        out.add("INSERT INTO " + s + "plans VALUES " + String.join(", ", plans));
        List<String> accounts = new ArrayList<>();
        String[] countries = {"US", "DE", "FR", "GB", "US"};
        for (int a = 1; a <= 10; a++) {
            boolean test = a == 3 || a == 8;
            accounts.add("(" + a + ", 'Account " + a + "', '" + countries[a % countries.length] + "', " + (test ? "TRUE" : "FALSE")
                    + ", '" + LocalDate.of(2025, 1, 1).plusDays(a * 11L) + "', '" + List.of("female", "male", "diverse").get(a % 3) + "')");
        }
        out.add("INSERT INTO " + s + "accounts VALUES " + String.join(", ", accounts));
        List<String> subscriptions = new ArrayList<>();
        for (int i = 1; i <= 14; i++) {
            subscriptions.add("(" + i + ", " + ((i - 1) % 10 + 1) + ", " + ((i * 3) % 4 + 1) + ", '"
                    + SUBSCRIPTION_STATUSES.get(i % 4) + "', '" + LocalDate.of(2025, 3, 1).plusDays(i * 5L) + "')");
        }
        out.add("INSERT INTO " + s + "subscriptions VALUES " + String.join(", ", subscriptions));
        List<String> invoices = new ArrayList<>();
        for (int i = 1; i <= 48; i++) {
            invoices.add("(" + i + ", " + ((i - 1) % 14 + 1) + ", '" + INVOICE_STATUSES.get((i * 7) % 5) + "', '"
                    + (i % 3 == 0 ? "EUR" : "USD") + "', " + (1000 + (i * 137) % 5000) + ", '"
                    + LocalDate.of(2026, 1, 1).plusDays(i * 3L) + "')");
        }
        out.add("INSERT INTO " + s + "invoices VALUES " + String.join(", ", invoices));
        List<String> payments = new ArrayList<>();
        for (int i = 1; i <= 36; i++) {
            payments.add("(" + i + ", " + i + ", '" + PAYMENT_STATUSES.get(i % 4) + "', " + (1000 + (i * 137) % 5000) + ", '"
                    + LocalDate.of(2026, 1, 2).plusDays(i * 3L) + "')");
        }
        out.add("INSERT INTO " + s + "payments VALUES " + String.join(", ", payments));
        return out;
    }

    /** One engine's catalog, its inferred model plus the metrics of this test, and how hand-written SQL names tables. */
    record Source(String engine, String url, Catalog catalog, SemanticModel inferred, SemanticModel model) {

        Table table(String name) {
            return catalog.tables().stream().filter(t -> t.name().table().equals(name)).findFirst().orElseThrow();
        }

        Column column(String table, String column) {
            return table(table).column(column).orElseThrow();
        }

        /** The entity drafted over {@code table}. */
        String entity(String table) {
            return inferred.entities().stream().filter(e -> e.table().table().equals(table)).map(Entity::name).findFirst().orElseThrow();
        }

        String t(String table) {
            return engine.equals("postgresql") ? "billing." + table : table;
        }
    }

    static synchronized Source source(String engine) throws Exception {
        Source known = SOURCES.get(engine);
        if (known != null) {
            return known;
        }
        String url = switch (engine) {
            case "postgresql" -> TestPostgres.url("sb_typed_billing");
            case "mariadb" -> TestMariaDb.url(maria);
            default -> "sqlite:" + sqlite;
        };
        Catalog catalog;
        try (SchemaSource s = Sources.open(SourceUrl.parse(url))) {
            catalog = s.introspect(IntrospectionOptions.withoutSamples());
        }
        SemanticModel inferred = new SemanticInference(n -> null).infer(catalog);
        Source partial = new Source(engine, url, catalog, inferred, inferred);
        String invoice = partial.entity("invoices");
        String payment = partial.entity("payments");
        List<Metric> metrics = new ArrayList<>(inferred.metrics());
        metrics.add(new Metric("typed_invoice_amount", "Invoiced amount", invoice, Measure.of(Aggregation.SUM, "amount_cents"),
                null, List.of(), List.of(), Origin.AUTHORED));
        // An operator's default filter on an ENUM, as YAML would give it.
        metrics.add(new Metric("typed_paid_amount", "Paid amount", invoice, Measure.of(Aggregation.SUM, "amount_cents"),
                null, List.of(), List.of(new Filter(invoice + ".status", FilterOp.EQ, "paid")), Origin.AUTHORED));
        metrics.add(new Metric("typed_payment_count", "Payments", payment, Measure.of(Aggregation.COUNT, "payment_id"),
                null, List.of(), List.of(), Origin.AUTHORED));
        Source s = new Source(engine, url, catalog, inferred, new SemanticModel(inferred.entities(), inferred.joins(), metrics));
        SOURCES.put(engine, s);
        return s;
    }

    /**
     * An invoice's rows joined up to its account, which a drafted entity's default segment reaches: a test account's
     * invoices and payments are not real (the test flag travels down the required keys).
     */
    static String toAccount(Source s) {
        return " JOIN " + s.t("subscriptions") + " su ON su.subscription_id = i.subscription_id JOIN " + s.t("accounts")
                + " a ON a.account_id = su.account_id";
    }

    static MetricRequest request(String metric, List<String> groupBy, List<Filter> filters) {
        return new MetricRequest(metric, groupBy, filters, null, null, List.of(), List.of(), 10_000);
    }

    /** Runs the compiled metric and the hand-written SQL; the rows must be equal. Answers the compiled SQL. */
    static CompiledMetric assertSameRows(Source s, MetricRequest request, String handWritten) throws Exception {
        return HandWritten.assertSameRows(s.url(), (r, ex) -> new MetricCompiler(s.catalog(), s.model()).compile(r, ex.dialect()),
                request, handWritten, HandWritten::text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void introspectionReadsEachEnginesDomains(String engine) throws Exception {
        Source s = source(engine);
        Column status = s.column("invoices", "status");
        assertEquals(INVOICE_STATUSES, status.domain().values(), "labels in declared order");
        assertEquals(TypeClass.CATEGORICAL, TypeClass.of(status));
        assertEquals(TypeClass.CATEGORICAL, TypeClass.of(s.column("plans", "billing_interval")), "an ENUM is never a number");
        assertEquals(SUBSCRIPTION_STATUSES, s.column("subscriptions", "status").domain().values());
        assertEquals(PAYMENT_STATUSES, s.column("payments", "status").domain().values());
        assertEquals(TypeClass.BOOLEAN, TypeClass.of(s.column("accounts", "is_test")));
        assertNull(s.column("plans", "name").domain(), "an open type has no domain");
        assertEquals(TypeClass.NUMBER, TypeClass.of(s.column("invoices", "amount_cents")));
        switch (engine) {
            case "postgresql" -> {
                assertEquals(new Domain(Domain.Kind.ENUM, "billing.invoice_status", INVOICE_STATUSES), status.domain());
                assertEquals("billing.payment_status", s.column("payments", "status").domain().typeName(),
                        "a domain over an ENUM binds as the ENUM");
                assertNull(s.column("accounts", "is_test").domain(), "a real boolean needs no domain");
                assertEquals(new Domain(Domain.Kind.CHECK, null, List.of("USD", "EUR", "GBP")), s.column("invoices", "currency").domain(),
                        "a domain's CHECK (VALUE IN ...)");
                assertEquals(List.of("US", "DE", "FR", "GB"), s.column("accounts", "country").domain().values(),
                        "a varchar column's CHECK, printed back as = ANY ((ARRAY[...])::text[])");
            }
            case "mariadb" -> {
                assertEquals(new Domain(Domain.Kind.ENUM, null, INVOICE_STATUSES), status.domain());
                assertEquals(Domain.BOOLEAN, s.column("accounts", "is_test").domain(), "tinyint(1) is a boolean");
            }
            default -> {
                assertEquals(new Domain(Domain.Kind.CHECK, null, INVOICE_STATUSES), status.domain(), "a table-level CHECK list");
                assertEquals(Domain.Kind.CHECK, s.column("plans", "billing_interval").domain().kind(), "a column-level CHECK list");
                assertEquals(Domain.BOOLEAN, s.column("accounts", "is_test").domain(), "CHECK (is_test IN (0, 1))");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aDefaultEnumFilterAnswersAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        CompiledMetric m = assertSameRows(s, request("typed_paid_amount", List.of(invoice + ".currency"), List.of()),
                "SELECT i.currency, SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                        + " WHERE i.status = 'paid' AND a.is_test = FALSE GROUP BY i.currency ORDER BY i.currency");
        assertEquals(List.of("paid", engine.equals("postgresql") ? false : 0, 10_001), m.params());
        assertEquals(engine.equals("postgresql"), m.sql().contains("CAST(? AS \"billing\".\"invoice_status\")"), m.sql());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void anInListGroupedByTheEnumAnswersAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        // Case does not matter to the caller; the declared spelling is bound. Amounts add up per currency.
        CompiledMetric m = assertSameRows(s, request("typed_invoice_amount", List.of(invoice + ".status", invoice + ".currency"),
                        List.of(new Filter(invoice + ".status", FilterOp.IN, List.of("paid", "Open", "VOID")))),
                "SELECT i.status, i.currency, SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                        + " WHERE a.is_test = FALSE AND i.status IN ('paid', 'open', 'void') GROUP BY i.status, i.currency"
                        + " ORDER BY i.status, i.currency");
        assertEquals(List.of("paid", "open", "void"), m.params().subList(1, 4), "after the default segment's flag");
        assertSameRows(s, request("typed_invoice_amount", List.of(invoice + ".status", invoice + ".currency"),
                        List.of(new Filter(invoice + ".status", FilterOp.NOT_IN, List.of("draft", "void")))),
                "SELECT i.status, i.currency, SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                        + " WHERE a.is_test = FALSE AND i.status NOT IN ('draft', 'void') GROUP BY i.status, i.currency"
                        + " ORDER BY i.status, i.currency");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aNotEqualFilterGroupedByAParentsEnumAnswersAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        String plan = s.entity("plans");
        String subscription = s.entity("subscriptions");
        // One currency, so the amounts add up.
        assertSameRows(s, request("typed_invoice_amount", List.of(plan + ".billing_interval", subscription + ".status"),
                        List.of(new Filter(invoice + ".status", FilterOp.NE, "void"), new Filter(invoice + ".currency", FilterOp.EQ, "USD"))),
                "SELECT p.billing_interval, su.status, SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                        + " JOIN " + s.t("plans") + " p ON p.plan_id = su.plan_id"
                        + " WHERE i.status <> 'void' AND i.currency = 'USD' AND a.is_test = FALSE"
                        + " GROUP BY p.billing_interval, su.status ORDER BY p.billing_interval, su.status");
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aBooleanFilterAnswersAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        String account = s.entity("accounts");
        String invoice = s.entity("invoices");
        // The caller's filter on is_test replaces the default segment's: "yes" answers the test accounts' invoices.
        String hand = "SELECT i.currency, SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                + " WHERE a.is_test = %s GROUP BY i.currency ORDER BY i.currency";
        for (Object value : List.of(false, "false", "no", 0)) {
            CompiledMetric m = assertSameRows(s, request("typed_invoice_amount", List.of(invoice + ".currency"),
                    List.of(new Filter(account + ".is_test", FilterOp.EQ, value))), hand.formatted("FALSE"));
            // tinyint(1) and a 0/1 CHECK hold numbers, a PostgreSQL boolean a boolean.
            assertEquals(engine.equals("postgresql") ? false : 0, m.params().get(0), "bound as " + m.params());
        }
        CompiledMetric test = assertSameRows(s, request("typed_invoice_amount", List.of(invoice + ".currency"),
                List.of(new Filter(account + ".is_test", FilterOp.EQ, "yes"))), hand.formatted("TRUE"));
        assertEquals(1, test.sql().split("is_test", -1).length - 1, "one is_test filter, the caller's: " + test.sql());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aFilterOnADomainOverAnEnumAnswersAsHandWrittenSql(String engine) throws Exception {
        Source s = source(engine);
        String payment = s.entity("payments");
        CompiledMetric m = assertSameRows(s, request("typed_payment_count", List.of(payment + ".status"),
                        List.of(new Filter(payment + ".status", FilterOp.IN, List.of("succeeded", "refunded")))),
                // By hand on PostgreSQL too the domain needs a cast: a plain IN finds no = for it.
                "SELECT p.status, COUNT(p.payment_id) FROM " + s.t("payments") + " p JOIN " + s.t("invoices")
                        + " i ON i.invoice_id = p.invoice_id" + toAccount(s) + " WHERE a.is_test = FALSE AND "
                        + (engine.equals("postgresql") ? "CAST(p.status AS text)" : "p.status")
                        + " IN ('succeeded', 'refunded') GROUP BY p.status ORDER BY p.status");
        assertEquals(engine.equals("postgresql"), m.sql().contains("CAST(\"t0\".\"status\" AS \"billing\".\"payment_status\") IN (CAST(? AS \"billing\".\"payment_status\")"), m.sql());
    }

    @Test
    void postgresCheckListsAreFiltersToo() throws Exception {
        Source s = source("postgresql");
        String invoice = s.entity("invoices");
        CompiledMetric m = assertSameRows(s, request("typed_invoice_amount", List.of(invoice + ".currency"),
                        List.of(new Filter(invoice + ".currency", FilterOp.IN, List.of("eur", "GBP")))),
                "SELECT i.currency, SUM(i.amount_cents) FROM billing.invoices i" + toAccount(s)
                        + " WHERE a.is_test = FALSE AND i.currency IN ('EUR', 'GBP') GROUP BY i.currency ORDER BY i.currency");
        assertEquals(List.of("EUR", "GBP"), m.params().subList(1, 3), "the declared spelling is bound");
        assertEquals("EUR", assertThrows(CompileException.class, () -> new MetricCompiler(s.catalog(), s.model()).compile(
                request("typed_invoice_amount", List.of(), List.of(new Filter(invoice + ".currency", FilterOp.EQ, "EUT"))),
                Engines.POSTGRESQL)).candidates().get(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void amountsInSeveralKnownCurrenciesAreNeverAddedUp(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        MetricRequest plain = request("typed_invoice_amount", List.of(), List.of());
        if (engine.equals("postgresql")) {
            // The domain's CHECK says USD, EUR, GBP: refused, and the retry is the same call grouped by the currency.
            CompileException e = assertThrows(CompileException.class, () -> new MetricCompiler(s.catalog(), s.model())
                    .compile(plain, Engines.POSTGRESQL));
            assertEquals(ErrorKind.INVALID_ARGUMENT, e.problem());
            assertEquals(Map.of("group_by", List.of(invoice + ".currency")), e.suggestedArgs());
        } else {
            // Indexed without samples, a CHAR(3) says no value: the compiler cannot know it mixes, so it answers.
            assertSameRows(s, plain, "SELECT SUM(i.amount_cents) FROM " + s.t("invoices") + " i" + toAccount(s)
                    + " WHERE a.is_test = FALSE");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void aTypoIsAnInvalidArgumentWithTheNearestValue(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        MetricCompiler compiler = new MetricCompiler(s.catalog(), s.model());
        try (QueryExecutor ex = new QueryExecutor(SourceUrl.parse(s.url()), ExecutorSettings.defaults())) {
            // Grouped by currency, so the amounts add up and the typo is what is refused.
            List<String> perCurrency = List.of(invoice + ".currency");
            CompileException e = assertThrows(CompileException.class, () -> compiler.compile(request("typed_invoice_amount",
                    perCurrency, List.of(new Filter(invoice + ".status", FilterOp.EQ, "pais"))), ex.dialect()));
            assertEquals(ErrorKind.INVALID_ARGUMENT, e.problem());
            assertEquals("paid", e.candidates().get(0), e.candidates().toString());
            assertEquals("The filter value 'pais' is not one of the values " + invoice + ".status allows: "
                    + String.join(", ", INVOICE_STATUSES) + ".", e.getMessage());
            CompileException inList = assertThrows(CompileException.class, () -> compiler.compile(request("typed_invoice_amount",
                    perCurrency, List.of(new Filter(invoice + ".status", FilterOp.NOT_IN, List.of("paid", "voided")))), ex.dialect()));
            assertEquals(List.of("void"), inList.candidates().subList(0, 1), "every value of a list is checked");
            CompileException flag = assertThrows(CompileException.class, () -> compiler.compile(request("typed_invoice_amount",
                    perCurrency, List.of(new Filter(s.entity("accounts") + ".is_test", FilterOp.EQ, "maybe"))), ex.dialect()));
            assertEquals(ErrorKind.INVALID_ARGUMENT, flag.problem());
            assertTrue(flag.getMessage().contains("maybe"), flag.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void enumsAreDimensionsAndNeverDraftedAsNumbers(String engine) throws Exception {
        Source s = source(engine);
        String invoice = s.entity("invoices");
        Map<String, Dimensions.Kind> kinds = new HashMap<>();
        Dimensions.of(s.catalog(), s.model(), invoice).forEach(d -> kinds.put(d.reference(), d.kind()));
        assertEquals(Dimensions.Kind.CATEGORICAL, kinds.get(invoice + ".status"), kinds.toString());
        assertEquals(Dimensions.Kind.CATEGORICAL, kinds.get(s.entity("plans") + ".billing_interval"), kinds.toString());
        assertEquals(Dimensions.Kind.CATEGORICAL, kinds.get(s.entity("subscriptions") + ".status"), kinds.toString());
        assertEquals(Dimensions.Kind.BOOLEAN, kinds.get(s.entity("accounts") + ".is_test"), kinds.toString());
        for (Metric m : s.inferred().metrics()) {
            String column = m.measure().column();
            assertFalse(column != null && List.of("status", "billing_interval", "is_test").contains(column),
                    "no drafted " + m.measure().agg() + " of " + column + " (" + m.name() + ")");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void descriptionsNameTheValues(String engine) throws Exception {
        Source s = source(engine);
        OfflineDescriber describer = new OfflineDescriber(new Words(WordVocabulary.get().words()));
        TableDocuments invoices = describer.describe(s.catalog()).stream()
                .filter(d -> d.table().table().equals("invoices")).findFirst().orElseThrow();
        String status = invoices.columns().stream().filter(c -> c.column().equals("status")).findFirst().orElseThrow()
                .description().text();
        assertTrue(status.contains("one of draft, open, paid, void, uncollectible"), status);
    }

    @Test
    void applyRefusesADefaultFilterOutsideTheEnum() throws Exception {
        Source s = source("postgresql");
        String invoice = s.entity("invoices");
        Path project = dir.resolve("project");
        Path file = project.resolve("metrics").resolve("paid_revenue.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                version: 1
                name: paid_revenue
                entity: %s
                measure: {agg: sum, column: amount_cents}
                filters: [{column: %s.status, op: in, value: [paid, pais]}]
                """.formatted(invoice, invoice));
        SemanticProject.Loaded loaded = SemanticProject.read(project);
        List<String> problems = SemanticProject.check(SemanticProject.merge(s.inferred(), loaded.model()), s.catalog(), loaded);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("paid_revenue.yaml") && problems.get(0).contains(": filters[0]: ")
                && problems.get(0).contains("'pais'") && problems.get(0).endsWith("did you mean paid?"), problems.get(0));

        Files.writeString(file, Files.readString(file).replace("pais", "OPEN"));
        loaded = SemanticProject.read(project);
        assertEquals(List.of(), SemanticProject.check(SemanticProject.merge(s.inferred(), loaded.model()), s.catalog(), loaded));
    }

    /** Through the store and the tools: describe_column and describe_entity list the values, get_metric refuses a typo. */
    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "sqlite"})
    void theToolsShowTheValuesAndRefuseATypo(String engine) throws Exception {
        Source s = source(engine);
        Path store = dir.resolve("store-" + engine + ".db");
        SourceUrl url = SourceUrl.parse(s.url());
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        ObjectMapper json = new ObjectMapper();
        ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store), Optional.empty());
        String schema = s.table("invoices").name().schema();
        JsonNode column = json.valueToTree(tools.call("describe_column", Map.of("qualified_name", schema + ".invoices.status")));
        assertEquals(engine.equals("sqlite") ? "check" : "enum", column.path("data").path("domain").asText(), column.toString());
        assertEquals(INVOICE_STATUSES, json.convertValue(column.path("data").path("values"), List.class), column.toString());

        JsonNode table = json.valueToTree(tools.call("describe_table", Map.of("qualified_name", schema + ".invoices",
                "response_format", "detailed")));
        JsonNode tableStatus = null;
        for (JsonNode c : table.path("data").path("columns")) {
            tableStatus = c.path("name").asText().equals("status") ? c : tableStatus;
        }
        assertEquals(INVOICE_STATUSES, json.convertValue(tableStatus.path("values"), List.class), "detailed describe_table: " + table);

        JsonNode entity = json.valueToTree(tools.call("describe_entity", Map.of("name", s.entity("invoices"))));
        JsonNode statusRow = null;
        for (JsonNode c : entity.path("data").path("columns")) {
            if (c.path("reference").asText().endsWith(".status")) {
                statusRow = c;
            }
        }
        assertEquals(INVOICE_STATUSES, json.convertValue(statusRow.path("values"), List.class), entity.toString());

        JsonNode gender = json.valueToTree(tools.call("describe_column", Map.of("qualified_name", schema + ".accounts.contact_gender")));
        assertFalse(gender.path("data").path("pii_categories").isEmpty(), gender.toString());
        assertTrue(gender.path("data").path("values").isMissingNode(), "a PII-tagged column's labels are withheld: " + gender);
        assertTrue(gender.path("data").path("values_withheld").asBoolean(), gender.toString());
        // (A MySQL type names its labels itself, enum('female',...): that is the schema, shown as before.)
        assertFalse(gender.path("data").path("description").asText().contains("diverse"), gender.toString());

        String invoice = s.entity("invoices");
        String metricName = s.inferred().metrics().stream().filter(m -> m.entity().equals(invoice)).findFirst().orElseThrow().name();
        // In one currency, so the amounts add up and the typo is what is refused.
        Map<String, Object> usd = Map.of("column", invoice + ".currency", "op", "eq", "value", "USD");
        Envelope typo = tools.call("get_metric", Map.of("name", metricName,
                "filters", List.of(usd, Map.of("column", invoice + ".status", "op", "eq", "value", "pais"))));
        JsonNode error = json.valueToTree(typo).path("error");
        assertEquals("invalid_argument", error.path("kind").asText(), error.toString());
        assertEquals("paid", error.path("recovery").path("fuzzy_matches").path(0).asText(), error.toString());
        // Not a retry without the filter (another question, answered with success): the entity and its values.
        assertEquals("describe_entity", error.path("recovery").path("suggested_tool").asText(), error.toString());

        List<Map<String, Object>> filters = List.of(usd, Map.of("column", invoice + ".status", "op", "in", "value", List.of("paid", "open")));
        Envelope grain = tools.call("get_metric", Map.of("name", metricName, "filters", filters, "time_grain", "fortnight"));
        JsonNode recovery = json.valueToTree(grain).path("error").path("recovery");
        assertEquals("get_metric", recovery.path("suggested_tool").asText(), recovery.toString());
        assertEquals(json.valueToTree(filters), recovery.path("suggested_args").path("filters"), "the caller's filter is kept: " + recovery);
        assertEquals("month", recovery.path("suggested_args").path("time_grain").asText(), recovery.toString());
    }
}
