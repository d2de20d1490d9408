package dev.schemabrain.engine.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.engine.DisplayedParameters;
import dev.schemabrain.engine.ColumnGrants;
import dev.schemabrain.engine.DateTruncDialect;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.QueryLog;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.sql.guard.SqlRules;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * PostgreSQL (12 or newer): the session is read-only from its startup options
 * (default_transaction_read_only, so even a statement outside a transaction cannot write), and a query
 * session has its own statement_timeout.
 */
public final class PostgresEngine implements Engine, DateTruncDialect {

    private static final int DEFAULT_PORT = 5432;
    /** URL parameters that hold no secret: shown and stored; every other one only reaches the driver. */
    private static final Set<String> DISPLAYED = DisplayedParameters.of("sslmode", "ssl", "gssEncMode", "connectTimeout",
                "socketTimeout", "loginTimeout", "cancelSignalTimeout", "tcpKeepAlive", "applicationName", "ApplicationName",
                "currentSchema", "targetServerType", "loadBalanceHosts", "readOnly", "readOnlyMode", "prepareThreshold",
                "defaultRowFetchSize", "reWriteBatchedInserts", "stringtype", "assumeMinServerVersion");

    @Override
    public SourceKind kind() {
        return SourceKind.POSTGRESQL;
    }

    @Override
    public String title() {
        return "PostgreSQL";
    }

    @Override
    public List<String> schemes() {
        return List.of("postgresql", "postgres");
    }

    @Override
    public String shownScheme(String scheme) {
        return "postgresql";
    }

    @Override
    public boolean fileBased() {
        return false;
    }

    @Override
    public boolean displays(String key) {
        return DISPLAYED.contains(key);
    }

    @Override
    public SchemaSource open(SourceUrl url) {
        return new PostgresSource(url);
    }

    @Override
    public Optional<QueryLog> queryLog() {
        return Optional.of(new PostgresQueryLog());
    }

    @Override
    public Optional<ColumnGrants> columnGrants() {
        return Optional.of(new PostgresGrants(this));
    }

    @Override
    public Optional<Roles> roles() {
        return Optional.of((c, url) -> PostgresRoles.check(c));
    }

    @Override
    public Connection connect(SourceUrl url, Purpose purpose) throws SQLException {
        Properties props = url.credentials();
        props.setProperty("connectTimeout", Integer.toString(purpose.connectTimeoutSeconds()));
        props.setProperty("ApplicationName", Purpose.APPLICATION_NAME);
        // The name goes in the startup packet (the driver sends a SET after login to a server it assumes older than
        // 9.0), so DISCARD ALL between calls resets it to schemabrain, not to an empty name in pg_stat_activity.
        props.setProperty("assumeMinServerVersion", "12");
        props.setProperty("readOnly", "true");
        // standard_conforming_strings: a backslash in '...' is an ordinary character, as the guard reads it.
        props.setProperty("options", "-c default_transaction_read_only=on -c standard_conforming_strings=on"
                + (purpose.limited() ? " -c statement_timeout=" + purpose.statementTimeoutMs() : ""));
        // A read-only connection without autocommit: the driver begins each call's transaction as BEGIN READ ONLY, sent
        // with the call's first statement (one round trip). That transaction is read-only whatever the session's
        // default says, so it holds behind a pooler that drops startup options or moves session settings.
        props.setProperty("readOnlyMode", "transaction");
        Connection c = DriverManager.getConnection(jdbcUrl(url), props);
        if (purpose.limited()) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
        }
        return c;
    }

    @Override
    public boolean sessionsOnAServer() {
        return true;
    }

    /**
     * DISCARD ALL drops what a session can hold (temporary tables, prepared statements, cursors, LISTEN, advisory
     * locks, plans, sequences' state) and RESETs every setting to its connection-time value; the read-only default
     * and statement_timeout are then set again, should a startup option not be where that value came from.
     */
    @Override
    public boolean resetSession(Connection c, SourceUrl url, Purpose purpose) throws SQLException {
        try (Statement st = c.createStatement()) {
            // One round trip: the call's transaction rolled back (never committed: setAutoCommit(true) would), then the
            // reset. Should a transaction block survive the ROLLBACK, DISCARD ALL is refused and the session closed.
            st.execute("ROLLBACK; DISCARD ALL; SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY;"
                    + " SET standard_conforming_strings = on; SET statement_timeout = " + purpose.statementTimeoutMs());
        }
        if (c.getAutoCommit()) {
            c.setAutoCommit(false);
        }
        return true;
    }

    /** Host, port, database and pass-through options; credentials go in the connection properties. */
    static String jdbcUrl(SourceUrl url) {
        return "jdbc:postgresql://" + url.host() + (url.port() >= 0 ? ":" + url.port() : "")
                + "/" + (url.database() == null ? "" : url.database())
                + (url.query().isEmpty() ? "" : "?" + url.query());
    }

    /** {@code host:port} for messages, with the default port when the URL names none. */
    public static String server(SourceUrl url) {
        return url.host() + ":" + (url.port() >= 0 ? url.port() : DEFAULT_PORT);
    }

    /**
     * A text value against an ENUM is varchar = enum, which PostgreSQL refuses ("operator does not exist"); cast
     * to the type itself it compares in the ENUM's own order. The name is split at its first dot.
     */
    @Override
    public String cast(String sql, String typeName) {
        int dot = typeName.indexOf('.');
        String type = dot < 0 ? quote(typeName) : quote(typeName.substring(0, dot)) + "." + quote(typeName.substring(dot + 1));
        return "CAST(" + sql + " AS " + type + ")";
    }

    /**
     * None to send: the driver begins each call's transaction as BEGIN READ ONLY together with its first statement
     * ({@link #connect}), where a SET TRANSACTION READ ONLY of our own was a round trip before the call's SQL. A
     * statement cannot make that transaction read-write: transaction_read_only cannot change once a query has run.
     */
    @Override
    public String beginReadOnly() {
        return null;
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN (FORMAT JSON) " + sql;
    }

    @Override
    public Explain readExplain(ResultSet rs) throws SQLException {
        return Explain.fromJson(rs, (json, text) -> {
            JsonNode plan = json.path(0).path("Plan");
            return new Explain(plan.path("Total Cost").asDouble(), plan.path("Plan Rows").asDouble(), text);
        });
    }

    @Override
    public Failure classify(SQLException e) {
        String state = Failure.state(e);
        if (state.equals("57014")) {
            return Failure.TIMEOUT;
        }
        if (state.equals("53300") || state.equals("53400")) {
            return Failure.BUSY;   // too many connections, or a per-role limit
        }
        Failure network = Failure.network(e);
        if (network != null) {
            return network;
        }
        if (state.startsWith("28")) {
            return Failure.AUTH_FAILED;
        }
        if (state.equals("3D000")) {
            return Failure.UNKNOWN_DATABASE;
        }
        if (state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
            // The server ended the session (an administrator, a crash) or is starting up or shutting down.
            return Failure.UNREACHABLE;
        }
        // PostgreSQL's states are the standard's: a conversion error is class 22, whose message quotes the value.
        Failure statement = Failure.ofState(state);
        return statement == null ? Failure.OTHER : statement;
    }

    @Override
    public Optional<SqlRules> sqlRules() {
        return Optional.of(PostgresSqlRules.INSTANCE);
    }
}
