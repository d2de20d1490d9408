package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An account with nothing but {@code GRANT SELECT ON db.*}: MariaDB hides TABLE_CONSTRAINTS and REFERENTIAL_CONSTRAINTS
 * from it, yet it must see the same keys as root, draft the same joins, and doctor must say what it saw. An account with
 * SELECT on some columns only is told which grant is missing. Against the MariaDB server at 127.0.0.1:3306.
 */
class SelectOnlyKeysTest {

    private static final String SUFFIX = UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    private static final String READER = "sb_sel_" + SUFFIX;
    private static final String CLERK = "sb_col_" + SUFFIX;
    private static final String PASSWORD = "pw-" + UUID.randomUUID();

    private static String db;
    private static String other;

    @TempDir
    static Path dir;

    @BeforeAll
    static void createDatabases() throws Exception {
        other = TestMariaDb.create("sb_keys_other", "CREATE TABLE regions (code INT PRIMARY KEY, name VARCHAR(20))");
        db = TestMariaDb.create("sb_keys",
                "CREATE TABLE customers (id INT PRIMARY KEY, email VARCHAR(100) NOT NULL, CONSTRAINT uq_email UNIQUE (email))",
                "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, placed_at DATE, total DECIMAL(10,2),"
                        + " CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id))",
                // Quoted names with a space and a backtick, a composite key, an unnamed foreign key.
                "CREATE TABLE `order lines` (`order id` INT NOT NULL, `line``no` INT NOT NULL, qty INT,"
                        + " PRIMARY KEY (`order id`, `line``no`), FOREIGN KEY (`order id`) REFERENCES orders (id) ON DELETE CASCADE)",
                "CREATE TABLE returns (id INT PRIMARY KEY, order_id INT NOT NULL, line_no INT NOT NULL, reason VARCHAR(40),"
                        + " CONSTRAINT `fk ret``line` FOREIGN KEY (order_id, line_no) REFERENCES `order lines` (`order id`, `line``no`))",
                "CREATE TABLE branches (id INT PRIMARY KEY, region_code INT,"
                        + " CONSTRAINT fk_branch_region FOREIGN KEY (region_code) REFERENCES " + other + ".regions (code))",
                "CREATE TABLE tags (name VARCHAR(100), UNIQUE KEY uq_tag_prefix (name(20)))",
                "CREATE TABLE notes (body TEXT)",
                "INSERT INTO customers VALUES (1, 'a@example.com'), (2, 'b@example.com')",
                "INSERT INTO orders VALUES (10, 1, '2026-01-02', 12.50), (11, 2, '2026-02-03', 8.00)",
                "INSERT INTO `order lines` VALUES (10, 1, 2), (10, 2, 1), (11, 1, 5)",
                "INSERT INTO returns VALUES (1, 10, 2, 'broken')");
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("CREATE USER '" + READER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
            st.execute("GRANT SELECT ON " + db + ".* TO '" + READER + "'@'%'");
            st.execute("CREATE USER '" + CLERK + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
            st.execute("GRANT SELECT (placed_at, total) ON " + db + ".orders TO '" + CLERK + "'@'%'");
        }
    }

    @AfterAll
    static void dropDatabases() throws Exception {
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("DROP USER IF EXISTS '" + READER + "'@'%'");
            st.execute("DROP USER IF EXISTS '" + CLERK + "'@'%'");
        }
        TestMariaDb.drop(db);
        TestMariaDb.drop(other);
    }

    private static String url(String user) {
        return "mariadb://" + user + ":" + PASSWORD + "@" + TestMariaDb.SERVER + "/" + db;
    }

    private static Catalog introspect(String url) throws Exception {
        return new MySqlSource(SourceUrl.parse(url)).introspect(IntrospectionOptions.withoutSamples());
    }

    private static InProcessCli.Result cli(String url, String... args) {
        return InProcessCli.run(Map.of("HOME", dir.resolve("home").toString(), "SB_SOURCE", url), args);
    }

    @Test
    void aSelectOnlyAccountSeesTheKeysRootSees() throws Exception {
        Catalog root = introspect(TestMariaDb.url(db));
        Catalog reader = introspect(url(READER));
        assertEquals(4, root.foreignKeyCount(), "the fixture's foreign keys, as root");
        assertEquals(root.foreignKeyCount(), reader.foreignKeyCount());
        for (Table expected : root.tables()) {
            Table seen = reader.table(expected.name()).orElseThrow();
            assertEquals(expected.primaryKey(), seen.primaryKey(), expected.name().toString());
            assertEquals(new HashSet<>(expected.foreignKeys()), new HashSet<>(seen.foreignKeys()), expected.name().toString());
            assertEquals(new HashSet<>(expected.uniqueConstraints()), new HashSet<>(seen.uniqueConstraints()),
                    expected.name().toString());
        }
        Table returns = reader.table(QualifiedName.of(db, "returns")).orElseThrow();
        assertEquals(List.of("order_id", "line_no"), returns.foreignKeys().get(0).columns());
        assertEquals(List.of("order id", "line`no"), returns.foreignKeys().get(0).targetColumns());
        Table branches = reader.table(QualifiedName.of(db, "branches")).orElseThrow();
        assertEquals(QualifiedName.of(other, "regions"), branches.foreignKeys().get(0).target());
    }

    /** The fallback read against what information_schema says to root, table by table, from the server's own DDL. */
    @Test
    void showCreateTableGivesTheKeysInformationSchemaGives() throws Exception {
        Catalog root = introspect(TestMariaDb.url(db));
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            for (Table expected : root.tables()) {
                if (expected.kind() != TableKind.TABLE) {
                    continue;
                }
                String ddl;
                try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + Engines.MYSQL.qualified(expected.name()))) {
                    assertTrue(rs.next());
                    ddl = rs.getString(2);
                }
                CreateTableKeys keys = CreateTableKeys.parse(ddl, db);
                assertEquals(expected.primaryKey(), keys.primaryKey(), ddl);
                assertEquals(new HashSet<>(expected.foreignKeys()), new HashSet<>(keys.foreignKeys()), ddl);
                assertEquals(new HashSet<>(expected.uniqueConstraints()), new HashSet<>(keys.uniques()), ddl);
            }
        }
    }

    @Test
    void indexDraftsTheSameJoinsForTheSelectOnlyAccountAsForRoot() {
        Path rootStore = dir.resolve("root.db");
        Path readerStore = dir.resolve("reader.db");
        InProcessCli.Result rootIndex = cli(TestMariaDb.url(db), "index", "--url-env", "SB_SOURCE", "--store", rootStore.toString());
        InProcessCli.Result readerIndex = cli(url(READER), "index", "--url-env", "SB_SOURCE", "--store", readerStore.toString());
        assertEquals(0, readerIndex.exitCode(), readerIndex.stderr());
        assertTrue(readerIndex.stdout().contains("foreign keys 4"), readerIndex.stdout());
        assertFalse(readerIndex.stderr().contains("keys of"), readerIndex.stderr());
        String rootJoins = cli(TestMariaDb.url(db), "joins", "list", "--store", rootStore.toString()).stdout();
        String readerJoins = cli(url(READER), "joins", "list", "--store", readerStore.toString()).stdout();
        assertTrue(readerJoins.contains("orders -> customers"), readerJoins);
        assertTrue(readerJoins.contains("fk_constraint"), readerJoins);
        assertEquals(rootJoins, readerJoins);
        assertEquals(cli(TestMariaDb.url(db), "entities", "list", "--store", rootStore.toString()).stdout(),
                cli(url(READER), "entities", "list", "--store", readerStore.toString()).stdout());
        assertFalse(rootIndex.stdout().isEmpty());
    }

    @Test
    void doctorSaysWhatKeysTheSelectOnlyAccountSees() {
        InProcessCli.Result r = cli(url(READER), "doctor", "--url-env", "SB_SOURCE", "--store", dir.resolve("doctor.db").toString());
        assertTrue(r.stdout().contains("ok    keys: 5 of 7 tables have a primary key, 4 foreign keys in all"), r.stdout());
    }

    @Test
    void anAccountWithSomeColumnsOnlyIsToldTheGrantThatIsMissing() {
        String grant = "GRANT SELECT ON `" + db + "`.`orders` TO '" + CLERK + "'@'%';";
        InProcessCli.Result index = cli(url(CLERK), "index", "--url-env", "SB_SOURCE", "--store", dir.resolve("clerk.db").toString());
        assertEquals(0, index.exitCode(), index.stderr());
        assertTrue(index.stderr().contains("warning: the keys of 1 table (" + db + ".orders) could not be read, so no join is"
                + " drafted from it: '" + CLERK + "'@'%' holds SELECT on some of its columns only"), index.stderr());
        assertTrue(index.stderr().contains(grant), index.stderr());
        InProcessCli.Result doctor = cli(url(CLERK), "doctor", "--url-env", "SB_SOURCE", "--store",
                dir.resolve("clerk.db").toString());
        assertEquals(1, doctor.exitCode(), doctor.stdout());
        assertTrue(doctor.stdout().contains("warn  keys: 0 of 1 tables have a primary key, 0 foreign keys in all; the keys of"
                + " 1 table (" + db + ".orders) could not be read"), doctor.stdout());
        assertTrue(doctor.stdout().contains(grant), doctor.stdout());
        assertFalse(doctor.stdout().contains(PASSWORD) || index.stderr().contains(PASSWORD), "the password stays out");
    }
}
