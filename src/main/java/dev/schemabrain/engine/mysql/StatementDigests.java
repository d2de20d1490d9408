package dev.schemabrain.engine.mysql;

import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.error.SourceException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Reads MySQL/MariaDB {@code performance_schema.events_statements_summary_by_digest} for one schema (the
 * source's database). Digest texts drop comments, so SchemaBrain's own statements can only be told apart
 * where the server keeps a sample of the original text (MySQL 8's QUERY_SAMPLE_TEXT); MariaDB has none.
 */
public final class StatementDigests {

    private StatementDigests() {
    }

    /**
     * Every digest run with one of {@code schemas} as its default database, with its count since the last truncate
     * and that database (where its unqualified names live).
     */
    public static List<LoggedStatement> read(Connection c, Collection<String> schemas) throws SQLException, SourceException {
        Optional<String> problem = problem(c);
        if (problem.isPresent()) {
            throw new SourceException(problem.get());
        }
        boolean sample = hasSampleText(c);
        List<String> in = List.copyOf(new LinkedHashSet<>(schemas));
        String sql = "SELECT DIGEST_TEXT, COUNT_STAR" + (sample ? ", QUERY_SAMPLE_TEXT" : ", NULL") + ", SCHEMA_NAME"
                + " FROM performance_schema.events_statements_summary_by_digest"
                + " WHERE SCHEMA_NAME IN (" + String.join(", ", Collections.nCopies(in.size(), "?")) + ")"
                + " AND DIGEST_TEXT IS NOT NULL"
                // Monitoring, including this reader's own checks above: never an example of how data is used.
                + " AND DIGEST_TEXT NOT LIKE '%performance_schema%'";
        List<LoggedStatement> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < in.size(); i++) {
                st.setString(i + 1, in.get(i));
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String sampleText = rs.getString(3);
                    if (sampleText != null && new LoggedStatement(sampleText, 0).fromSchemaBrain()) {
                        continue;
                    }
                    out.add(new LoggedStatement(rs.getString(1), rs.getLong(2), null, rs.getString(4)));
                }
            }
        }
        return out;
    }

    /** Why mine-queries could not read statement digests on this server (doctor asks), or empty when it can. */
    public static Optional<String> problem(Connection c) throws SQLException {
        if (!enabled(c)) {
            return Optional.of("performance_schema is off on this server; set performance_schema=ON in the"
                    + " [mysqld] section of its configuration and restart it.");
        }
        if (!digestsCollected(c)) {
            return Optional.of("performance_schema does not collect statement digests; run UPDATE"
                    + " performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME = 'statements_digest'.");
        }
        return Optional.empty();
    }

    private static boolean enabled(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT @@performance_schema"); ResultSet rs = st.executeQuery()) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }

    private static boolean digestsCollected(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "SELECT ENABLED FROM performance_schema.setup_consumers WHERE NAME = 'statements_digest'");
             ResultSet rs = st.executeQuery()) {
            return rs.next() && "YES".equalsIgnoreCase(rs.getString(1));
        }
    }

    private static boolean hasSampleText(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                + " 'performance_schema' AND TABLE_NAME = 'events_statements_summary_by_digest' AND COLUMN_NAME = 'QUERY_SAMPLE_TEXT'");
             ResultSet rs = st.executeQuery()) {
            return rs.next();
        }
    }
}
