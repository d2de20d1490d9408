package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.store.AuditWitnessStore;
import dev.schemabrain.store.PostgresStore;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreDialect;
import dev.schemabrain.store.StoreLocation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/**
 * The chain in a PostgreSQL store's schema (migration V7), appended to by every instance serving that
 * store. An append's transaction first takes an advisory lock for the schema's chain, then reads the
 * head (the largest id: the lock holder before it committed, so it is visible) and inserts after it; the
 * lock is released at commit, so concurrent appends of all instances form one linear chain. Commits run
 * with {@code synchronous_commit} on whatever the server's default: a commit is the row's fsync.
 */
final class PostgresChain implements ChainStore {

    /** trigger name → (table, tgtype bits: ROW 1, BEFORE 2, DELETE 8, UPDATE 16, TRUNCATE 32). */
    private static final Map<String, String> TRIGGERS = Map.of(
            "audit_log_no_change", "audit_log:27", "audit_log_no_truncate", "audit_log:34",
            "audit_meta_no_change", "audit_meta:27", "audit_meta_no_truncate", "audit_meta:34");
    private static final String GUARD_BODY = "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END";

    private final StoreLocation.PostgresSchema location;
    private final Connection connection;
    private final AuditWitnessStore.Witnesses witnesses;

    private PostgresChain(StoreLocation.PostgresSchema location, Connection connection, int witnessBusyMillis) {
        this.location = location;
        this.connection = connection;
        this.witnesses = AuditWitnessStore.of(location, witnessBusyMillis);
    }

    /** Connects for reading; the tables may not exist yet (a store never written by this build). */
    static PostgresChain open(StoreLocation.PostgresSchema location, int witnessBusyMillis) throws AuditException {
        try {
            Connection c = PostgresStore.connect(location, "schemabrain-audit");
            try (Statement st = c.createStatement()) {
                st.execute("SET synchronous_commit TO on");
            } catch (SQLException e) {
                closeQuietly(c);
                throw new AuditException("The audit log in the store " + location + " cannot be opened ("
                        + PostgresStore.reason(e) + ").", e);
            }
            return new PostgresChain(location, c, witnessBusyMillis);
        } catch (StoreException e) {
            throw new AuditException(e.getMessage(), e);
        }
    }

    /**
     * Connects for appending under {@code key}: migrates a store of an older build (the owner role can; a
     * serving role gets one sentence saying who must), and names the key in audit_meta on the first serve.
     */
    static PostgresChain openForAppend(StoreLocation.PostgresSchema location, AuditKey key, int witnessBusyMillis)
            throws AuditException {
        PostgresChain chain = open(location, witnessBusyMillis);
        try {
            if (!chain.hasLog()) {
                try (Store store = PostgresStore.open(location)) {
                    store.write(c -> null);   // applies the missing migrations, V7's chain tables among them
                } catch (StoreException e) {
                    throw new AuditException("The store " + location + " has no audit chain tables yet and this role"
                            + " cannot add them (" + e.getMessage() + "); run schemabrain index once with the store's"
                            + " owner role, then serve again.", e);
                }
            }
            if (!AuditSchema.hasKeyId(chain.connection)) {
                // Two first instances: one insert wins, the other's does nothing, both then read the same key id.
                try (PreparedStatement st = chain.connection.prepareStatement(
                        "INSERT INTO audit_meta (name, value) VALUES ('format', ?), ('key_id', ?), ('legacy_rows', '0')"
                                + " ON CONFLICT (name) DO NOTHING")) {
                    st.setString(1, AuditLog.FORMAT);
                    st.setString(2, key.id());
                    st.executeUpdate();
                }
            }
            return chain;
        } catch (SQLException e) {
            chain.close();
            throw new AuditException("The audit log in the store " + location + " cannot be opened ("
                    + PostgresStore.reason(e) + "); check the serving role's grants (docs/deployment.md).", e);
        } catch (AuditException | RuntimeException e) {
            chain.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "in the store " + location;
    }

    @Override
    public StoreLocation location() {
        return location;
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public void lockHead(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(hashtextextended('schemabrain audit ' || current_schema(), 0))");
        }
    }

    @Override
    public void checkSame() {
        // A table has no file to swap; its triggers were checked at open and the witnesses catch a rollback.
    }

    @Override
    public void force() {
        // Every commit on this connection waited for its WAL flush (synchronous_commit on).
    }

    @Override
    public boolean hasLog() throws SQLException {
        return StoreDialect.hasTable(connection, "audit_log");
    }

    @Override
    public String problem(boolean keyless) throws SQLException {
        Map<String, String> found = new TreeMap<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT t.tgname, c.relname, t.tgtype, t.tgenabled, p.proname
                FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relname IN ('audit_log', 'audit_meta')
                  AND NOT t.tgisinternal""")) {
            while (rs.next()) {
                String name = rs.getString(1);
                String expected = TRIGGERS.get(name);
                if (expected == null) {
                    return "it holds a trigger " + name + " SchemaBrain did not create";
                }
                if (!rs.getString(4).equals("O") && !rs.getString(4).equals("A")) {
                    return "its trigger " + name + " is disabled";
                }
                String actual = rs.getString(2) + ":" + rs.getInt(3);
                if (!actual.equals(expected) || !rs.getString(5).equals("audit_append_only")) {
                    return "its trigger " + name + " was changed";
                }
                found.put(name, actual);
            }
        }
        for (String name : TRIGGERS.keySet()) {
            if (!found.containsKey(name)) {
                return "its trigger " + name + " is missing";
            }
        }
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT prosrc FROM pg_proc WHERE proname = 'audit_append_only' AND pronamespace = current_schema()::regnamespace")) {
            if (!rs.next() || !rs.getString(1).replaceAll("\\s+", " ").strip().equals(GUARD_BODY)) {
                return "its function audit_append_only was changed";
            }
        }
        return null;
    }

    @Override
    public void beginRead(Connection c) throws SQLException {
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    }

    @Override
    public void endRead(Connection c) throws SQLException {
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    }

    @Override
    public AuditWitnessStore.Witnesses witnesses() {
        return witnesses;
    }

    @Override
    public void close() {
        witnesses.close();
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // Every append committed or rolled back before it returned.
        }
    }
}
