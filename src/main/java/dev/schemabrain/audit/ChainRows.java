package dev.schemabrain.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The audit_log row: its columns, how one is written and read back, and its chain hash. */
final class ChainRows {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    private static final String COLUMNS = """
            id, occurred_at, source_id, caller, tool, phase, status, error_kind, pii_categories, args_hash,
                   sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash""";

    /**
     * The rows with their role columns; a log not migrated yet (opened only to read) answers NULL for them, which
     * is what its rows hold.
     */
    static String select(Connection c) throws SQLException {
        return "SELECT " + COLUMNS + (hasRoleColumns(c) ? ", role, row_filters" : ", NULL, NULL") + " FROM audit_log";
    }

    static String insert(boolean roles) {
        return "INSERT INTO audit_log (" + COLUMNS + (roles ? ", role, row_filters" : "") + ") VALUES ("
                + "?, ".repeat(roles ? 16 : 14) + "?)";
    }

    /** Whether audit_log has the role and row_filters columns (audit.sql's ALTERs; PostgreSQL store migration V13). */
    static boolean hasRoleColumns(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT * FROM audit_log WHERE 1 = 0"); ResultSet rs = st.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                if (meta.getColumnName(i).equalsIgnoreCase("role")) {
                    return true;
                }
            }
            return false;
        }
    }

    private ChainRows() {
    }

    interface Work<T> {
        T run() throws SQLException;
    }

    static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T result = work.run();
            c.commit();
            return result;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // The connection is failing; the transaction dies with it.
            }
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** The chain's head: the last row's id and chain_hash; {@link Head#EMPTY} for an empty log. */
    static Head lastRow(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT id, chain_hash FROM audit_log ORDER BY id DESC LIMIT 1");
             ResultSet rs = st.executeQuery()) {
            return rs.next() ? new Head(rs.getLong(1), rs.getString(2)) : Head.EMPTY;
        }
    }

    /** The chain_hash stored at row {@code id}; empty when there is no such row. Row 0 is the genesis. */
    static Optional<String> storedHash(Connection c, long id) throws SQLException {
        if (id == 0) {
            return Optional.of(AuditLog.GENESIS);
        }
        try (PreparedStatement st = c.prepareStatement("SELECT chain_hash FROM audit_log WHERE id = ?")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** Adds row {@code id} to {@link #insert}'s batch. */
    static void bind(PreparedStatement st, long id, String occurredAt, AuditEntry entry, String prevHash, String hash,
                     boolean roles) throws SQLException {
        st.setLong(1, id);
        st.setString(2, occurredAt);
        st.setString(3, entry.sourceId());
        st.setString(4, entry.caller());
        st.setString(5, entry.tool());
        st.setString(6, entry.phase().wireName());
        st.setString(7, entry.status());
        st.setString(8, entry.errorKind());
        st.setString(9, json(entry.piiCategories()));
        st.setString(10, entry.argsHash());
        st.setString(11, entry.sqlFingerprint());
        setLong(st, 12, entry.rowCount());
        setLong(st, 13, entry.durationMs());
        st.setString(14, prevHash);
        st.setString(15, hash);
        if (roles) {
            st.setString(16, entry.role());
            st.setString(17, entry.rowFilters().isEmpty() ? null : json(entry.rowFilters()));
        }
        st.addBatch();
    }

    /** A row of {@link #select}. */
    static AuditRecord record(ResultSet rs) throws SQLException {
        String filters = rs.getString(17);
        AuditEntry entry = new AuditEntry(rs.getString(3), rs.getString(4), rs.getString(5),
                AuditEntry.Phase.fromWireName(rs.getString(6)), rs.getString(7), rs.getString(8), strings(rs.getString(9)),
                rs.getString(10), rs.getString(11), getLong(rs, 12), getLong(rs, 13), rs.getString(16),
                filters == null ? List.of() : strings(filters));
        return new AuditRecord(rs.getLong(1), rs.getString(2), entry, rs.getString(14), rs.getString(15));
    }

    /**
     * HMAC-SHA256(chain key, prev_hash bytes ‖ canonical JSON of the content fields), hex; with no key
     * (rows of a keyless log) plain sha256 over the same bytes. {@code bound}, when not null: the mark's MAC,
     * hashed after prev_hash in the one row bound to the mark.
     */
    static String chainHash(AuditKey key, String prevHex, byte[] bound, long id, String occurredAt, AuditEntry e) {
        byte[] prev = prevBytes(prevHex);
        if (bound != null) {
            byte[] both = Arrays.copyOf(prev, prev.length + bound.length);
            System.arraycopy(bound, 0, both, prev.length, bound.length);
            prev = both;
        }
        byte[] body = CanonicalJson.bytes(content(id, occurredAt, e));
        return HexFormat.of().formatHex(key == null ? CanonicalJson.sha256(prev, body) : key.chainMac(prev, body));
    }

    private static byte[] prevBytes(String prevHex) {
        try {
            return HexFormat.of().parseHex(prevHex);
        } catch (IllegalArgumentException notHex) {
            return prevHex.getBytes(StandardCharsets.UTF_8);   // a forged, malformed prev_hash still gets a (wrong) hash
        }
    }

    private static Map<String, Object> content(long id, String occurredAt, AuditEntry e) {
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("id", id);
        content.put("occurred_at", occurredAt);
        content.put("source_id", e.sourceId());
        content.put("caller", e.caller());
        content.put("tool", e.tool());
        content.put("phase", e.phase().wireName());
        content.put("status", e.status());
        content.put("error_kind", e.errorKind());
        content.put("pii_categories", e.piiCategories());
        content.put("args_hash", e.argsHash());
        content.put("sql_fingerprint", e.sqlFingerprint());
        content.put("row_count", e.rowCount());
        content.put("duration_ms", e.durationMs());
        // Only when there is one: a row without a role hashes as every row did before roles, so old chains verify.
        if (e.role() != null) {
            content.put("role", e.role());
        }
        if (!e.rowFilters().isEmpty()) {
            content.put("row_filters", e.rowFilters());
        }
        return content;
    }

    private static void setLong(PreparedStatement st, int at, Long value) throws SQLException {
        if (value == null) {
            st.setNull(at, Types.INTEGER);
        } else {
            st.setLong(at, value);
        }
    }

    private static Long getLong(ResultSet rs, int at) throws SQLException {
        long v = rs.getLong(at);
        return rs.wasNull() ? null : v;
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings always serializes", e);
        }
    }

    private static List<String> strings(String json) {
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("pii_categories holds invalid JSON: " + json, e);
        }
    }
}
