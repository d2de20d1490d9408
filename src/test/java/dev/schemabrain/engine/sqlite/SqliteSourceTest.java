package dev.schemabrain.engine.sqlite;

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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Against a real SQLite file written by the driver into a temporary directory. */
class SqliteSourceTest {

    private static final List<String> SETUP = List.of(
            """
            CREATE TABLE customers (
              id INTEGER PRIMARY KEY,
              email TEXT NOT NULL,
              password_hash TEXT NOT NULL,
              full_name TEXT
            )
            """,
            "CREATE UNIQUE INDEX ux_customers_email ON customers (email)",
            // An expression index constrains no column set; it must not show up as a unique constraint.
            "CREATE UNIQUE INDEX ux_customers_lower_email ON customers (lower(email))",
            """
            CREATE TABLE products (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              sku TEXT NOT NULL UNIQUE,
              price NUMERIC NOT NULL DEFAULT 0
            )
            """,
            // REFERENCES without columns targets the parent's primary key.
            """
            CREATE TABLE orders (
              id INTEGER PRIMARY KEY,
              customer_id INTEGER NOT NULL REFERENCES customers,
              status TEXT NOT NULL DEFAULT 'new'
            )
            """,
            // The parent spelled in another case, as SQLite allows.
            """
            CREATE TABLE order_items (
              order_id INTEGER NOT NULL REFERENCES orders (id),
              product_id INTEGER NOT NULL REFERENCES Products (ID),
              quantity INTEGER NOT NULL DEFAULT 1,
              PRIMARY KEY (order_id, product_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE shipments (
              id INTEGER PRIMARY KEY,
              item_order INTEGER NOT NULL,
              item_product INTEGER NOT NULL,
              shipped_on TEXT,
              FOREIGN KEY (item_order, item_product) REFERENCES order_items (order_id, product_id)
            )
            """,
            // A partial unique index is not unique over the whole table.
            "CREATE UNIQUE INDEX ux_open_shipment ON shipments (item_order) WHERE shipped_on IS NULL",
            """
            CREATE VIEW customer_orders AS
            SELECT c.full_name, o.id AS order_id FROM customers c JOIN orders o ON o.customer_id = c.id
            """,
            // Full-text search: the virtual table is data, its shadow tables are storage.
            "CREATE VIRTUAL TABLE notes USING fts5(body)",
            """
            INSERT INTO customers VALUES
              (1, 'ann@example.com', 'x1', 'Ann Archer'),
              (2, 'bob@example.org', 'x2', 'Bob Baker')
            """,
            "INSERT INTO products (id, sku, price) VALUES (10, 'SKU-10', 9.99), (11, 'SKU-11', 19.5)",
            "INSERT INTO orders VALUES (100, 1, 'paid'), (101, 2, 'new')",
            "INSERT INTO order_items VALUES (100, 10, 2), (100, 11, 1), (101, 10, 5)",
            "INSERT INTO shipments VALUES (1000, 100, 10, '2024-05-01')",
            "INSERT INTO notes VALUES ('call Ann about the invoice')",
            "ANALYZE");

    @TempDir
    static Path dir;
    private static Path file;
    private static Catalog catalog;

    @BeforeAll
    static void createDatabase() throws Exception {
        file = dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String sql : SETUP) {
                st.execute(sql);
            }
        }
        byte[] before = Files.readAllBytes(file);
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + file))) {
            assertEquals(SourceKind.SQLITE, source.kind());
            catalog = source.introspect(IntrospectionOptions.fresh());
        }
        assertArrayEquals(before, Files.readAllBytes(file), "introspection must not write to the file");
    }

    private static Table table(String name) {
        return catalog.table(QualifiedName.of("main", name)).orElseThrow(() -> new AssertionError("no table " + name));
    }

    private static Column column(String table, String column) {
        return table(table).column(column).orElseThrow(() -> new AssertionError("no column " + table + "." + column));
    }

    @Test
    void countsEverything() {
        assertEquals(List.of("customer_orders", "customers", "notes", "order_items", "orders", "products", "shipments"),
                catalog.tables().stream().map(t -> t.name().table()).toList(),
                "no sqlite_% tables, no FTS shadow tables");
        assertEquals(4 + 3 + 3 + 3 + 4 + 2 + 1, catalog.columnCount());
        assertEquals(6, catalog.tables().stream().mapToInt(t -> t.primaryKey().size()).sum());
        assertEquals(4, catalog.foreignKeyCount());
    }

    @Test
    void readsTablesAndViews() {
        assertEquals(TableKind.VIEW, table("customer_orders").kind());
        assertEquals(TableKind.TABLE, table("notes").kind());
        assertNull(table("customer_orders").rowEstimate());
        assertEquals(2L, table("orders").rowEstimate(), "from sqlite_stat1");
        assertTrue(catalog.tables().stream().allMatch(t -> t.comment() == null && t.dataVersion() == null));
    }

    @Test
    void readsColumns() {
        Column status = column("orders", "status");
        assertEquals(3, status.position());
        assertEquals("TEXT", status.dataType());
        assertFalse(status.nullable());
        assertEquals("'new'", status.defaultValue());

        assertTrue(column("customers", "full_name").nullable());
        assertFalse(column("customers", "id").nullable(), "primary key columns are not nullable");
        assertEquals(List.of("full_name", "order_id"),
                table("customer_orders").columns().stream().map(Column::name).toList());
        assertEquals(List.of("body"), table("notes").columns().stream().map(Column::name).toList());
    }

    @Test
    void readsKeys() {
        assertEquals(List.of("id"), table("customers").primaryKey());
        assertEquals(List.of("order_id", "product_id"), table("order_items").primaryKey());

        assertEquals(List.of(new UniqueConstraint("ux_customers_email", List.of("email"))),
                table("customers").uniqueConstraints());
        assertEquals(List.of(List.of("sku")),
                table("products").uniqueConstraints().stream().map(UniqueConstraint::columns).toList());
        assertTrue(table("shipments").uniqueConstraints().isEmpty());
        assertTrue(table("order_items").uniqueConstraints().isEmpty());

        assertEquals(List.of(new ForeignKey("orders_customer_id_fkey", List.of("customer_id"),
                QualifiedName.of("main", "customers"), List.of("id"))), table("orders").foreignKeys());
        assertEquals(List.of(
                        new ForeignKey("order_items_order_id_fkey", List.of("order_id"),
                                QualifiedName.of("main", "orders"), List.of("id")),
                        new ForeignKey("order_items_product_id_fkey", List.of("product_id"),
                                QualifiedName.of("main", "products"), List.of("id"))),
                table("order_items").foreignKeys());
        assertEquals(List.of(new ForeignKey("shipments_item_order_item_product_fkey", List.of("item_order", "item_product"),
                        QualifiedName.of("main", "order_items"), List.of("order_id", "product_id"))),
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
        assertEquals(List.of("Ann Archer", "Bob Baker"), column("customers", "full_name").samples());
        assertEquals(List.of("call Ann about the invoice"), column("notes", "body").samples());
        assertTrue(column("customer_orders", "full_name").samples().isEmpty(), "views are not sampled");
    }

    @Test
    void undescribableViewIsLeftOutAndTheRestRead() throws Exception {
        Path copy = dir.resolve("shop-with-broken-view.db");
        Files.copy(file, copy);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
            // SQLite accepts a view over a column that does not exist; describing it fails later.
            st.execute("CREATE VIEW broken_view AS SELECT no_such_column FROM customers");
        }
        Catalog withBrokenView = introspect(copy);
        assertEquals(catalog.byName().keySet(), withBrokenView.byName().keySet());
        assertEquals(catalog.columnCount(), withBrokenView.columnCount());
        assertEquals(catalog.foreignKeyCount(), withBrokenView.foreignKeyCount());
    }

    @Test
    void missingFileIsAnErrorAndStaysMissing() {
        Path missing = dir.resolve("nowhere.db");
        SourceException e = assertThrows(SourceException.class, () -> introspect(missing));
        assertEquals("The SQLite file " + missing + " does not exist; check the path in the URL.", e.getMessage());
        assertFalse(Files.exists(missing));
    }

    @Test
    void directoryIsAnError() {
        SourceException e = assertThrows(SourceException.class, () -> introspect(dir));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    @Test
    void notADatabaseIsNamedAndLeftAlone() throws Exception {
        Path text = dir.resolve("notes.db");
        Files.writeString(text, "These are meeting notes, not a database.\n".repeat(20), StandardCharsets.UTF_8);
        byte[] before = Files.readAllBytes(text);
        SourceException e = assertThrows(SourceException.class, () -> introspect(text));
        assertEquals("The file " + text + " is not an SQLite database; check the path in the URL.", e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(text));
    }

    private static Catalog introspect(Path path) throws SourceException {
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + path))) {
            return source.introspect(IntrospectionOptions.fresh());
        }
    }
}
