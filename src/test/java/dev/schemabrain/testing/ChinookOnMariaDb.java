package dev.schemabrain.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Five of Chinook's tables, with their foreign keys and every row, copied from PostgreSQL into a new MariaDB database. */
public final class ChinookOnMariaDb {

    private ChinookOnMariaDb() {
    }

    /** Creates the copy and returns its database name; drop it with {@link TestMariaDb#drop}. */
    public static String create() throws SQLException {
        TestPostgres.loadSample("chinook", "chinook.sql");
        String maria = TestMariaDb.create("sb_chinook",
                "CREATE TABLE genre (genre_id INT PRIMARY KEY, name VARCHAR(120))",
                "CREATE TABLE customer (customer_id INT PRIMARY KEY, first_name VARCHAR(40), last_name VARCHAR(20), country VARCHAR(40))",
                "CREATE TABLE track (track_id INT PRIMARY KEY, name VARCHAR(200), genre_id INT REFERENCES genre (genre_id), "
                        + "milliseconds INT NOT NULL, unit_price DECIMAL(10,2) NOT NULL)",
                "CREATE TABLE invoice (invoice_id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES customer (customer_id), "
                        + "invoice_date DATETIME NOT NULL, billing_state VARCHAR(40), billing_country VARCHAR(40), total DECIMAL(10,2) NOT NULL)",
                "CREATE TABLE invoice_line (invoice_line_id INT PRIMARY KEY, invoice_id INT NOT NULL REFERENCES invoice (invoice_id), "
                        + "track_id INT NOT NULL REFERENCES track (track_id), unit_price DECIMAL(10,2) NOT NULL, quantity INT NOT NULL)");
        copy(maria, "SELECT genre_id, name FROM genre", "INSERT INTO genre VALUES (?, ?)", 2);
        copy(maria, "SELECT customer_id, first_name, last_name, country FROM customer", "INSERT INTO customer VALUES (?, ?, ?, ?)", 4);
        copy(maria, "SELECT track_id, name, genre_id, milliseconds, unit_price FROM track", "INSERT INTO track VALUES (?, ?, ?, ?, ?)", 5);
        copy(maria, "SELECT invoice_id, customer_id, invoice_date, billing_state, billing_country, total FROM invoice",
                "INSERT INTO invoice VALUES (?, ?, ?, ?, ?, ?)", 6);
        copy(maria, "SELECT invoice_line_id, invoice_id, track_id, unit_price, quantity FROM invoice_line",
                "INSERT INTO invoice_line VALUES (?, ?, ?, ?, ?)", 5);
        return maria;
    }

    /** Copies the rows {@code select} reads from PostgreSQL's chinook into MariaDB's {@code maria} with {@code insert}. */
    public static void copy(String maria, String select, String insert, int columns) throws SQLException {
        try (Connection from = TestPostgres.connect("chinook"); Connection to = TestMariaDb.connect(maria);
             Statement read = from.createStatement(); ResultSet rs = read.executeQuery(select);
             PreparedStatement write = to.prepareStatement(insert)) {
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
