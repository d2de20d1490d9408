package dev.schemabrain.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.store.SqlScript;
import dev.schemabrain.store.SqliteStore;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.sql.DriverManager;
import java.sql.Statement;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The hash-chained, append-only audit log (SPEC §9.2), an SQLite file beside the store
 * ({@code schemabrain.db} → {@code schemabrain.audit.db}). Each append is one immediate transaction
 * that reads the chain's head and writes the next row, so concurrent callers, threads or processes,
 * still form one linear chain; a killed process leaves either its whole row or none. Rows are never
 * changed: triggers reject UPDATE and DELETE.
 */
public final class AuditLog implements AutoCloseable {

    /** The first row's prev_hash: 32 zero bytes. */
    public static final String GENESIS = "0".repeat(64);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };

    /** "SBAU": marks a file as a SchemaBrain audit log. */
    static final int APPLICATION_ID = 0x53424155;

    private final Path file;
    private final Connection connection;   // null: no call was ever recorded for this store
    private final Clock clock;

    private AuditLog(Path file, Connection connection, Clock clock) {
        this.file = file;
        this.connection = connection;
        this.clock = clock;
    }

    /** The audit file of the store at {@code storePath}. */
    public static Path fileFor(Path storePath) {
        String name = storePath.getFileName().toString();
        String base = name.endsWith(".db") ? name.substring(0, name.length() - 3) : name;
        return storePath.resolveSibling(base + ".audit.db");
    }

    /** Opens the store's audit log for appending, creating the file when needed. */
    public static AuditLog open(Path storePath) throws AuditException {
        return open(storePath, Clock.systemUTC());
    }

    static AuditLog open(Path storePath, Clock clock) throws AuditException {
        Path file = fileFor(storePath);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new AuditException("Cannot create the directory for the audit log " + file + "; check the path and its"
                    + " permissions.", e);
        }
        Connection c = connect(file);
        try {
            checkIdentity(c, file);
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode = WAL");
            }
            inTransaction(c, () -> {
                try (Statement st = c.createStatement()) {
                    for (String sql : SqlScript.statements(schema())) {
                        st.execute(sql);
                    }
                    st.execute("PRAGMA application_id = " + APPLICATION_ID);
                }
                return null;
            });
            return new AuditLog(file, c, clock);
        } catch (SQLException | AuditException | RuntimeException e) {
            closeQuietly(c);
            if (e instanceof AuditException ae) {
                throw ae;
            }
            throw new AuditException("The audit log " + file + " cannot be opened (" + e.getMessage() + "); check the"
                    + " file and its permissions.", e);
        }
    }

    /**
     * Opens the store's audit log for reading; nothing is written. A store whose tools were never
     * called has an empty log.
     */
    public static AuditLog openExisting(Path storePath) throws AuditException {
        Path file = fileFor(storePath);
        if (!Files.isRegularFile(file)) {
            if (!SqliteStore.exists(storePath)) {
                throw new AuditException("There is no store at " + storePath + " and no audit log beside it; pass the"
                        + " --store the server runs on.", null);
            }
            return new AuditLog(file, null, Clock.systemUTC());
        }
        Connection c = connect(file);
        try {
            checkIdentity(c, file);
            return new AuditLog(file, c, Clock.systemUTC());
        } catch (AuditException | RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    public Path file() {
        return file;
    }

    private static Connection connect(Path file) throws AuditException {
        SQLiteConfig config = new SQLiteConfig();
        // FULL: each append's commit is fsynced, so a recorded call survives a power cut too (in WAL mode
        // NORMAL only survives a killed process); one or two appends per tool call can afford it.
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        // The write lock is taken at BEGIN: two appenders queue instead of both reading the same head.
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        config.setBusyTimeout(10_000);
        try {
            return DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        } catch (SQLException e) {
            throw new AuditException("The audit log " + file + " cannot be opened (" + e.getMessage() + "); check the"
                    + " file and its permissions.", e);
        }
    }

    private static void checkIdentity(Connection c, Path file) throws AuditException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA application_id")) {
            int id = rs.next() ? rs.getInt(1) : 0;
            if (id != 0 && id != APPLICATION_ID) {
                throw new AuditException(file + " is not a SchemaBrain audit log; move it away or pass another --store.", null);
            }
        } catch (SQLException e) {
            throw new AuditException(file + " is not a SchemaBrain audit log (" + e.getMessage() + "); move it away or"
                    + " pass another --store.", e);
        }
    }

    private static String schema() {
        try (InputStream in = AuditLog.class.getResourceAsStream("audit.sql")) {
            if (in == null) {
                throw new IllegalStateException("audit.sql is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("audit.sql cannot be read", e);
        }
    }

    private interface Work<T> {
        T run() throws SQLException;
    }

    private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
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

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Nothing was written through it.
        }
    }

    /** Appends {@code entry} as the chain's next row; durable when it returns. Answers the row's id. */
    public synchronized long append(AuditEntry entry) throws AuditException {
        if (connection == null) {
            throw new AuditException("The audit log " + file + " was opened for reading only.", null);
        }
        Connection c = connection;
        try {
            return inTransaction(c, () -> {
                long id = 1;
                String prev = GENESIS;
                try (PreparedStatement head = c.prepareStatement("SELECT id, chain_hash FROM audit_log ORDER BY id DESC LIMIT 1");
                     ResultSet rs = head.executeQuery()) {
                    if (rs.next()) {
                        id = rs.getLong(1) + 1;
                        prev = rs.getString(2);
                    }
                }
                String occurredAt = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.MILLIS));
                String hash = chainHash(prev, id, occurredAt, entry);
                try (PreparedStatement st = c.prepareStatement("""
                        INSERT INTO audit_log (id, occurred_at, source_id, caller, tool, phase, status, error_kind,
                          pii_categories, args_hash, sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
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
                    st.setString(14, prev);
                    st.setString(15, hash);
                    st.executeUpdate();
                }
                return id;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log could not record a call to " + entry.tool() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Recomputes the chain, from the first row or from row {@code sinceId} (then linked to the row before
     * it), and names the first row that does not verify.
     */
    public VerifyResult verify(OptionalLong sinceId) throws AuditException {
        if (connection == null) {
            return VerifyResult.intact(0);
        }
        Connection c = connection;
        try {
            return read(() -> {
                String expectedPrev = GENESIS;
                long from = sinceId.orElse(Long.MIN_VALUE);
                if (sinceId.isPresent()) {
                    try (PreparedStatement st = c.prepareStatement(
                            "SELECT chain_hash FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT 1")) {
                        st.setLong(1, from);
                        try (ResultSet rs = st.executeQuery()) {
                            expectedPrev = rs.next() ? rs.getString(1) : GENESIS;
                        }
                    }
                }
                long checked = 0;
                try (PreparedStatement st = c.prepareStatement(SELECT + " WHERE id >= ? ORDER BY id")) {
                    st.setLong(1, from);
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            checked++;
                            AuditRecord r;
                            try {
                                r = record(rs);
                            } catch (IllegalStateException | IllegalArgumentException unreadable) {
                                return VerifyResult.broken(checked, rs.getLong(1), "its content cannot be read: the row was altered");
                            }
                            if (!r.prevHash().equals(expectedPrev)) {
                                return VerifyResult.broken(checked, r.id(), "its prev_hash is not the previous row's"
                                        + " chain_hash: a row before it was deleted, inserted or moved");
                            }
                            if (!chainHash(r.prevHash(), r.id(), r.occurredAt(), r.entry()).equals(r.chainHash())) {
                                return VerifyResult.broken(checked, r.id(), "its content does not match its chain_hash:"
                                        + " the row was altered or forged");
                            }
                            expectedPrev = r.chainHash();
                        }
                    }
                }
                return VerifyResult.intact(checked);
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log " + file + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** The newest {@code limit} rows with an id of at least {@code sinceId}, in id order. */
    public List<AuditRecord> list(int limit, OptionalLong sinceId) throws AuditException {
        if (connection == null) {
            return List.of();
        }
        Connection c = connection;
        try {
            return read(() -> {
                List<AuditRecord> out = new ArrayList<>();
                try (PreparedStatement st = c.prepareStatement(SELECT + " WHERE id >= ? ORDER BY id DESC LIMIT ?")) {
                    st.setLong(1, sinceId.orElse(Long.MIN_VALUE));
                    st.setInt(2, limit);
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            out.add(record(rs));
                        }
                    }
                }
                Collections.reverse(out);
                return out;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log " + file + " cannot be read (" + e.getMessage() + ").", e);
        }
    }

    /** One consistent snapshot for a multi-statement read, even while other processes append. */
    private synchronized <T> T read(Work<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT 1 FROM audit_log LIMIT 1");   // holds the read snapshot
        } catch (SQLException e) {
            connection.setAutoCommit(true);
            throw e;
        }
        try {
            return work.run();
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            closeQuietly(connection);
        }
    }

    private static final String SELECT = """
            SELECT id, occurred_at, source_id, caller, tool, phase, status, error_kind, pii_categories, args_hash,
                   sql_fingerprint, row_count, duration_ms, prev_hash, chain_hash FROM audit_log""";

    private static AuditRecord record(ResultSet rs) throws SQLException {
        AuditEntry entry = new AuditEntry(rs.getString(3), rs.getString(4), rs.getString(5),
                AuditEntry.Phase.fromWireName(rs.getString(6)), rs.getString(7), rs.getString(8), strings(rs.getString(9)),
                rs.getString(10), rs.getString(11), getLong(rs, 12), getLong(rs, 13));
        return new AuditRecord(rs.getLong(1), rs.getString(2), entry, rs.getString(14), rs.getString(15));
    }

    /** sha256(prev_hash bytes ‖ canonical JSON of the content fields), hex. */
    static String chainHash(String prevHex, long id, String occurredAt, AuditEntry e) {
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
        byte[] prev;
        try {
            prev = HexFormat.of().parseHex(prevHex);
        } catch (IllegalArgumentException notHex) {
            prev = prevHex.getBytes(StandardCharsets.UTF_8);   // a forged, malformed prev_hash still gets a (wrong) hash
        }
        return HexFormat.of().formatHex(CanonicalJson.sha256(prev, CanonicalJson.bytes(content)));
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
