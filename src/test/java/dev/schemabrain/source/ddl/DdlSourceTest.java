package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.Bench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DdlSourceTest {

    private static final Path SAMPLE_DBS = Bench.root().resolve("sampledbs");

    /*
     * Expected figures for the two sample dumps were obtained by loading each file into PostgreSQL 15
     * (createdb x && psql -d x -f FILE) and querying pg_catalog for schema public, leaving out
     * declarative partitions (pg_class.relispartition) as the live source does:
     *   relations: count(*) of pg_class by relkind in ('r','p','v','m');
     *   columns: pg_attribute rows with attnum > 0 of those relations (views included);
     *   NOT NULL: attnotnull among table columns;
     *   PK columns: sum(cardinality(conkey)) of contype 'p';
     *   foreign keys: pg_constraint contype 'f', a partition's keys counted on its parent once per
     *     distinct (columns, target, target columns);
     *   unique: pg_index rows with indisunique and not indisprimary.
     * The column names, positions, types (format_type), nullability and defaults were also diffed
     * line by line against the parser's output; they agree, except that pagila's defaults keep the
     * "public." qualification the file spells out.
     */

    @Test
    void sakilaMatchesPostgres() throws Exception {
        Catalog catalog = load(SAMPLE_DBS.resolve("sakila.sql"));

        // sakila's payment_p2007_0N tables use INHERITS, not declarative partitioning: in PostgreSQL
        // they are ordinary tables (relispartition = false) with payment's six columns, so they stay.
        assertEquals(21, count(catalog, TableKind.TABLE));
        assertEquals(7, count(catalog, TableKind.VIEW));
        assertEquals(0, count(catalog, TableKind.PARTITIONED));
        assertEquals(165, catalog.columnCount());
        assertEquals(123, tableColumns(catalog));
        assertEquals(108, notNullColumns(catalog));
        assertEquals(17, primaryKeyColumns(catalog));
        assertEquals(40, catalog.foreignKeyCount());
        assertEquals(2, uniqueConstraints(catalog));

        Table actor = table(catalog, "public", "actor");
        assertEquals(List.of("actor_id"), actor.primaryKey());
        Column actorId = actor.column("actor_id").orElseThrow();
        assertEquals("integer", actorId.dataType());
        assertFalse(actorId.nullable());
        assertEquals("nextval('actor_actor_id_seq'::regclass)", actorId.defaultValue());
        assertEquals("character varying(45)", actor.column("first_name").orElseThrow().dataType());
        assertNull(actor.rowEstimate());
        assertNull(actor.dataVersion());

        Table film = table(catalog, "public", "film");
        Column rentalRate = film.column("rental_rate").orElseThrow();
        assertEquals("numeric(4,2)", rentalRate.dataType());
        assertEquals("4.99", rentalRate.defaultValue());
        assertEquals(8, rentalRate.position());
        assertEquals("text[]", film.column("special_features").orElseThrow().dataType());

        Table child = table(catalog, "public", "payment_p2007_01");
        assertEquals(List.of("payment_id", "customer_id", "staff_id", "rental_id", "amount", "payment_date"),
                names(child.columns()));
        assertEquals(3, child.foreignKeys().size());

        Table customerList = table(catalog, "public", "customer_list");
        assertEquals(TableKind.VIEW, customerList.kind());
        assertEquals(List.of("id", "name", "address", "zip code", "phone", "city", "country", "notes", "sid"),
                names(customerList.columns()));
        assertEquals("integer", customerList.column("id").orElseThrow().dataType());

        assertTrue(table(catalog, "public", "film_actor").isJunction());
        assertTrue(table(catalog, "public", "film_category").isJunction());
        assertTrue(catalog.tables().stream().allMatch(t -> t.columns().stream().allMatch(c -> c.samples().isEmpty())));
    }

    @Test
    void pagilaMatchesPostgres() throws Exception {
        Catalog catalog = load(SAMPLE_DBS.resolve("pagila-pg15.sql"));

        assertEquals(15, count(catalog, TableKind.TABLE));
        assertEquals(1, count(catalog, TableKind.PARTITIONED));
        assertEquals(7, count(catalog, TableKind.VIEW));
        assertEquals(1, count(catalog, TableKind.MATERIALIZED_VIEW));
        assertEquals(138, catalog.columnCount());
        assertEquals(94, tableColumns(catalog));
        assertEquals(78, notNullColumns(catalog));
        assertEquals(19, primaryKeyColumns(catalog));
        // 37 foreign key constraints in pg_constraint; 18 of them sit on six payment partitions and
        // fold into payment's 3 distinct keys: 37 - 18 + 3 = 22.
        assertEquals(22, catalog.foreignKeyCount());
        assertEquals(6, uniqueConstraints(catalog));

        assertTrue(table(catalog, "public", "film_actor").isJunction());
        assertTrue(table(catalog, "public", "film_category").isJunction());
        assertFalse(table(catalog, "public", "film").isJunction());

        Table film = table(catalog, "public", "film");
        assertEquals("public.mpaa_rating", film.column("rating").orElseThrow().dataType());
        assertEquals("'G'::public.mpaa_rating", film.column("rating").orElseThrow().defaultValue());
        assertEquals("timestamp with time zone", film.column("last_update").orElseThrow().dataType());
        // GENERATED ALWAYS AS (...) STORED is not a default.
        assertNull(film.column("length_hours").orElseThrow().defaultValue());

        Table byCategory = table(catalog, "public", "rental_by_category");
        assertEquals(TableKind.MATERIALIZED_VIEW, byCategory.kind());
        assertEquals(List.of("category", "total_sales"), names(byCategory.columns()));
        assertEquals(List.of(new UniqueConstraint("rental_category", List.of("category"))), byCategory.uniqueConstraints());
        // film_list calls public.group_concat(...), which JSqlParser rejects: the light reader names its columns.
        assertEquals(List.of("fid", "title", "description", "category", "price", "length", "rating", "actors"),
                names(table(catalog, "public", "film_list").columns()));
    }

    @Test
    void pagilaPaymentIsOnePartitionedTableWithItsPartitionsKeys() throws Exception {
        Catalog catalog = load(SAMPLE_DBS.resolve("pagila-pg15.sql"));

        assertTrue(catalog.tables().stream().noneMatch(t -> t.name().table().startsWith("payment_p")),
                "the 55 monthly partitions are folded into payment");
        Table payment = table(catalog, "public", "payment");
        assertEquals(TableKind.PARTITIONED, payment.kind());
        assertEquals(List.of("payment_date", "payment_id"), payment.primaryKey());
        assertEquals(7, payment.columns().size());
        // The keys are declared only on the partitions (ALTER TABLE ONLY payment_p2022_0N ...).
        Set<String> targets = payment.foreignKeys().stream()
                .map(fk -> String.join(",", fk.columns()) + "->" + fk.target() + "(" + String.join(",", fk.targetColumns()) + ")")
                .collect(Collectors.toSet());
        assertEquals(Set.of(
                "customer_id->public.customer(customer_id)",
                "rental_id->public.rental(rental_id)",
                "staff_id->public.staff(staff_id)"), targets);
        assertEquals(List.of(new UniqueConstraint("payment_uuid_key", List.of("uuid", "payment_date"))),
                payment.uniqueConstraints());
    }

    @Test
    void readsMysqlStyleDdl(@TempDir Path dir) throws Exception {
        Path file = write(dir, "shop.sql", """
                -- MySQL dump 10.13
                /*!40101 SET NAMES utf8mb4 */;
                CREATE TABLE IF NOT EXISTS `customer` (
                  `id` int unsigned NOT NULL AUTO_INCREMENT COMMENT 'the customer''s id',
                  `email` varchar(255) NOT NULL,
                  `nick name` varchar(40) DEFAULT 'none; really',
                  `created_at` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
                  `status` enum('Active','Closed') NOT NULL DEFAULT 'Active',
                  PRIMARY KEY (`id`),
                  UNIQUE KEY `uk_email` (`email`),
                  KEY `idx_nick` (`nick name`)
                ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='People who buy things';

                CREATE TABLE `orders` (
                  `order_no` int NOT NULL,
                  `shop` char(3) NOT NULL,
                  `customer_id` int unsigned REFERENCES customer(id),
                  `total` decimal(10, 2) DEFAULT 0.00 COMMENT 'gross, in EUR',
                  PRIMARY KEY (`order_no`, `shop`)
                ) ENGINE=InnoDB;

                CREATE TABLE `order_line` (
                  `order_no` int NOT NULL,
                  `shop` char(3) NOT NULL,
                  `line` smallint NOT NULL,
                  PRIMARY KEY (`order_no`,`shop`,`line`),
                  CONSTRAINT `fk_line_order` FOREIGN KEY (`order_no`, `shop`) REFERENCES `orders` (`order_no`, `shop`) ON DELETE CASCADE
                ) ENGINE=InnoDB;
                INSERT INTO `customer` VALUES (1,'a@example.com','x; y','2024-01-01','Active');
                """);
        Catalog catalog = load(file);

        assertEquals(3, catalog.tables().size());
        Table customer = table(catalog, "public", "customer");
        assertEquals("People who buy things", customer.comment());
        assertEquals(List.of("id", "email", "nick name", "created_at", "status"), names(customer.columns()));
        Column id = customer.column("id").orElseThrow();
        assertEquals("int unsigned", id.dataType());
        assertEquals("the customer's id", id.comment());
        assertFalse(id.nullable());
        assertEquals("'none; really'", customer.column("nick name").orElseThrow().defaultValue());
        assertTrue(customer.column("nick name").orElseThrow().nullable());
        assertEquals("CURRENT_TIMESTAMP", customer.column("created_at").orElseThrow().defaultValue());
        assertEquals("enum('Active','Closed')", customer.column("status").orElseThrow().dataType());
        assertEquals(List.of(new UniqueConstraint("uk_email", List.of("email"))), customer.uniqueConstraints());

        Table orders = table(catalog, "public", "orders");
        assertEquals(List.of("order_no", "shop"), orders.primaryKey());
        Column total = orders.column("total").orElseThrow();
        assertEquals("decimal(10,2)", total.dataType());
        assertEquals("0.00", total.defaultValue());
        assertEquals("gross, in EUR", total.comment());
        ForeignKey inline = orders.foreignKeys().get(0);
        assertEquals(List.of("customer_id"), inline.columns());
        assertEquals(QualifiedName.of("public", "customer"), inline.target());
        assertEquals(List.of("id"), inline.targetColumns());

        Table line = table(catalog, "public", "order_line");
        assertEquals(List.of(new ForeignKey("fk_line_order", List.of("order_no", "shop"),
                QualifiedName.of("public", "orders"), List.of("order_no", "shop"))), line.foreignKeys());
    }

    @Test
    void readsPostgresStyleDdl(@TempDir Path dir) throws Exception {
        Path file = write(dir, "app.sql", """
                \\restrict abc
                SET search_path = sales, pg_catalog;
                CREATE TABLE "Region" ("Id" integer PRIMARY KEY, "Name" text NOT NULL UNIQUE);
                CREATE TABLE shop.orders (
                    id bigint GENERATED BY DEFAULT AS IDENTITY,
                    region_id integer REFERENCES "Region" ON DELETE SET NULL,
                    placed_at timestamp(3) with time zone DEFAULT now() NOT NULL,
                    note text CHECK (note <> ';'),
                    CONSTRAINT orders_pk PRIMARY KEY (id, placed_at)
                ) PARTITION BY RANGE (placed_at);
                CREATE TABLE shop.orders_2024 PARTITION OF shop.orders FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
                CREATE TABLE shop.audit (id integer, at timestamptz);
                ALTER TABLE ONLY shop.orders_2024 ADD CONSTRAINT orders_2024_audit_fk FOREIGN KEY (id) REFERENCES shop.audit(id);
                ALTER TABLE ONLY shop.audit ADD CONSTRAINT audit_pkey PRIMARY KEY (id);
                ALTER TABLE ONLY "Region" ALTER COLUMN "Name" SET DEFAULT 'n/a'::text;
                COMMENT ON TABLE shop.orders IS 'It''s the orders';
                COMMENT ON COLUMN "Region"."Name" IS 'Display name';
                CREATE UNIQUE INDEX audit_at ON shop.audit USING btree (at);
                CREATE UNIQUE INDEX region_lower ON "Region" (lower("Name"));
                CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN NEW.at = now(); RETURN NEW; END; $$;
                CREATE VIEW shop.recent AS SELECT o.id, o.placed_at AS "when" FROM shop.orders o;
                GRANT SELECT ON shop.orders TO reader;
                """);
        Catalog catalog = load(file);

        assertEquals(4, catalog.tables().size());
        Table region = table(catalog, "sales", "Region");
        assertEquals(List.of("Id"), region.primaryKey());
        Column name = region.column("Name").orElseThrow();
        assertEquals("'n/a'::text", name.defaultValue());
        assertEquals("Display name", name.comment());
        assertEquals(List.of(new UniqueConstraint(null, List.of("Name"))), region.uniqueConstraints());

        Table orders = table(catalog, "shop", "orders");
        assertEquals(TableKind.PARTITIONED, orders.kind());
        assertEquals("It's the orders", orders.comment());
        assertNull(orders.column("id").orElseThrow().defaultValue());
        assertFalse(orders.column("id").orElseThrow().nullable(), "a primary key column is NOT NULL");
        assertEquals("timestamp(3) with time zone", orders.column("placed_at").orElseThrow().dataType());
        assertEquals(2, orders.foreignKeys().size());
        ForeignKey toRegion = orders.foreignKeys().get(0);
        assertEquals(QualifiedName.of("sales", "Region"), toRegion.target());
        assertEquals(List.of("Id"), toRegion.targetColumns(), "REFERENCES without columns means the target's key");
        assertEquals("orders_2024_audit_fk", orders.foreignKeys().get(1).name());

        Table audit = table(catalog, "shop", "audit");
        assertEquals(List.of("id"), audit.primaryKey());
        assertEquals(List.of(new UniqueConstraint("audit_at", List.of("at"))), audit.uniqueConstraints());

        Table recent = table(catalog, "shop", "recent");
        assertEquals(TableKind.VIEW, recent.kind());
        assertEquals(List.of("id", "when"), names(recent.columns()));
        assertEquals("timestamp(3) with time zone", recent.column("when").orElseThrow().dataType());
    }

    // pg_dump and SHOW CREATE VIEW alias every item; hand-written views may not, and may use WITH:
    // JSqlParser reads these, the light select-list reader alone does not (docs/architecture.md, DDL reading).
    private static final String SALE = "CREATE TABLE sale (id integer PRIMARY KEY, amount numeric(10,2));\n";

    @Test
    void viewOverWithIsNamed(@TempDir Path dir) throws Exception {
        Path file = write(dir, "views.sql", SALE + "CREATE VIEW big AS WITH b AS (SELECT id, amount FROM sale"
                + " WHERE amount > 100) SELECT b.id, b.amount total FROM b;\n");
        assertEquals(List.of("id", "total"), names(table(load(file), "public", "big").columns()));
    }

    @Test
    void viewItemsAliasedWithoutAsAreNamed(@TempDir Path dir) throws Exception {
        Path file = write(dir, "views.sql", SALE + "CREATE VIEW totals AS SELECT count(*) n, sum(amount) s, max(amount) FROM sale;\n");
        assertEquals(List.of("n", "s", "max"), names(table(load(file), "public", "totals").columns()));
    }

    @Test
    void missingFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nope.sql");
        SourceException e = assertThrows(SourceException.class, () -> load(missing));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void garbageCreateTableNamesLineAndText(@TempDir Path dir) throws IOException {
        Path file = write(dir, "broken.sql", "SET client_encoding = 'UTF8';\n\n-- nothing yet\nCREATE TABLE (((\n");
        SourceException e = assertThrows(SourceException.class, () -> load(file));
        String message = e.getMessage();
        assertTrue(message.startsWith("Cannot parse the CREATE TABLE statement at line 4 of broken.sql"), message);
        assertTrue(message.contains("fix the statement or remove it (offending text: CREATE TABLE ((("), message);
    }

    @Test
    void longOffendingTextIsTruncated(@TempDir Path dir) throws IOException {
        Path file = write(dir, "long.sql", "CREATE TABLE ok (a int);\nCREATE TABLE bad (a int, b varchar(10) DEFAULT, "
                + "c text, d text, e text, f text, g text);\n");
        String message = assertThrows(SourceException.class, () -> load(file)).getMessage();
        assertTrue(message.contains("at line 2 of long.sql"), message);
        assertTrue(message.endsWith("…)."), message);
        assertFalse(message.contains("e text, f text"), message);
    }

    @Test
    void fileWithoutCreateTableIsRejected(@TempDir Path dir) throws IOException {
        Path file = write(dir, "data.sql", "INSERT INTO t VALUES (1);\nCREATE VIEW v AS SELECT 1;\n");
        String message = assertThrows(SourceException.class, () -> load(file)).getMessage();
        assertTrue(message.contains("data.sql contains no CREATE TABLE statement"), message);
    }

    @Test
    void readsEnumTypesAndCheckListsAsDomains(@TempDir Path dir) throws Exception {
        Catalog catalog = load(write(dir, "billing.sql", """
                CREATE TABLE invoice (
                  id int PRIMARY KEY,
                  kind enum('one_off','recurring') NOT NULL,
                  status text NOT NULL CHECK (status IN ('draft', 'it''s paid')),
                  channel text,
                  is_test tinyint(1) NOT NULL DEFAULT 0,
                  rating int CHECK (rating IN (1, 2, 3)),
                  CONSTRAINT channel_ok CHECK (channel IN ('web', 'api')),
                  CHECK (status IN ('draft') OR id > 0)
                );
                """));
        Table invoice = catalog.tables().get(0);
        assertEquals(new Domain(Domain.Kind.ENUM, null,
                List.of("one_off", "recurring")), invoice.column("kind").orElseThrow().domain());
        assertEquals(List.of("draft", "it's paid"), invoice.column("status").orElseThrow().domain().values(),
                "the first plain list counts; a list inside a larger condition does not");
        assertEquals(List.of("web", "api"), invoice.column("channel").orElseThrow().domain().values(), "a named table CHECK");
        assertEquals(Domain.BOOLEAN, invoice.column("is_test").orElseThrow().domain());
        assertNull(invoice.column("rating").orElseThrow().domain(), "a list of numbers stays a number");
        assertNull(invoice.column("id").orElseThrow().domain());
    }

    @Test
    void kindIsDdl(@TempDir Path dir) throws Exception {
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + dir.resolve("x.sql")))) {
            assertEquals(SourceKind.DDL, source.kind());
        }
    }

    private static Catalog load(Path file) throws SourceException {
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + file))) {
            return source.introspect(IntrospectionOptions.withoutSamples());
        }
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static Table table(Catalog catalog, String schema, String name) {
        return catalog.table(QualifiedName.of(schema, name)).orElseThrow(() -> new AssertionError("no table " + schema + "." + name));
    }

    private static List<String> names(List<Column> columns) {
        return columns.stream().map(Column::name).toList();
    }

    private static long count(Catalog catalog, TableKind kind) {
        return catalog.tables().stream().filter(t -> t.kind() == kind).count();
    }

    private static boolean isTable(Table table) {
        return table.kind() == TableKind.TABLE || table.kind() == TableKind.PARTITIONED;
    }

    private static int tableColumns(Catalog catalog) {
        return catalog.tables().stream().filter(DdlSourceTest::isTable).mapToInt(t -> t.columns().size()).sum();
    }

    private static long notNullColumns(Catalog catalog) {
        return catalog.tables().stream().filter(DdlSourceTest::isTable)
                .flatMap(t -> t.columns().stream()).filter(c -> !c.nullable()).count();
    }

    private static int primaryKeyColumns(Catalog catalog) {
        return catalog.tables().stream().mapToInt(t -> t.primaryKey().size()).sum();
    }

    private static int uniqueConstraints(Catalog catalog) {
        return catalog.tables().stream().mapToInt(t -> t.uniqueConstraints().size()).sum();
    }
}
