package dev.schemabrain.demo;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoDatabaseTest {

    private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}");

    @TempDir
    static Path shared;
    private static Path demo;

    @BeforeAll
    static void createOnce() {
        demo = shared.resolve("demo.db");
        DemoDatabase.create(demo);
    }

    @Test
    void hasTheDocumentedNumberOfTablesAndColumns() throws SQLException {
        assertEquals(DemoDatabase.TABLE_COUNT, count(demo,
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"));
        long columns = count(demo, "SELECT count(*) FROM sqlite_master m, pragma_table_info(m.name) "
                + "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'");
        assertTrue(columns >= 78 && columns <= 86, "column count " + columns);
    }

    @Test
    void holdsAFewThousandRows() throws SQLException {
        Map<String, Long> counts = rowCounts(demo);
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(total >= 3000 && total <= 15000, "rows " + counts);
        counts.forEach((table, rows) -> assertTrue(rows > 0, table + " is empty"));
    }

    @Test
    void everyForeignKeyPointsAtAnExistingColumnAndRow() throws SQLException {
        assertEquals(0, count(demo, "SELECT count(*) FROM pragma_foreign_key_check"));
        assertTrue(count(demo, "SELECT count(*) FROM sqlite_master m, pragma_foreign_key_list(m.name) f "
                + "WHERE m.type = 'table'") >= 14);
        // Each referenced table and column exists (foreign_key_check alone ignores a missing parent column).
        assertEquals(0, count(demo, """
                SELECT count(*) FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                WHERE m.type = 'table' AND NOT EXISTS (
                  SELECT 1 FROM sqlite_master p, pragma_table_info(p.name) c
                  WHERE p.type = 'table' AND p.name = f."table" AND c.name = f."to")"""));
    }

    @Test
    void buildsWithForeignKeysEnforced() throws SQLException {
        try (Connection connection = DemoDatabase.open(shared.resolve("pragma-check.db"))) {
            assertEquals(1, single(connection, "PRAGMA foreign_keys"));
        }
    }

    @Test
    void teamMembersIsAJunctionTable() throws SQLException {
        assertEquals(List.of("team_id", "user_id"), strings(demo,
                "SELECT name FROM pragma_table_info('team_members') WHERE pk > 0 ORDER BY pk"));
        assertEquals(List.of("teams.id", "users.id"), strings(demo,
                "SELECT \"table\" || '.' || \"to\" FROM pragma_foreign_key_list('team_members') ORDER BY \"table\""));
    }

    @Test
    void emailsAreUniqueAndWellFormed() throws SQLException {
        List<String> emails = strings(demo, "SELECT email FROM users");
        assertEquals(400, emails.size());
        assertEquals(emails.size(), emails.stream().distinct().count());
        emails.forEach(e -> assertTrue(EMAIL.matcher(e).matches(), e));
    }

    @Test
    void cardNumbersPassLuhnAndMatchTheirLastFour() throws SQLException {
        List<String> cards = strings(demo, "SELECT card_number || ' ' || card_last4 FROM payments");
        assertFalse(cards.isEmpty());
        for (String row : cards) {
            String[] parts = row.split(" ");
            assertEquals(16, parts[0].length(), row);
            assertTrue(passesLuhn(parts[0]), row);
            assertTrue(parts[0].endsWith(parts[1]), row);
        }
    }

    @Test
    void moneyAndTimeLookLikeABillingHistory() throws SQLException {
        assertEquals(0, count(demo, "SELECT count(*) FROM invoices i WHERE total_cents <> tax_cents + "
                + "(SELECT sum(amount_cents) FROM invoice_line_items l WHERE l.invoice_id = i.id)"));
        assertTrue(count(demo, "SELECT count(DISTINCT strftime('%Y-%m', issued_at)) FROM invoices") >= 20);
        assertEquals(List.of("active", "canceled", "past_due", "trialing"),
                strings(demo, "SELECT DISTINCT status FROM subscriptions ORDER BY status"));
        assertEquals(List.of("open", "paid", "uncollectible", "void"),
                strings(demo, "SELECT DISTINCT status FROM invoices ORDER BY status"));
        assertEquals(0, count(demo, "SELECT count(*) FROM users WHERE password_hash NOT LIKE '$2b$12$%' "
                + "OR length(password_hash) <> 60"));
    }

    @Test
    void createIsDeterministic(@TempDir Path dir) throws SQLException {
        Path again = dir.resolve("again.db");
        DemoDatabase.create(again);
        assertEquals(rowCounts(demo), rowCounts(again));
        String money = "SELECT sum(total_cents) FROM invoices";
        assertEquals(count(demo, money), count(again, money));
        String firstEmails = "SELECT email FROM users ORDER BY id LIMIT 10";
        assertEquals(strings(demo, firstEmails), strings(again, firstEmails));
        for (String table : rowCounts(demo).keySet()) {
            String all = "SELECT * FROM " + table + " ORDER BY rowid";
            assertEquals(dump(demo, all), dump(again, all), table);
        }
    }

    @Test
    void createReplacesAnExistingFileAndLeavesNoTemporaryFiles(@TempDir Path dir) throws IOException, SQLException {
        Path file = dir.resolve("demo.db");
        Files.writeString(file, "not a database", StandardCharsets.UTF_8);
        DemoDatabase.create(file);
        assertEquals(DemoDatabase.TABLE_COUNT, count(file, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
    }

    @Test
    void ensureCreatesOnlyWhenMissing(@TempDir Path dir) throws IOException, SQLException {
        Path missing = dir.resolve("sub/demo.db");
        assertEquals(missing, DemoDatabase.ensure(missing));
        assertEquals(400, count(missing, "SELECT count(*) FROM users"));

        Path existing = dir.resolve("existing.db");
        Files.writeString(existing, "keep me", StandardCharsets.UTF_8);
        DemoDatabase.ensure(existing);
        assertEquals("keep me", Files.readString(existing, StandardCharsets.UTF_8));
    }

    // ---------------------------------------------------------------- helpers

    private static boolean passesLuhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            }
            sum += d;
        }
        return sum % 10 == 0;
    }

    private static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    private static long count(Path file, String sql) throws SQLException {
        try (Connection connection = connect(file)) {
            return single(connection, sql);
        }
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static List<String> strings(Path file, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = connect(file); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private static String dump(Path file, String sql) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (Connection connection = connect(file); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(sql)) {
            int width = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= width; i++) {
                    sb.append(rs.getString(i)).append('|');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static Map<String, Long> rowCounts(Path file) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : strings(file,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
            counts.put(table, count(file, "SELECT count(*) FROM \"" + table + "\""));
        }
        return counts;
    }
}
