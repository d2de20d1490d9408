package dev.schemabrain.engine.duckdb;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.engine.DateTruncDialect;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Explain;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.sql.guard.SqlRules;

import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.duckdb.DuckDBDriver;

/**
 * DuckDB: one file, attached read-only so that nothing can write, migrate or checkpoint it. A long statement
 * is interrupted by the executor's watchdog (DuckDB has no session time limit). Its calendar SQL is PostgreSQL's
 * ({@link DateTruncDialect}); its enums compare with text as they are, so nothing is cast.
 */
public final class DuckDbEngine implements Engine, DateTruncDialect {

    static final SourceKind KIND = new SourceKind("duckdb");

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public SourceKind kind() {
        return KIND;
    }

    @Override
    public String title() {
        return "DuckDB";
    }

    @Override
    public List<String> schemes() {
        return List.of("duckdb");
    }

    @Override
    public boolean fileBased() {
        return true;
    }

    @Override
    public SchemaSource open(SourceUrl url) {
        return new DuckDbSource(url);
    }

    /**
     * The driver, used directly: the packaged jar does not list it for DriverManager, whose first use would otherwise
     * load it (and the Flight Recorder it starts) in every process, DuckDB source or not.
     */
    private static final class Driver {
        static final java.sql.Driver INSTANCE = new DuckDBDriver();
    }

    /** The purpose changes nothing: the database itself is attached read-only, and there is no session to name. */
    @Override
    public Connection connect(SourceUrl url, Purpose purpose) throws SQLException {
        // Checked first: read-only never creates a file, but the driver's words for a missing one are vague.
        if (!Files.isRegularFile(url.path())) {
            throw new SQLException("the DuckDB file " + url.path() + " does not exist", "08001");
        }
        Properties props = new Properties();
        props.setProperty("duckdb.read_only", "true");
        // Behind the SQL guard, the engine's own lock: no file readers, COPY, ATTACH, INSTALL or LOAD, whatever passes.
        props.setProperty("enable_external_access", "false");
        return Driver.INSTANCE.connect("jdbc:duckdb:" + url.path(), props);
    }

    /** The database is attached read-only; no transaction is needed to keep it so. */
    @Override
    public String beginReadOnly() {
        return null;
    }

    @Override
    public String explain(String sql) {
        return "EXPLAIN (FORMAT JSON) " + sql;
    }

    /**
     * DuckDB's plan gives an estimated cardinality per operator but no cost: the cost is unknown (as on MariaDB),
     * so a cost cap lets the statement run and the watchdog still bounds it.
     */
    @Override
    public Explain readExplain(ResultSet rs) throws SQLException {
        rs.next();
        String plan = rs.getString(2);   // explain_key, explain_value
        String rows;
        try {
            rows = JSON.readTree(plan).path(0).path("extra_info").path("Estimated Cardinality").asText("");
        } catch (IOException e) {
            rows = "";
        }
        return new Explain(null, rows.matches("\\d+") ? Double.valueOf(rows) : null, plan);
    }

    /** DuckDB's driver gives no SQLSTATE: the error class starts its message ("IO Error: …"). */
    @Override
    public Failure classify(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("interrupt")) {
            return Failure.TIMEOUT;
        }
        if (message.contains("not a valid duckdb database")) {
            return Failure.NOT_A_DATABASE;
        }
        if (message.contains("could not set lock") || message.contains("conflicting lock")) {
            return Failure.BUSY;
        }
        if (message.contains("attached in read-only mode")) {
            return Failure.READ_ONLY;   // a write refused by the read-only database, not a file it may not open
        }
        if (message.contains("read-only mode") || message.contains("permission denied")) {
            return Failure.PERMISSION;
        }
        if ("08001".equals(e.getSQLState()) || message.contains("cannot open database") || message.contains("does not exist")
                && message.startsWith("io error")) {
            return Failure.UNREACHABLE;
        }
        return statement(errorType(message), message);
    }

    /**
     * A failed statement by the type DuckDB names first ("Conversion Error: Could not convert string '…' to INT32"):
     * its driver gives no SQLSTATE, and the rest of the message may quote a value, so it is never passed on.
     */
    private static Failure statement(String type, String message) {
        return switch (type) {
            case "conversion error", "invalid input error" -> Failure.INVALID_VALUE;
            case "out of range error" -> message.contains("division by zero") ? Failure.DIVISION_BY_ZERO : Failure.OUT_OF_RANGE;
            case "parser error", "syntax error" -> Failure.SYNTAX;
            case "catalog error", "binder error" -> message.contains("function") || message.contains("operator")
                    ? Failure.UNDEFINED_FUNCTION : Failure.UNDEFINED_NAME;
            case "out of memory error" -> Failure.RESOURCES;
            case "permission error" -> Failure.PERMISSION;
            default -> Failure.OTHER;
        };
    }

    /** "conversion error" of "Conversion Error: …", after the driver's "java.sql.SQLException: " if any; else "". */
    private static String errorType(String message) {
        String text = message.startsWith("java.sql.sqlexception: ") ? message.substring(23) : message;
        int colon = text.indexOf(':');
        return colon < 0 ? "" : text.substring(0, colon).strip();
    }

    @Override
    public Optional<SqlRules> sqlRules() {
        return Optional.of(DuckDbSqlRules.INSTANCE);
    }
}
