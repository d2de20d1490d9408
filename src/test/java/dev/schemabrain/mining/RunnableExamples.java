package dev.schemabrain.mining;

import dev.schemabrain.store.QueryLogRepository.Example;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs stored SELECT examples on a PostgreSQL database whose search_path names none of their schemas: those without
 * a placeholder as they are, the others planned with theirs (EXPLAIN (GENERIC_PLAN)).
 *
 * @param direct   how many ran as they are
 * @param failures the examples that did not run or plan, with the server's message
 */
record RunnableExamples(int direct, List<String> failures) {

    static RunnableExamples run(int port, String database, List<Example> selects) throws SQLException {
        int direct = 0;
        List<String> failures = new ArrayList<>();
        // The simple protocol: EXPLAIN (GENERIC_PLAN) takes $n with no values bound, which the extended one refuses.
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/" + database
                + "?user=postgres&preferQueryMode=simple"); Statement st = c.createStatement()) {
            st.execute("SET search_path = public");
            c.setReadOnly(true);
            for (Example e : selects) {
                boolean placeholders = e.sql().contains("?");
                String sql = placeholders ? "EXPLAIN (GENERIC_PLAN) " + numbered(e.sql()) : e.sql();
                try (ResultSet rs = st.executeQuery(sql)) {
                    rs.next();
                    direct += placeholders ? 0 : 1;
                } catch (SQLException ex) {
                    failures.add(e.sql() + ": " + ex.getMessage());
                }
            }
        }
        return new RunnableExamples(direct, failures);
    }

    /** {@code ?} as PostgreSQL's {@code $1, $2, …}, for EXPLAIN (GENERIC_PLAN). */
    private static String numbered(String sql) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                out.append('$').append(++n);
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }
}
