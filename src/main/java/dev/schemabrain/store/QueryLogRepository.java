package dev.schemabrain.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.QualifiedName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The mined query log (V6): per source, one row per normalized statement with its cumulative count. Plain
 * JDBC in one SQL for both stores. Counting: a run adds the engine counter's growth since the last run; a
 * counter that went down, or a changed statistics-reset token, means the engine started over, and the new
 * counter is added whole.
 */
public final class QueryLogRepository {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One join of a statement, names kept apart (a dot may be part of a name). */
    public record StoredJoin(String leftSchema, String leftTable, List<String> leftColumns,
                             String rightSchema, String rightTable, List<String> rightColumns) {
        public QualifiedName left() {
            return QualifiedName.of(leftSchema, leftTable);
        }

        public QualifiedName right() {
            return QualifiedName.of(rightSchema, rightTable);
        }
    }

    /** One column a statement touches and how. */
    public record StoredColumn(String schema, String table, String column, List<String> roles) {
        public QualifiedName qualifiedTable() {
            return QualifiedName.of(schema, table);
        }
    }

    /**
     * One column-to-value filter of a statement: {@code operator} as written in lower case ({@code =}, {@code in},
     * {@code is null} …), {@code values} the literals the example keeps (empty when they were replaced).
     */
    public record StoredFilter(String schema, String table, String column, String operator, List<String> values) {
        public StoredFilter {
            values = values == null ? List.of() : List.copyOf(values);
        }

        public QualifiedName qualifiedTable() {
            return QualifiedName.of(schema, table);
        }
    }

    /**
     * A filter summed over the stored SELECTs that use it (each statement once).
     *
     * @param lastSeen the latest last-seen of those statements (ISO-8601)
     */
    public record FilterObservation(StoredFilter filter, int statements, long observations, String lastSeen) {
    }

    /**
     * A statement of this run, analysed and free of literals.
     *
     * @param rawCalls  the engine's counter now (a server log: how many times the files read hold it)
     * @param tables    tables read (for a write: written)
     * @param filters   its WHERE / HAVING filters on a value (SELECTs only)
     * @param firstSeen when it first ran, when the source says (a server log); null: the run's time
     * @param lastSeen  when it last ran, when the source says (a server log); null: the run's time
     */
    public record Statement(String fingerprint, String kind, String normalizedSql, long rawCalls, List<QualifiedName> tables,
                            List<StoredJoin> joins, List<StoredColumn> columns, List<String> aggregates,
                            List<String> piiCategories, List<StoredFilter> filters, Instant firstSeen, Instant lastSeen) {

        public Statement {
            filters = filters == null ? List.of() : List.copyOf(filters);
        }

        /** A statement of a statistics view, which keeps no times. */
        public Statement(String fingerprint, String kind, String normalizedSql, long rawCalls, List<QualifiedName> tables,
                         List<StoredJoin> joins, List<StoredColumn> columns, List<String> aggregates,
                         List<String> piiCategories, List<StoredFilter> filters) {
            this(fingerprint, kind, normalizedSql, rawCalls, tables, joins, columns, aggregates, piiCategories, filters,
                    null, null);
        }

        /** A statement whose filters and times are not recorded. */
        public Statement(String fingerprint, String kind, String normalizedSql, long rawCalls, List<QualifiedName> tables,
                         List<StoredJoin> joins, List<StoredColumn> columns, List<String> aggregates,
                         List<String> piiCategories) {
            this(fingerprint, kind, normalizedSql, rawCalls, tables, joins, columns, aggregates, piiCategories, List.of(),
                    null, null);
        }
    }

    /** A stored statement as the tools show it. */
    public record Example(String sourceId, String fingerprint, String kind, String sql, long observations,
                          String firstSeenAt, String lastSeenAt, List<String> tables, List<StoredJoin> joins,
                          List<StoredColumn> columns, List<String> aggregates, List<String> piiCategories) {
    }

    /** What a merge changed. */
    public record MergeResult(int inserted, int updated, boolean resetDetected, long observationsAdded) {
    }

    private record Known(long observations, long lastRaw, String lastSeen) {
    }

    private QueryLogRepository() {
    }

    /** Whether {@code mine-queries} ever ran into this store. */
    public static boolean mined(Connection c) throws SQLException {
        if (!StoreDialect.hasTable(c, "query_log_sources")) {
            return false;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM query_log_sources");
             ResultSet rs = st.executeQuery()) {
            return rs.next();
        }
    }

    private static final String UPSERT = "INSERT INTO query_log (source_id, fingerprint, kind,"
            + " normalized_sql, observations, last_raw_calls, first_seen_at, last_seen_at, tables, joins, columns,"
            + " aggregates, pii_categories, filters) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (source_id, fingerprint) DO UPDATE SET kind = excluded.kind,"
            + " normalized_sql = excluded.normalized_sql, observations = excluded.observations,"
            + " last_raw_calls = excluded.last_raw_calls, last_seen_at = excluded.last_seen_at,"
            + " tables = excluded.tables, joins = excluded.joins, columns = excluded.columns,"
            + " aggregates = excluded.aggregates, pii_categories = excluded.pii_categories, filters = excluded.filters";

    /** Adds this run's statements of {@code sourceId}; call inside {@link Store#write}. */
    public static MergeResult merge(Connection c, String sourceId, Optional<String> resetToken, List<Statement> statements,
                                    Instant now) throws SQLException {
        String at = now.toString();
        Optional<String> previousToken = resetToken(c, sourceId);
        boolean tokenChanged = resetToken.isPresent() && previousToken.isPresent() && !resetToken.equals(previousToken);
        Map<String, Known> known = known(c, sourceId);
        if (tokenChanged) {
            // Every counter restarted, including those of statements not logged since: they add whole when back.
            try (PreparedStatement st = c.prepareStatement("UPDATE query_log SET last_raw_calls = 0 WHERE source_id = ?")) {
                st.setString(1, sourceId);
                st.executeUpdate();
            }
            known.replaceAll((k, v) -> new Known(v.observations(), 0, v.lastSeen()));
        }
        MergeResult result = upsert(c, sourceId, statements, known, at, tokenChanged);
        insertRefs(c, sourceId, statements);
        try (PreparedStatement st = c.prepareStatement("INSERT INTO query_log_sources (source_id, reset_token, last_mined_at)"
                + " VALUES (?, ?, ?) ON CONFLICT (source_id) DO UPDATE SET reset_token = excluded.reset_token,"
                + " last_mined_at = excluded.last_mined_at")) {
            st.setString(1, sourceId);
            st.setString(2, resetToken.orElse(null));
            st.setString(3, at);
            st.executeUpdate();
        }
        return result;
    }

    /** The query log's reset token as the last run saw it. */
    private static Optional<String> resetToken(Connection c, String sourceId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT reset_token FROM query_log_sources WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The statements already kept for {@code sourceId}, by fingerprint. */
    private static Map<String, Known> known(Connection c, String sourceId) throws SQLException {
        Map<String, Known> known = new HashMap<>();
        try (PreparedStatement st = c.prepareStatement(
                "SELECT fingerprint, observations, last_raw_calls, last_seen_at FROM query_log WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    known.put(rs.getString(1), new Known(rs.getLong(2), rs.getLong(3), rs.getString(4)));
                }
            }
        }
        return known;
    }

    /**
     * Each statement added or updated by the calls since the last run (all of them when its counter went down: the
     * log was reset), its table and column references cleared for {@link #insertRefs}.
     */
    private static MergeResult upsert(Connection c, String sourceId, List<Statement> statements, Map<String, Known> known,
                                      String at, boolean reset) throws SQLException {
        int inserted = 0;
        long added = 0;
        try (PreparedStatement upsert = c.prepareStatement(UPSERT);
             PreparedStatement deleteRefs = c.prepareStatement(
                     "DELETE FROM query_log_refs WHERE source_id = ? AND fingerprint = ?")) {
            for (Statement s : statements) {
                Known k = known.get(s.fingerprint());
                boolean wentDown = k != null && s.rawCalls() < k.lastRaw();
                long delta = k == null || wentDown ? s.rawCalls() : s.rawCalls() - k.lastRaw();
                inserted += k == null ? 1 : 0;
                reset |= wentDown;
                added += delta;
                bindUpsert(upsert, sourceId, s, k, delta, at);
                deleteRefs.setString(1, sourceId);
                deleteRefs.setString(2, s.fingerprint());
                deleteRefs.addBatch();
            }
            upsert.executeBatch();
            deleteRefs.executeBatch();
        }
        return new MergeResult(inserted, statements.size() - inserted, reset, added);
    }

    private static void bindUpsert(PreparedStatement upsert, String sourceId, Statement s, Known k, long delta, String at)
            throws SQLException {
        upsert.setString(1, sourceId);
        upsert.setString(2, s.fingerprint());
        upsert.setString(3, s.kind());
        upsert.setString(4, s.normalizedSql());
        upsert.setLong(5, (k == null ? 0 : k.observations()) + delta);
        upsert.setLong(6, s.rawCalls());
        upsert.setString(7, s.firstSeen() == null ? at : s.firstSeen().toString());
        upsert.setString(8, k == null || delta > 0 ? (s.lastSeen() == null ? at : s.lastSeen().toString()) : k.lastSeen());
        upsert.setString(9, json(s.tables().stream().map(QualifiedName::toString).toList()));
        upsert.setString(10, json(s.joins()));
        upsert.setString(11, json(s.columns()));
        upsert.setString(12, json(s.aggregates()));
        upsert.setString(13, json(s.piiCategories()));
        upsert.setString(14, json(s.filters()));
        upsert.addBatch();
    }

    /** Each statement's tables and columns, for finding the statements that read a column. */
    private static void insertRefs(Connection c, String sourceId, List<Statement> statements) throws SQLException {
        try (PreparedStatement insertRef = c.prepareStatement("INSERT INTO query_log_refs (source_id, fingerprint,"
                + " schema_name, table_name, column_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (Statement s : statements) {
                for (QualifiedName t : s.tables()) {
                    ref(insertRef, sourceId, s.fingerprint(), t, "");
                }
                for (StoredColumn col : s.columns()) {
                    ref(insertRef, sourceId, s.fingerprint(), col.qualifiedTable(), col.column());
                }
            }
            insertRef.executeBatch();
        }
    }

    /**
     * Deletes the source's statements whose stored text {@code unsafe} rejects (kept by an older normalizer, which
     * let a value through); returns how many. Their counts restart from the engine's counter on the next merge.
     */
    public static int deleteWhere(Connection c, String sourceId, Predicate<String> unsafe) throws SQLException {
        List<String> doomed = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT fingerprint, normalized_sql FROM query_log WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    if (unsafe.test(rs.getString(2))) {
                        doomed.add(rs.getString(1));
                    }
                }
            }
        }
        for (String table : List.of("query_log_refs", "query_log")) {
            try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table + " WHERE source_id = ? AND fingerprint = ?")) {
                for (String f : doomed) {
                    st.setString(1, sourceId);
                    st.setString(2, f);
                    st.addBatch();
                }
                st.executeBatch();
            }
        }
        return doomed.size();
    }

    private static void ref(PreparedStatement insert, String sourceId, String fingerprint, QualifiedName table, String column)
            throws SQLException {
        insert.setString(1, sourceId);
        insert.setString(2, fingerprint);
        insert.setString(3, table.schema());
        insert.setString(4, table.table());
        insert.setString(5, column);
        insert.addBatch();
    }

    /**
     * The SELECT examples touching {@code table} (or, with {@code column}, that column), most observed first, then
     * most recently seen, at most {@code limit}; with the total there is.
     */
    public static Page examples(Connection c, QualifiedName table, String column, int limit) throws SQLException {
        if (!StoreDialect.hasTable(c, "query_log")) {
            return new Page(List.of(), 0);
        }
        String where = " FROM query_log q JOIN query_log_refs r ON r.source_id = q.source_id AND r.fingerprint = q.fingerprint"
                + " WHERE q.kind = 'select' AND r.schema_name = ? AND r.table_name = ? AND r.column_name = ?";
        long total;
        try (PreparedStatement st = c.prepareStatement("SELECT count(*)" + where)) {
            bind(st, table, column);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
        }
        List<Example> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT q.source_id, q.fingerprint, q.kind, q.normalized_sql,"
                + " q.observations, q.first_seen_at, q.last_seen_at, q.tables, q.joins, q.columns, q.aggregates,"
                + " q.pii_categories" + where + " ORDER BY q.observations DESC, q.last_seen_at DESC, q.fingerprint LIMIT ?")) {
            bind(st, table, column);
            st.setInt(4, limit);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(example(rs));
                }
            }
        }
        return new Page(out, total);
    }

    /** A page of examples and how many there are in all. */
    public record Page(List<Example> examples, long total) {
    }

    /** Every statement of a source, most observed first (both kinds): for tests and the joins summary. */
    public static List<Example> all(Connection c, String sourceId) throws SQLException {
        List<Example> out = new ArrayList<>();
        if (!StoreDialect.hasTable(c, "query_log")) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT source_id, fingerprint, kind, normalized_sql, observations,"
                + " first_seen_at, last_seen_at, tables, joins, columns, aggregates, pii_categories FROM query_log"
                + " WHERE source_id = ? ORDER BY observations DESC, fingerprint")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(example(rs));
                }
            }
        }
        return out;
    }

    /** Every distinct join the SELECT statements of all sources use, with the sum of their observations. */
    public static Map<StoredJoin, Long> joinObservations(Connection c) throws SQLException {
        Map<StoredJoin, Long> out = new LinkedHashMap<>();
        if (!StoreDialect.hasTable(c, "query_log")) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT joins, observations FROM query_log WHERE kind = 'select'"
                + " AND joins <> '[]' ORDER BY fingerprint");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                for (StoredJoin j : read(rs.getString(1), JOINS)) {
                    out.merge(j, rs.getLong(2), Long::sum);
                }
            }
        }
        return out;
    }

    /**
     * Every distinct filter the SELECT statements of all sources use: in how many statements, their summed
     * observations and when one was last seen; most statements first, then most observations. A re-mine updates a
     * statement's row, so the counts move and nothing is counted twice.
     */
    public static List<FilterObservation> filterObservations(Connection c) throws SQLException {
        Map<StoredFilter, FilterObservation> out = new LinkedHashMap<>();
        if (!StoreDialect.hasTable(c, "query_log") || !StoreDialect.hasColumn(c, "query_log", "filters")) {
            return List.of();
        }
        try (PreparedStatement st = c.prepareStatement("SELECT filters, observations, last_seen_at FROM query_log"
                + " WHERE kind = 'select' AND filters <> '[]' ORDER BY fingerprint");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                long observations = rs.getLong(2);
                String seen = rs.getString(3);
                // A statement filtering twice on the same thing counts once.
                for (StoredFilter f : new LinkedHashSet<>(read(rs.getString(1), FILTERS))) {
                    out.merge(f, new FilterObservation(f, 1, observations, seen), (a, b) -> new FilterObservation(f,
                            a.statements() + 1, a.observations() + b.observations(),
                            a.lastSeen().compareTo(b.lastSeen()) >= 0 ? a.lastSeen() : b.lastSeen()));
                }
            }
        }
        return out.values().stream().sorted(Comparator.comparingInt(FilterObservation::statements).reversed()
                .thenComparing(Comparator.comparingLong(FilterObservation::observations).reversed())).toList();
    }

    private static void bind(PreparedStatement st, QualifiedName table, String column) throws SQLException {
        st.setString(1, table.schema());
        st.setString(2, table.table());
        st.setString(3, column == null ? "" : column);
    }

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<List<StoredJoin>> JOINS = new TypeReference<>() {
    };
    private static final TypeReference<List<StoredColumn>> COLUMNS = new TypeReference<>() {
    };
    private static final TypeReference<List<StoredFilter>> FILTERS = new TypeReference<>() {
    };

    private static Example example(ResultSet rs) throws SQLException {
        return new Example(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                rs.getString(6), rs.getString(7), read(rs.getString(8), STRINGS), read(rs.getString(9), JOINS),
                read(rs.getString(10), COLUMNS), read(rs.getString(11), STRINGS), read(rs.getString(12), STRINGS));
    }

    private static <T> T read(String json, TypeReference<T> type) throws SQLException {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new SQLException("a stored query-log row is not valid JSON (" + e.getOriginalMessage()
                    + "); run 'schemabrain mine-queries' again", e);
        }
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("records of strings always serialize", e);
        }
    }
}
