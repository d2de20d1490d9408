package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Against the MariaDB server at 127.0.0.1:3306 (user root, no password), in a throw-away database. */
class MySqlSourceTest {

    private static final String SERVER = "127.0.0.1:3306";
    private static final String DB = "sbtest_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private static final List<String> SETUP = List.of(
            """
            CREATE TABLE customers (
              id INT PRIMARY KEY,
              email VARCHAR(200) NOT NULL,
              password_hash VARCHAR(100) NOT NULL,
              full_name VARCHAR(100) COMMENT 'Name as printed on invoices',
              CONSTRAINT uq_customers_email UNIQUE (email)
            ) COMMENT 'People who buy things'
            """,
            """
            CREATE TABLE products (
              id INT PRIMARY KEY,
              sku VARCHAR(40) NOT NULL,
              price DECIMAL(10,2) NOT NULL DEFAULT 0.00
            )
            """,
            """
            CREATE TABLE orders (
              id INT PRIMARY KEY,
              customer_id INT NOT NULL,
              status VARCHAR(20) NOT NULL DEFAULT 'new',
              CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id)
            )
            """,
            """
            CREATE TABLE order_items (
              order_id INT NOT NULL,
              product_id INT NOT NULL,
              quantity INT NOT NULL DEFAULT 1,
              PRIMARY KEY (order_id, product_id),
              CONSTRAINT fk_items_order FOREIGN KEY (order_id) REFERENCES orders (id),
              CONSTRAINT fk_items_product FOREIGN KEY (product_id) REFERENCES products (id)
            )
            """,
            """
            CREATE TABLE shipments (
              id INT PRIMARY KEY,
              item_product INT NOT NULL,
              item_order INT NOT NULL,
              shipped_on DATE,
              CONSTRAINT fk_shipments_item FOREIGN KEY (item_order, item_product)
                REFERENCES order_items (order_id, product_id)
            )
            """,
            """
            CREATE VIEW customer_orders AS
            SELECT c.full_name, o.id AS order_id FROM customers c JOIN orders o ON o.customer_id = c.id
            """,
            """
            INSERT INTO customers VALUES
              (1, 'ann@example.com', 'x1', 'Ann Archer'),
              (2, 'bob@example.org', 'x2', 'Bob Baker')
            """,
            "INSERT INTO products VALUES (10, 'SKU-10', 9.99), (11, 'SKU-11', 19.50)",
            "INSERT INTO orders VALUES (100, 1, 'paid'), (101, 2, 'new')",
            "INSERT INTO order_items VALUES (100, 10, 2), (100, 11, 1), (101, 10, 5)",
            "INSERT INTO shipments VALUES (1000, 10, 100, '2024-05-01')");

    private static Catalog catalog;

    @BeforeAll
    static void createDatabase() throws Exception {
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE `" + DB + "`");
            st.execute("USE `" + DB + "`");
            for (String sql : SETUP) {
                st.execute(sql);
            }
        }
        try (MySqlSource source = new MySqlSource(SourceUrl.parse("mysql://root@" + SERVER + "/" + DB))) {
            catalog = source.introspect(IntrospectionOptions.fresh());
        }
    }

    @AfterAll
    static void dropDatabase() throws SQLException {
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS `" + DB + "`");
        }
    }

    private static Connection admin() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + SERVER + "/", "root", "");
    }

    private static Table table(String name) {
        return catalog.table(QualifiedName.of(DB, name)).orElseThrow(() -> new AssertionError("no table " + name));
    }

    private static Column column(String table, String column) {
        return table(table).column(column).orElseThrow(() -> new AssertionError("no column " + table + "." + column));
    }

    @Test
    void countsEverything() {
        assertEquals(6, catalog.tables().size());
        assertEquals(4 + 3 + 3 + 3 + 4 + 2, catalog.columnCount());
        assertEquals(6, catalog.tables().stream().mapToInt(t -> t.primaryKey().size()).sum());
        assertEquals(4, catalog.foreignKeyCount());
        assertTrue(catalog.tables().stream().allMatch(t -> t.name().schema().equals(DB)));
    }

    @Test
    void readsTablesAndViews() {
        assertEquals(TableKind.VIEW, table("customer_orders").kind());
        assertNull(table("customer_orders").rowEstimate());
        assertNull(table("customer_orders").comment());
        assertEquals(TableKind.TABLE, table("customers").kind());
        assertNotNull(table("customers").rowEstimate());
        assertEquals("People who buy things", table("customers").comment());
        assertNull(table("products").comment());
    }

    @Test
    void readsColumns() {
        Column fullName = column("customers", "full_name");
        assertEquals(4, fullName.position());
        assertEquals("varchar(100)", fullName.dataType());
        assertTrue(fullName.nullable());
        assertNull(fullName.defaultValue());
        assertEquals("Name as printed on invoices", fullName.comment());

        Column email = column("customers", "email");
        assertFalse(email.nullable());
        assertNull(email.comment());

        assertTrue(column("orders", "status").defaultValue().contains("new"));
        assertEquals(List.of("full_name", "order_id"),
                table("customer_orders").columns().stream().map(Column::name).toList());
    }

    @Test
    void readsKeys() {
        assertEquals(List.of("id"), table("customers").primaryKey());
        assertEquals(List.of("order_id", "product_id"), table("order_items").primaryKey());
        assertEquals(List.of(new UniqueConstraint("uq_customers_email", List.of("email"))),
                table("customers").uniqueConstraints());
        assertTrue(table("order_items").uniqueConstraints().isEmpty());

        ForeignKey toCustomer = table("orders").foreignKeys().get(0);
        assertEquals(new ForeignKey("fk_orders_customer", List.of("customer_id"),
                QualifiedName.of(DB, "customers"), List.of("id")), toCustomer);

        assertEquals(List.of(new ForeignKey("fk_shipments_item", List.of("item_order", "item_product"),
                        QualifiedName.of(DB, "order_items"), List.of("order_id", "product_id"))),
                table("shipments").foreignKeys());
    }

    @Test
    void detectsJunction() {
        assertTrue(table("order_items").isJunction());
        assertFalse(table("orders").isJunction());
        assertFalse(table("shipments").isJunction());
    }

    @Test
    void samplesUnderPolicy() {
        assertTrue(column("customers", "email").samples().contains("<email>"));
        assertFalse(column("customers", "email").samples().stream().anyMatch(s -> s.contains("@")));
        assertTrue(column("customers", "password_hash").samples().isEmpty());
        assertTrue(column("customers", "full_name").samples().contains("Ann Archer"));
        assertTrue(column("customer_orders", "full_name").samples().isEmpty(), "views are not sampled");
    }

    @Test
    void withoutDatabaseReadsAllUserDatabases() throws SourceException {
        try (MySqlSource source = new MySqlSource(SourceUrl.parse("mysql://root@" + SERVER))) {
            assertEquals(SourceKind.MYSQL, source.kind());
            Catalog all = source.introspect(IntrospectionOptions.withoutSamples());
            assertTrue(all.table(QualifiedName.of(DB, "order_items")).isPresent());
            assertTrue(all.tables().stream().map(t -> t.name().schema())
                    .noneMatch(s -> List.of("mysql", "information_schema", "performance_schema", "sys").contains(s)));
            assertTrue(all.tables().stream().allMatch(t -> t.columns().stream().allMatch(c -> c.samples().isEmpty())));
        }
    }

    @Test
    void wrongPasswordIsClearAndSecret() throws SourceException {
        String password = "Sup3rS3cretPw";
        SourceException e = assertThrows(SourceException.class, () -> introspect(
                "mysql://root:" + password + "@" + SERVER + "/" + DB));
        assertTrue(e.getMessage().contains("wrong user name or password"), e.getMessage());
        assertTrue(e.getMessage().contains(SERVER), e.getMessage());
        assertFalse(e.getMessage().contains(password));
    }

    @Test
    void unknownDatabaseIsNamed() {
        SourceException e = assertThrows(SourceException.class, () -> introspect(
                "mysql://root@" + SERVER + "/" + DB + "_missing"));
        assertEquals("Database '" + DB + "_missing' does not exist on " + SERVER + "; check the name in the URL.",
                e.getMessage());
    }

    @Test
    void closedPortIsUnreachable() {
        SourceException e = assertThrows(SourceException.class, () -> introspect("mysql://root:pw@127.0.0.1:1/x"));
        assertEquals("Cannot reach the MySQL server at 127.0.0.1:1; check that it is running and the host and port are right.",
                e.getMessage());
    }

    private static Catalog introspect(String url) throws SourceException {
        try (MySqlSource source = new MySqlSource(SourceUrl.parse(url))) {
            return source.introspect(IntrospectionOptions.fresh());
        }
    }
}
