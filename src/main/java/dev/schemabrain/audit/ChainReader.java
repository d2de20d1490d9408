package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads the chain through the log's one connection, each multi-statement read inside one snapshot even
 * while other processes append. Reads and appends share {@code onConnection}, the connection's lock.
 */
final class ChainReader {

    /** Every row from {@code sinceId} in id order, inside one read snapshot. */
    interface RowVisitor {
        /** @param unreadable why the row cannot be read (then only its id is set), or null; @return false to stop */
        boolean visit(AuditRecord row, String unreadable);
    }

    private final ChainStore chain;
    private final Connection connection;   // null: there is no log to read
    private final Object onConnection;

    ChainReader(ChainStore chain, Object onConnection) {
        this.chain = chain;
        this.connection = chain.connection();
        this.onConnection = onConnection;
    }

    /** The chain's head: the last row's id and chain_hash; {@link Head#EMPTY} for an empty log. */
    Head head() throws AuditException {
        if (connection == null) {
            return Head.EMPTY;
        }
        try {
            if (!chain.hasLog()) {
                return Head.EMPTY;
            }
            return ChainRows.lastRow(connection);
        } catch (SQLException e) {
            throw unreadable(e);
        }
    }

    /** The chain_hash stored at row {@code id}; empty when there is no such row. Row 0 is the genesis. */
    Optional<String> storedHash(long id) throws SQLException {
        return ChainRows.storedHash(connection, id);
    }

    void scan(OptionalLong sinceId, RowVisitor visitor) throws AuditException {
        if (connection == null) {
            return;
        }
        try {
            read(() -> {
                try (PreparedStatement st = connection.prepareStatement(ChainRows.select(connection) + " WHERE id >= ? ORDER BY id")) {
                    st.setLong(1, sinceId.orElse(Long.MIN_VALUE));
                    try (ResultSet rs = st.executeQuery()) {
                        visitRows(rs, visitor);
                    }
                }
                return null;
            });
        } catch (SQLException | RuntimeException e) {
            throw unreadable(e);
        }
    }

    private static void visitRows(ResultSet rs, RowVisitor visitor) throws SQLException {
        while (rs.next()) {
            AuditRecord r;
            try {
                r = ChainRows.record(rs);
            } catch (IllegalStateException | IllegalArgumentException | NullPointerException unreadable) {
                if (!visitor.visit(new AuditRecord(rs.getLong(1), null, null, null, null),
                        "its content cannot be read: the row was altered")) {
                    return;
                }
                continue;
            }
            if (!visitor.visit(r, null)) {
                return;
            }
        }
    }

    /** The newest {@code limit} rows with an id of at least {@code sinceId}, in id order; see {@link AuditLog#list}. */
    List<AuditRecord> list(int limit, OptionalLong sinceId, List<String> fingerprints, Optional<String> role)
            throws AuditException {
        if (connection == null) {
            return List.of();
        }
        try {
            if (!chain.hasLog()) {
                return List.of();
            }
            if (role.isPresent() && !ChainRows.hasRoleColumns(connection)) {
                return List.of();   // a log written before roles: no row has one
            }
            return read(() -> newest(limit, sinceId, fingerprints, role));
        } catch (SQLException | RuntimeException e) {
            throw unreadable(e);
        }
    }

    private List<AuditRecord> newest(int limit, OptionalLong sinceId, List<String> fingerprints, Optional<String> role)
            throws SQLException {
        List<AuditRecord> out = new ArrayList<>();
        String only = (fingerprints.isEmpty() ? ""
                : " AND sql_fingerprint IN (" + String.join(", ", Collections.nCopies(fingerprints.size(), "?")) + ")")
                + (role.isPresent() ? " AND role = ?" : "");
        try (PreparedStatement st = connection.prepareStatement(ChainRows.select(connection) + " WHERE id >= ?" + only
                + " ORDER BY id DESC LIMIT ?")) {
            int at = 1;
            st.setLong(at++, sinceId.orElse(Long.MIN_VALUE));
            for (String f : fingerprints) {
                st.setString(at++, f);
            }
            if (role.isPresent()) {
                st.setString(at++, role.get());
            }
            st.setInt(at, limit);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(ChainRows.record(rs));
                }
            }
        }
        Collections.reverse(out);
        return out;
    }

    /** One consistent snapshot for a multi-statement read, even while other processes append. */
    private <T> T read(ChainRows.Work<T> work) throws SQLException {
        synchronized (onConnection) {
            chain.beginRead(connection);
            connection.setAutoCommit(false);
            try (Statement st = connection.createStatement()) {
                st.execute("SELECT 1 FROM audit_log LIMIT 1");   // holds the read snapshot
            } catch (SQLException e) {
                connection.rollback();
                connection.setAutoCommit(true);
                chain.endRead(connection);
                throw e;
            }
            try {
                return work.run();
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
                chain.endRead(connection);
            }
        }
    }

    private AuditException unreadable(Exception e) {
        return new AuditException("The audit log " + chain.name() + " cannot be read (" + e.getMessage() + ").", e);
    }
}
