package dev.schemabrain.console;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo database's personal values (e-mails, phones, password hashes, names, cards, IPs) no page may show. */
final class DemoPiiValues {

    private DemoPiiValues() {
    }

    /** Every such value of six characters or more: shorter ones occur in any page by chance. */
    static List<String> of(Path database) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement st = c.createStatement()) {
            for (String sql : List.of("SELECT email, phone_number, password_hash, first_name || ' ' || last_name FROM users",
                    "SELECT card_number FROM payments", "SELECT ip_address FROM page_views")) {
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                            String v = rs.getString(i);
                            if (v != null && v.length() >= 6) {
                                values.add(v);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(values.size() > 100, "the demo has personal values to look for");
        return values;
    }

    /** Whether {@code page} holds any of {@code values}, as text or escaped. */
    static boolean shown(String page, List<String> values) {
        return values.stream().anyMatch(v -> page.contains(v) || page.contains(Html.esc(v)));
    }
}
