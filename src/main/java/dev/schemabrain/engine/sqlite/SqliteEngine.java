package dev.schemabrain.engine.sqlite;

import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.sql.guard.SqlRules;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * SQLite: one file, opened read-only so that nothing can create, migrate or journal it. A long statement
 * is interrupted by the executor's watchdog (SQLite has no server-side limit). Dates are ISO text.
 */
public final class SqliteEngine implements Engine {

    @Override
    public SourceKind kind() {
        return SourceKind.SQLITE;
    }

    /** The purpose changes nothing: the connection itself is read-only, and there is no session to name. */
    @Override
    public String title() {
        return "SQLite";
    }

    @Override
    public List<String> schemes() {
        return List.of("sqlite");
    }

    @Override
    public boolean fileBased() {
        return true;
    }

    @Override
    public SchemaSource open(SourceUrl url) {
        return new SqliteSource(url);
    }

    @Override
    public Connection connect(SourceUrl url, Purpose purpose) throws SQLException {
        Path path = url.path();
        if (!Files.isRegularFile(path)) {
            throw new SQLException("the SQLite file " + path + " does not exist", "08001");
        }
        SQLiteConfig config = new SQLiteConfig();
        // Read-only also means a path that vanished since the check fails instead of becoming a new, empty file.
        config.setReadOnly(true);
        return DriverManager.getConnection("jdbc:sqlite:" + path, config.toProperties());
    }

    @Override
    public String dayOf(String x) {
        return "date(" + x + ")";
    }

    /** 'weekday 0' moves to the next Sunday (or stays on one); six days back is that week's Monday. */
    @Override
    public String weekOf(String x) {
        return "date(" + x + ", 'weekday 0', '-6 days')";
    }

    @Override
    public String monthOf(String x) {
        return "strftime('%Y-%m-01', " + x + ")";
    }

    @Override
    public String quarterOf(String x) {
        return "printf('%s-%02d-01', strftime('%Y', " + x + "), ((CAST(strftime('%m', " + x + ") AS INTEGER) - 1) / 3) * 3 + 1)";
    }

    @Override
    public String yearOf(String x) {
        return "strftime('%Y-01-01', " + x + ")";
    }

    @Override
    public String yearNumber(String x) {
        return "CAST(strftime('%Y', " + x + ") AS INTEGER)";
    }

    @Override
    public String monthNumber(String x) {
        return "CAST(strftime('%m', " + x + ") AS INTEGER)";
    }

    @Override
    public String dayNumber(String x) {
        return "CAST(julianday(date(" + x + ")) - 2440587.5 AS INTEGER)";
    }

    /** SQLite has no date type: dates are stored, and compared, as ISO text. */
    @Override
    public Object bind(LocalDate date) {
        return date.toString();
    }

    @Override
    public Object bind(LocalDateTime time) {
        return time.toString().replace('T', ' ');
    }

    /**
     * A read-only connection keeps little: a SELECT can set no pragma (a pragma function with side effects does not
     * exist) and creates nothing. What it could hold otherwise, a temporary object or an attached database, makes the
     * session not reusable, and it is closed.
     */
    @Override
    public boolean resetSession(Connection c, SourceUrl url, Purpose purpose) throws SQLException {
        if (!c.getAutoCommit()) {
            return false;
        }
        try (Statement st = c.createStatement()) {
            st.execute("ROLLBACK");   // a BEGIN sent as text leaves the JDBC flag alone
        } catch (SQLException none) {
            // No transaction was open.
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT (SELECT COUNT(*) FROM temp.sqlite_master)"
                + " + (SELECT COUNT(*) FROM pragma_database_list WHERE name NOT IN ('main', 'temp'))")) {
            return rs.next() && rs.getLong(1) == 0;
        }
    }

    /** The connection itself is read-only; no transaction is needed to keep it so. */
    @Override
    public String beginReadOnly() {
        return null;
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN QUERY PLAN " + sql;
    }

    @Override
    public Explain readExplain(ResultSet rs) throws SQLException {
        List<String> steps = new ArrayList<>();
        while (rs.next()) {
            steps.add(rs.getString("detail"));
        }
        return new Explain(null, null, String.join("\n", steps));
    }

    /** By result code where the driver gives one, else by its message (an interrupt may come without one). */
    @Override
    public Failure classify(SQLException e) {
        // The driver reports extended result codes; the low byte is the primary code.
        int code = e.getErrorCode() & 0xFF;
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (code == SQLiteErrorCode.SQLITE_INTERRUPT.code || message.contains("interrupted")) {
            return Failure.TIMEOUT;
        }
        if (code == SQLiteErrorCode.SQLITE_NOTADB.code || message.contains("not a database")) {
            return Failure.NOT_A_DATABASE;
        }
        if (code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
            return Failure.CORRUPT;
        }
        if (code == SQLiteErrorCode.SQLITE_PERM.code) {
            return Failure.PERMISSION;
        }
        if (code == SQLiteErrorCode.SQLITE_CANTOPEN.code || "08001".equals(e.getSQLState()) || message.contains("unable to open")) {
            return Failure.UNREACHABLE;
        }
        if (code == SQLiteErrorCode.SQLITE_BUSY.code || code == SQLiteErrorCode.SQLITE_LOCKED.code
                || message.contains("database is locked") || message.contains("busy")) {
            return Failure.BUSY;
        }
        return statement(code, message);
    }

    /**
     * A failed statement: SQLite gives most of them one code (SQLITE_ERROR), so its own message is read, never passed
     * on (a JSON path error quotes the path, which may be a value the statement read).
     */
    private static Failure statement(int code, String message) {
        if (code == SQLiteErrorCode.SQLITE_READONLY.code) {
            return Failure.READ_ONLY;
        }
        if (code == SQLiteErrorCode.SQLITE_NOMEM.code || code == SQLiteErrorCode.SQLITE_FULL.code
                || code == SQLiteErrorCode.SQLITE_TOOBIG.code) {
            return Failure.RESOURCES;
        }
        if (code == SQLiteErrorCode.SQLITE_MISMATCH.code || message.contains("json") || message.contains("malformed")) {
            return Failure.INVALID_VALUE;
        }
        if (message.contains("integer overflow") || message.contains("too big") || message.contains("too large")) {
            return Failure.OUT_OF_RANGE;
        }
        if (message.contains("no such table") || message.contains("no such column") || message.contains("ambiguous column")) {
            return Failure.UNDEFINED_NAME;
        }
        if (message.contains("no such function") || message.contains("wrong number of arguments")) {
            return Failure.UNDEFINED_FUNCTION;
        }
        if (message.contains("syntax error") || message.contains("incomplete input")) {
            return Failure.SYNTAX;
        }
        return Failure.OTHER;
    }

    @Override
    public Optional<SqlRules> sqlRules() {
        return Optional.of(SqliteSqlRules.INSTANCE);
    }
}
