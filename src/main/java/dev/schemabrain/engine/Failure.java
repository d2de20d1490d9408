package dev.schemabrain.engine;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * What an engine error means, whatever engine said it; callers choose the words. The engine's own text is read to
 * classify at most, never passed on: a conversion error quotes the value it could not convert.
 */
public enum Failure {
    AUTH_FAILED, UNKNOWN_DATABASE, UNKNOWN_HOST, UNREACHABLE, NOT_A_DATABASE, CORRUPT, PERMISSION, TIMEOUT, BUSY,
    /** A value the statement read could not be converted or used (text that is not a number, malformed JSON). */
    INVALID_VALUE,
    DIVISION_BY_ZERO,
    /** A value outside its type's range: an overflow, a string too long. */
    OUT_OF_RANGE,
    /** A table, column or schema the source does not have. */
    UNDEFINED_NAME,
    /** A function or operator the source does not have for these argument types. */
    UNDEFINED_FUNCTION,
    SYNTAX,
    /** A write refused by the read-only session. */
    READ_ONLY,
    /** Out of memory, disk or an engine limit. */
    RESOURCES,
    OTHER;

    /** Whether the source itself cannot be used (as opposed to one statement failing). */
    public boolean unavailable() {
        return switch (this) {
            case AUTH_FAILED, UNKNOWN_DATABASE, UNKNOWN_HOST, UNREACHABLE, NOT_A_DATABASE -> true;
            default -> false;
        };
    }

    /**
     * UNKNOWN_HOST or UNREACHABLE for a connection-class SQLSTATE (08) or a network exception anywhere in
     * the cause chain; null otherwise. Network engines share this.
     */
    public static Failure network(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException) {
                return UNKNOWN_HOST;
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException || t instanceof SocketTimeoutException) {
                return UNREACHABLE;
            }
        }
        return state(e).startsWith("08") ? UNREACHABLE : null;
    }

    /**
     * What a standard SQLSTATE says of a failed statement (PostgreSQL follows the standard; DuckDB and SQLite give
     * none); null for a state that says nothing more than OTHER.
     */
    public static Failure ofState(String state) {
        if (state.length() != 5) {
            return null;
        }
        return switch (state) {
            case "22012" -> DIVISION_BY_ZERO;
            case "22003", "22001", "22008", "22015" -> OUT_OF_RANGE;
            case "42P01", "42S02", "42703", "42S22", "3F000" -> UNDEFINED_NAME;
            case "42883" -> UNDEFINED_FUNCTION;
            case "42601" -> SYNTAX;
            case "25006", "25001" -> READ_ONLY;   // 25001: a transaction's mode set after its first query
            case "42501" -> PERMISSION;
            default -> state.startsWith("22") ? INVALID_VALUE
                    : state.startsWith("53") || state.startsWith("54") ? RESOURCES : null;
        };
    }

    /** The SQLSTATE, or empty when the driver gave none. */
    public static String state(SQLException e) {
        return e.getSQLState() == null ? "" : e.getSQLState();
    }
}
