package dev.schemabrain.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Five of Chinook's tables, with their foreign keys and every row, copied from PostgreSQL into a new MariaDB
 * database or a new DuckDB file.
 */
public final class ChinookOnMariaDb {

    /** The five tables, in SQL both MariaDB and DuckDB read. */
    static final List<String> TABLES = List.of(
            "CREATE TABLE genre (genre_id INT PRIMARY KEY, name VARCHAR(120))",
            "CREATE TABLE customer (customer_id INT PRIMARY KEY, first_name VARCHAR(40), last_name VARCHAR(20), country VARCHAR(40))",
            "CREATE TABLE track (track_id INT PRIMARY KEY, name VARCHAR(200), genre_id INT REFERENCES genre (genre_id), "
                    + "milliseconds INT NOT NULL, unit_price DECIMAL(10,2) NOT NULL)",
            "CREATE TABLE invoice (invoice_id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES customer (customer_id), "
                    + "invoice_date DATETIME NOT NULL, billing_state VARCHAR(40), billing_country VARCHAR(40), total DECIMAL(10,2) NOT NULL)",
            "CREATE TABLE invoice_line (invoice_line_id INT PRIMARY KEY, invoice_id INT NOT NULL REFERENCES invoice (invoice_id), "
                    + "track_id INT NOT NULL REFERENCES track (track_id), unit_price DECIMAL(10,2) NOT NULL, quantity INT NOT NULL)");

    /** Each table's rows as PostgreSQL's chinook gives them, in the order of {@link #TABLES}. */
    private static final List<String> SELECTS = List.of(
            "SELECT genre_id, name FROM genre",
            "SELECT customer_id, first_name, last_name, country FROM customer",
            "SELECT track_id, name, genre_id, milliseconds, unit_price FROM track",
            "SELECT invoice_id, customer_id, invoice_date, billing_state, billing_country, total FROM invoice",
            "SELECT invoice_line_id, invoice_id, track_id, unit_price, quantity FROM invoice_line");

    private ChinookOnMariaDb() {
    }

    /** Creates the copy and returns its database name; drop it with {@link TestMariaDb#drop}. */
    public static String create() throws SQLException {
        TestPostgres.loadSample("chinook", "chinook.sql");
        String maria = TestMariaDb.create("sb_chinook", TABLES.toArray(String[]::new));
        try (Connection to = TestMariaDb.connect(maria)) {
            copyAll(to);
        }
        return maria;
    }

    /** Creates the copy as the DuckDB file {@code file} (closed when this returns). */
    public static void createDuckDb(Path file) throws SQLException {
        TestPostgres.loadSample("chinook", "chinook.sql");
        try (Connection to = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = to.createStatement()) {
            for (String table : TABLES) {
                st.execute(table);
            }
            copyAll(to);
        }
    }

    private static void copyAll(Connection to) throws SQLException {
        for (int i = 0; i < SELECTS.size(); i++) {
            String table = TABLES.get(i).split(" ")[2];
            int columns = SELECTS.get(i).split(",").length;
            copy(to, SELECTS.get(i), "INSERT INTO " + table + " VALUES (" + "?, ".repeat(columns - 1) + "?)", columns);
        }
    }

    /** Copies the rows {@code select} reads from PostgreSQL's chinook into MariaDB's {@code maria} with {@code insert}. */
    public static void copy(String maria, String select, String insert, int columns) throws SQLException {
        try (Connection to = TestMariaDb.connect(maria)) {
            copy(to, select, insert, columns);
        }
    }

    /** Copies the rows {@code select} reads from PostgreSQL's chinook into {@code to} with {@code insert}. */
    private static void copy(Connection to, String select, String insert, int columns) throws SQLException {
        try (Connection from = TestPostgres.connect("chinook"); Statement read = from.createStatement();
             ResultSet rs = read.executeQuery(select); PreparedStatement write = to.prepareStatement(insert)) {
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    write.setObject(i, rs.getObject(i));
                }
                write.addBatch();
            }
            write.executeBatch();
        }
    }
}
