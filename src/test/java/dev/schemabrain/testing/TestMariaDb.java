package dev.schemabrain.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** Throw-away databases on the MariaDB server at 127.0.0.1:3306 (root, no password; .ci/run starts it). */
public final class TestMariaDb {

    public static final String SERVER = "127.0.0.1:3306";

    private TestMariaDb() {
    }

    /** A new database with a unique name, after running {@code sql} in it; returns its name. */
    public static String create(String prefix, String... sql) throws SQLException {
        String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        try (Connection c = connect(name); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
        return name;
    }

    public static void drop(String name) throws SQLException {
        try (Connection c = admin(); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
        }
    }

    public static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + SERVER + "/" + database, "root", "");
    }

    /** A SchemaBrain source URL for the database. */
    public static String url(String database) {
        return "mariadb://root@" + SERVER + "/" + database;
    }

    private static Connection admin() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + SERVER + "/", "root", "");
    }
}
