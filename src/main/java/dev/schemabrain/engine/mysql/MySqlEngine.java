package dev.schemabrain.engine.mysql;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.engine.ColumnGrants;
import dev.schemabrain.engine.DisplayedParameters;
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
import java.util.Locale;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL and MariaDB through the MariaDB driver. A query session is made read-only before anything runs,
 * and its statement time limit is the server's own (MariaDB max_statement_time in seconds, MySQL
 * max_execution_time in ms).
 */
public final class MySqlEngine implements Engine {

    /** The sql_mode flags a query session always has: the lexical rules of {@link MySqlSqlRules}. */
    static final String PINNED_SQL_MODE = "NO_BACKSLASH_ESCAPES,ANSI_QUOTES";

    private static final int DEFAULT_PORT = 3306;
    /** URL parameters that hold no secret: shown and stored; every other one only reaches the driver. */
    private static final Set<String> DISPLAYED = DisplayedParameters.of("sslMode", "useSSL", "requireSSL", "verifyServerCertificate",
                "connectTimeout", "socketTimeout", "tcpKeepAlive", "serverTimezone", "connectionTimeZone", "characterEncoding",
                "useUnicode", "zeroDateTimeBehavior", "allowPublicKeyRetrieval", "useCompression", "defaultFetchSize",
                "enabledSslProtocolSuites", "enabledTlsProtocols");

    @Override
    public SourceKind kind() {
        return SourceKind.MYSQL;
    }

    @Override
    public String title() {
        return "MySQL/MariaDB";
    }

    @Override
    public List<String> schemes() {
        return List.of("mysql", "mariadb");
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
        return new MySqlSource(url);
    }

    @Override
    public Optional<QueryLog> queryLog() {
        return Optional.of(new MySqlQueryLog());
    }

    @Override
    public Optional<ColumnGrants> columnGrants() {
        return Optional.of(new MySqlGrants(this));
    }

    @Override
    public Optional<Roles> roles() {
        return Optional.of((c, url) -> MySqlRoles.check(c,
                url.database() != null ? List.of(url.database()) : MySqlRoles.userDatabases(c)));
    }

    @Override
    public Connection connect(SourceUrl url, Purpose purpose) throws SQLException {
        Properties props = url.credentials();
        props.setProperty("connectTimeout", Integer.toString(purpose.connectTimeoutSeconds() * 1000));
        props.setProperty("connectionAttributes", "program_name:" + Purpose.APPLICATION_NAME);
        if (purpose.limited()) {
            // The driver's default emulates parameters by escaping values into the SQL text; server-side prepared
            // statements make MariaDB/MySQL bind them, so no value is ever parsed as SQL whatever the sql_mode.
            props.setProperty("useServerPrepStmts", "true");
            // Connection.reset() sends COM_RESET_CONNECTION only when asked to (see resetSession).
            props.setProperty("useResetConnection", "true");
        }
        Connection c = DriverManager.getConnection(jdbcUrl(url), props);
        try {
            limit(c, purpose);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Makes the session read-only (and, for a query session, time-limited and transactional). */
    private static void limit(Connection c, Purpose purpose) throws SQLException {
        if (purpose.limited()) {
            try (Statement st = c.createStatement()) {
                st.execute("SET SESSION TRANSACTION READ ONLY");
                // The lexical rules the guard assumes: a backslash in '...' is an ordinary character and
                // "name" is a name, whatever the server's default sql_mode.
                st.execute("SET SESSION sql_mode = CONCAT(@@session.sql_mode, '," + PINNED_SQL_MODE + "')");
                boolean mariadb = c.getMetaData().getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb");
                st.execute(mariadb ? "SET SESSION max_statement_time = " + Math.max(0.001, purpose.statementTimeoutMs() / 1000.0)
                        : "SET SESSION max_execution_time = " + purpose.statementTimeoutMs());
            }
        }
        // Say the session only reads, for servers and proxies that act on it.
        c.setReadOnly(true);
        if (purpose.limited()) {
            c.setAutoCommit(false);
        }
    }

    @Override
    public boolean sessionsOnAServer() {
        return true;
    }

    /**
     * The driver's reset is the server's COM_RESET_CONNECTION: it rolls back, drops temporary tables, prepared
     * statements, user variables and GET_LOCK locks, and sets session variables back to the global values (the
     * driver forgets its cached statements too); the session is then limited again as {@link #connect} did. The
     * driver sends it to MariaDB 10.3.13 and newer only: elsewhere the session is not reused. The reset keeps the
     * current database and takes sql_mode to the global value, without the IGNORE_SPACE the driver's handshake
     * asked for and the STRICT_TRANS_TABLES it adds: both are set back. A session of a URL without a database
     * cannot return to having none, so it is not reused either.
     */
    @Override
    public boolean resetSession(Connection c, SourceUrl url, Purpose purpose) throws SQLException {
        if (url.database() == null || !resets(c.getMetaData().getDatabaseProductVersion())) {
            return false;
        }
        if (!c.getAutoCommit()) {
            c.rollback();
        }
        c.unwrap(org.mariadb.jdbc.Connection.class).reset();
        try (Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = CONCAT(@@global.sql_mode, ',IGNORE_SPACE,STRICT_TRANS_TABLES')");
            st.execute("USE " + quote(url.database()));
        }
        limit(c, purpose);
        return true;
    }

    /** Whether the driver resets a session on this server with COM_RESET_CONNECTION ("10.11.19-MariaDB-0+deb12u1"). */
    static boolean resets(String serverVersion) {
        Matcher v = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)").matcher(serverVersion);
        if (!serverVersion.toLowerCase(Locale.ROOT).contains("mariadb") || !v.find()) {
            return false;
        }
        int[] n = {Integer.parseInt(v.group(1)), Integer.parseInt(v.group(2)), Integer.parseInt(v.group(3))};
        return n[0] > 10 || n[0] == 10 && (n[1] > 3 || n[1] == 3 && n[2] >= 13);
    }

    /** Host, port, database and pass-through options only: credentials never go into the URL string. */
    static String jdbcUrl(SourceUrl url) {
        StringBuilder jdbc = new StringBuilder("jdbc:mariadb://").append(server(url)).append('/');
        if (url.database() != null) {
            jdbc.append(url.database());
        }
        if (!url.query().isEmpty()) {
            jdbc.append('?').append(url.query());
        }
        return jdbc.toString();
    }

    /** {@code host:port}, with the default port when the URL names none. */
    public static String server(SourceUrl url) {
        return url.host() + ":" + (url.port() < 0 ? DEFAULT_PORT : url.port());
    }

    /** MySQL back-quoting: {@code a`b} becomes {@code `a``b`}. */
    @Override
    public String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    @Override
    public String dayOf(String x) {
        return "DATE(" + x + ")";
    }

    @Override
    public String weekOf(String x) {
        return "DATE_SUB(DATE(" + x + "), INTERVAL WEEKDAY(" + x + ") DAY)";
    }

    @Override
    public String monthOf(String x) {
        return "CAST(DATE_FORMAT(" + x + ", '%Y-%m-01') AS DATE)";
    }

    @Override
    public String quarterOf(String x) {
        return "MAKEDATE(YEAR(" + x + "), 1) + INTERVAL (QUARTER(" + x + ") - 1) QUARTER";
    }

    @Override
    public String yearOf(String x) {
        return "MAKEDATE(YEAR(" + x + "), 1)";
    }

    @Override
    public String yearNumber(String x) {
        return "YEAR(" + x + ")";
    }

    @Override
    public String monthNumber(String x) {
        return "MONTH(" + x + ")";
    }

    @Override
    public String dayNumber(String x) {
        return "(TO_DAYS(" + x + ") - 719528)";
    }

    @Override
    public String beginReadOnly() {
        return "START TRANSACTION READ ONLY";
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN FORMAT=JSON " + sql;
    }

    /** MySQL reports query_cost; MariaDB 10 reports no cost, only rows per table. */
    @Override
    public Explain readExplain(ResultSet rs) throws SQLException {
        return Explain.fromJson(rs, (json, text) -> {
            JsonNode block = json.path("query_block");
            JsonNode cost = block.path("cost_info").path("query_cost");
            Double total = null;
            if (!cost.isMissingNode()) {
                total = cost.asDouble();
            } else if (block.has("cost")) {
                total = block.get("cost").asDouble();
            }
            double rows = block.findValues("rows").stream().mapToDouble(JsonNode::asDouble).max().orElse(Double.NaN);
            return new Explain(total, Double.isNaN(rows) ? null : rows, text);
        });
    }

    @Override
    public Failure classify(SQLException e) {
        int code = e.getErrorCode();
        if (code == 1969 || code == 3024 || code == 1317) {
            return Failure.TIMEOUT;
        }
        if (code == 1040 || code == 1203) {
            return Failure.BUSY;   // too many connections, or too many for this user
        }
        if (code == 1045 || "28000".equals(e.getSQLState())) {
            return Failure.AUTH_FAILED;
        }
        if (code == 1049) {
            return Failure.UNKNOWN_DATABASE;
        }
        if (code == 1044) {
            return Failure.PERMISSION;   // the user may not open this database
        }
        Failure network = Failure.network(e);
        if (network != null) {
            return network;
        }
        if (code == 2002 || code == 2003 || code == 2013) {
            return Failure.UNREACHABLE;
        }
        return statement(code);
    }

    /**
     * A failed statement by MariaDB's and MySQL's error code (their SQLSTATEs are too coarse: 42000 is both a
     * syntax error and a denied privilege). Any other code is OTHER, whose words are not passed on either: 1062 in a
     * SELECT (a grouping key that collided, GROUP BY over RAND()) quotes the key's value.
     */
    static Failure statement(int code) {
        return switch (code) {
            case 1292, 1366, 1367, 1411, 1525, 3140, 4036, 4037, 4038, 4042, 1139 -> Failure.INVALID_VALUE;
            case 1365 -> Failure.DIVISION_BY_ZERO;
            case 1690, 1264, 1406, 1441 -> Failure.OUT_OF_RANGE;
            case 1146, 1054, 1109, 1051 -> Failure.UNDEFINED_NAME;
            case 1305, 1582, 1583, 1630 -> Failure.UNDEFINED_FUNCTION;
            case 1064, 1149 -> Failure.SYNTAX;
            case 1792, 1290, 1836 -> Failure.READ_ONLY;
            case 1142, 1143, 1227 -> Failure.PERMISSION;
            case 1037, 1038, 1041, 1104, 1114, 1135, 1206, 3170 -> Failure.RESOURCES;
            default -> Failure.OTHER;
        };
    }

    @Override
    public Optional<SqlRules> sqlRules() {
        return Optional.of(MySqlSqlRules.INSTANCE);
    }
}
