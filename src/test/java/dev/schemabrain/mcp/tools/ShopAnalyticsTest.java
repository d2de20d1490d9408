package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.schemabrain.mcp.tools.DataSubjectsTest.assertAllSuppressed;
import static dev.schemabrain.mcp.tools.DataSubjectsTest.json;
import static dev.schemabrain.mcp.tools.DataSubjectsTest.metric;
import static dev.schemabrain.mcp.tools.DataSubjectsTest.plain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst's side of data subjects with the default K = 5 on real PostgreSQL: a shop with two
 * clerks sees its revenue (Pagila with 60 customers over six months), Northwind's freight by shipper and its top
 * accounts by revenue are answered (companies are organisations, not people), each equal to hand-written SQL;
 * revenue by clerk stays withheld.
 */
class ShopAnalyticsTest {

    @TempDir
    static Path dir;
    static final Map<String, DataSubjectsTest.Served> SERVED = new HashMap<>();

    @AfterAll
    static void close() {
        SERVED.values().forEach(s -> s.executor().close());
    }

    static synchronized DataSubjectsTest.Served served(String db) throws Exception {
        DataSubjectsTest.Served s = SERVED.get(db);
        if (s == null) {
            if (db.equals("pagila_shop")) {
                TestPostgres.loadSample(db, "pagila-pg15.sql");
                shopRows(db);
            } else {
                TestPostgres.loadSample(db, db + ".sql");
            }
            SourceUrl url = SourceUrl.parse(TestPostgres.url(db));
            Path store = dir.resolve(db + ".db");
            try (SchemaSource source = Sources.open(url)) {
                new Indexer().run(url, source, store, false, IndexListener.SILENT);
            }
            QueryExecutor ex = new QueryExecutor(url, ExecutorSettings.defaults());
            s = new DataSubjectsTest.Served(ex, StandardTools.registry(new StoreCatalogProvider(store), Optional.of(ex)), store);
            SERVED.put(db, s);
        }
        return s;
    }

    /** Two stores with one clerk each, 60 customers, 20 films, 600 rentals paid over January to June 2022. */
    static void shopRows(String db) throws Exception {
        try (Connection c = TestPostgres.connect(db); Statement st = c.createStatement()) {
            st.execute("SET session_replication_role = replica");   // the schema's circular store/staff keys
            for (String sql : List.of(
                    "INSERT INTO country (country_id, country) VALUES (1, 'Canada'), (2, 'Australia')",
                    "INSERT INTO city (city_id, city, country_id) VALUES (1, 'Lethbridge', 1), (2, 'Woodridge', 2)",
                    "INSERT INTO address (address_id, address, district, city_id, phone) SELECT i, i || ' Main St', 'District',"
                            + " 1 + i % 2, '555' || i FROM generate_series(1, 70) i",
                    "INSERT INTO language (language_id, name) VALUES (1, 'English')",
                    "INSERT INTO store (store_id, manager_staff_id, address_id) VALUES (1, 1, 61), (2, 2, 62)",
                    "INSERT INTO staff (staff_id, first_name, last_name, address_id, store_id, username) VALUES"
                            + " (1, 'Mike', 'Hillyer', 63, 1, 'mike'), (2, 'Jon', 'Stephens', 64, 2, 'jon')",
                    "INSERT INTO customer (customer_id, store_id, first_name, last_name, email, address_id, create_date, active)"
                            + " SELECT i, 1 + i % 2, 'Given' || i, 'Family' || i, 'c' || i || '@example.org', i, '2021-12-01', 1"
                            + " FROM generate_series(1, 60) i",
                    "INSERT INTO film (film_id, title, description, release_year, language_id, rental_duration, rental_rate,"
                            + " length, replacement_cost, rating, fulltext) SELECT i, 'FILM ' || i, 'A story', 2006, 1, 3, 2.99, 90,"
                            + " 19.99, 'PG', to_tsvector('film') FROM generate_series(1, 20) i",
                    "INSERT INTO actor (actor_id, first_name, last_name) SELECT i, 'ACTOR' || i, CASE WHEN i <= 3 THEN 'GUINESS'"
                            + " ELSE 'WAHLBERG' || i END FROM generate_series(1, 10) i",
                    "INSERT INTO film_actor (actor_id, film_id) SELECT 1 + (f + k) % 10, f FROM generate_series(1, 20) f,"
                            + " generate_series(0, 2) k",
                    "INSERT INTO category (category_id, name) VALUES (1, 'Action'), (2, 'Comedy'), (3, 'Drama'), (4, 'Horror')",
                    "INSERT INTO film_category (film_id, category_id) SELECT i, 1 + i % 4 FROM generate_series(1, 20) i",
                    "INSERT INTO inventory (inventory_id, film_id, store_id) SELECT i, 1 + i % 20, 1 + i % 2 FROM generate_series(1, 40) i",
                    "INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, return_date, staff_id)"
                            + " SELECT i, TIMESTAMPTZ '2022-01-01 10:00+00' + (i % 180) * INTERVAL '1 day' + i * INTERVAL '1 minute', 1 + i % 40, 1 + i % 60,"
                            + " NULL, 1 + i % 2 FROM generate_series(1, 600) i",
                    "INSERT INTO payment (payment_id, customer_id, staff_id, rental_id, amount, payment_date)"
                            + " SELECT i, 1 + i % 60, 1 + i % 2, i, 0.99 + (i % 5), TIMESTAMPTZ '2022-01-01 10:05+00' + (i % 180)"
                            + " * INTERVAL '1 day' FROM generate_series(1, 600) i")) {
                st.execute(sql);
            }
            st.execute("SET session_replication_role = origin");
            st.execute("ANALYZE");
        }
    }

    static void assertAnswered(JsonNode answer, String question) {
        assertTrue(List.of("success", "partial").contains(answer.path("status").asText()), question + ": " + answer);
        assertTrue(answer.path("data").path("rows").size() > 0, question + ": " + answer);
        assertEquals(0, answer.path("data").path("suppressed_groups").asInt(0), question + " suppresses nothing: " + answer);
    }

    @Test
    void aShopWithTwoClerksSeesItsRevenue() throws Exception {
        DataSubjectsTest.Served s = served("pagila_shop");
        String revenue = metric(s, "payment", "sum", "amount");
        JsonNode total = json(s.call("name", revenue));
        assertAnswered(total, "total revenue");
        assertEquals(plain(s.hand("SELECT SUM(amount) FROM payment").get(0).get(0)), plain(total.path("data").path("rows").get(0).path(revenue)));

        JsonNode monthly = json(s.call("name", revenue, "time_grain", "month"));
        assertAnswered(monthly, "revenue by month");
        List<List<Object>> hand = s.hand("SELECT SUM(amount) FROM payment GROUP BY date_trunc('month', payment_date)"
                + " ORDER BY date_trunc('month', payment_date)");
        assertEquals(hand.size(), monthly.path("data").path("rows").size());
        for (int i = 0; i < hand.size(); i++) {
            assertEquals(plain(hand.get(i).get(0)), plain(monthly.path("data").path("rows").get(i).path(revenue)), "month " + i);
        }

        JsonNode byStore = json(s.call("name", revenue, "group_by", List.of("customer.store_id")));
        assertAnswered(byStore, "revenue by the customer's store");
        JsonNode stores = json(s.call("name", metric(s, "store", "count", null)));
        assertAnswered(stores, "store count");
        assertEquals(2, stores.path("data").path("rows").get(0).path(metric(s, "store", "count", null)).asInt());

        // Revenue by clerk is one person's figure per group.
        assertAllSuppressed(json(s.call("name", revenue, "group_by", List.of("payment.staff_id"))), "revenue by clerk");
        // Any column of the clerk groups by the clerk: each store has one, so "by the clerk's store" is per person too.
        assertAllSuppressed(json(s.call("name", revenue, "group_by", List.of("staff.store_id"))), "revenue by the clerk's store");
    }

    @Test
    void pagilasClassesAreDraftedFromItsColumns() throws Exception {
        DataSubjectsTest.Served s = served("pagila_shop");
        Map<String, SubjectClass> classes = new HashMap<>();
        for (SubjectClasses.Assigned a : new StoreCatalogProvider(s.store()).current().orElseThrow().subjectClasses()) {
            classes.put(a.entity(), a.subjectClass());
        }
        assertEquals(SubjectClass.PERSON, classes.get("customer"), classes.toString());
        assertEquals(SubjectClass.PERSON, classes.get("staff"), classes.toString());
        assertEquals(SubjectClass.ORGANISATION, classes.get("store"), classes.toString());
        assertEquals(SubjectClass.NONE, classes.get("payment"), classes.toString());
        assertEquals(SubjectClass.NONE, classes.get("film"), classes.toString());
        assertEquals(SubjectClass.NONE, classes.get("actor"), "a film catalogue's actors are public figures: " + classes);
    }

    @Test
    void filmsWithAnActorAreAnswered() throws Exception {
        DataSubjectsTest.Served s = served("pagila_shop");
        String films = metric(s, "film", "count", null);
        JsonNode answer = json(s.call("name", films, "filters", List.of(Map.of("column", "actor.last_name", "op", "eq",
                "value", "GUINESS"))));
        // A filter through the film's actors (one-to-many) keeps the films with at least one such actor, and says so.
        assertEquals("degraded", answer.path("status").asText(), answer.toString());
        assertEquals("filtered_through_related_rows", answer.path("degradation_reason").asText(), answer.toString());
        assertEquals(0, answer.path("data").path("suppressed_groups").asInt(0), answer.toString());
        // Three actors are called Guiness: a film with two of them is still one film, not two rows over the link.
        assertEquals(plain(s.hand("SELECT COUNT(DISTINCT f.film_id) FROM film f JOIN film_actor fa ON fa.film_id = f.film_id"
                + " JOIN actor a ON a.actor_id = fa.actor_id WHERE a.last_name = 'GUINESS'").get(0).get(0)),
                plain(answer.path("data").path("rows").get(0).path(films)), "each film counted once");
    }

    @Test
    void northwindsCompaniesAreOrganisationsSoFreightAndTopAccountsAreAnswered() throws Exception {
        DataSubjectsTest.Served s = served("northwind");
        String freight = metric(s, "orders", "sum", "freight");
        JsonNode byShipper = json(s.call("name", freight, "group_by", List.of("shippers.company_name")));
        assertAnswered(byShipper, "freight by shipper");
        List<List<Object>> hand = s.hand("SELECT h.company_name, SUM(o.freight) FROM orders o JOIN shippers h"
                + " ON h.shipper_id = o.ship_via GROUP BY h.company_name ORDER BY h.company_name");
        assertEquals(hand.size(), byShipper.path("data").path("rows").size(), byShipper.toString());
        for (int i = 0; i < hand.size(); i++) {
            JsonNode row = byShipper.path("data").path("rows").get(i);
            assertEquals(hand.get(i).get(0), row.path("shippers.company_name").asText());
            assertEquals(plain(hand.get(i).get(1)), plain(row.path(freight)));
        }
        JsonNode top = json(s.call("name", freight, "group_by", List.of("customers.company_name"),
                "order_by", List.of(Map.of("column", freight, "direction", "desc")), "limit", 10));
        assertTrue(List.of("success", "partial").contains(top.path("status").asText()), top.toString());
        assertEquals(10, top.path("data").path("rows").size(), "the top ten accounts: " + top);
        assertEquals(0, top.path("data").path("suppressed_groups").asInt(0), top.toString());
        List<List<Object>> best = s.hand("SELECT c.company_name, SUM(o.freight) s FROM orders o JOIN customers c"
                + " ON c.customer_id = o.customer_id GROUP BY c.company_name ORDER BY s DESC LIMIT 10");
        for (int i = 0; i < 10; i++) {
            assertEquals(best.get(i).get(0), top.path("data").path("rows").get(i).path("customers.company_name").asText());
        }
        // Revenue by sales rep is one employee's figure per group.
        assertAllSuppressed(json(s.call("name", freight, "group_by", List.of("orders.employee_id"))), "freight by employee");
    }
}
