package dev.schemabrain.engine;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/** What an engine error means, whatever engine said it; callers choose the words. */
public enum Failure {
    AUTH_FAILED, UNKNOWN_DATABASE, UNKNOWN_HOST, UNREACHABLE, NOT_A_DATABASE, CORRUPT, PERMISSION, TIMEOUT, BUSY, OTHER;

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

    /** The SQLSTATE, or empty when the driver gave none. */
    public static String state(SQLException e) {
        return e.getSQLState() == null ? "" : e.getSQLState();
    }
}
