package dev.schemabrain.source.mysql;

import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.SourceUrl;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/** Turns driver failures into one operator-facing sentence; never echoes the password. */
final class MySqlErrors {

    private static final int ACCESS_DENIED = 1045;
    private static final int DATABASE_ACCESS_DENIED = 1044;
    private static final int UNKNOWN_DATABASE = 1049;
    private static final int MAX_REASON = 200;

    private MySqlErrors() {
    }

    static SourceException whileConnecting(SQLException e, SourceUrl url) {
        String server = MySqlSource.hostAndPort(url);
        if (e.getErrorCode() == ACCESS_DENIED || "28000".equals(e.getSQLState())) {
            String who = url.user() == null ? "the default user" : "user '" + url.user() + "'";
            String hint = url.hasPassword()
                    ? "check the user name and password"
                    : "check the user name, and add the password as mysql://user:password@host/database";
            return new SourceException("The MySQL server at " + server + " rejected " + who
                    + " (wrong user name or password); " + hint + ".", e);
        }
        if (e.getErrorCode() == UNKNOWN_DATABASE) {
            return new SourceException("Database '" + url.database() + "' does not exist on " + server
                    + "; check the name in the URL.", e);
        }
        if (e.getErrorCode() == DATABASE_ACCESS_DENIED) {
            return new SourceException("User '" + url.user() + "' may not open database '" + url.database()
                    + "' on " + server + "; grant it access or use another user.", e);
        }
        if (isUnreachable(e)) {
            return unreachable(server, e);
        }
        return new SourceException("Could not connect to the MySQL server at " + server + " (" + reason(e, url)
                + "); check the URL and the server log.", e);
    }

    static SourceException whileReading(SQLException e, SourceUrl url) {
        String server = MySqlSource.hostAndPort(url);
        if (isUnreachable(e)) {
            return new SourceException("Lost the connection to the MySQL server at " + server
                    + " while reading its catalog; check the server and try again.", e);
        }
        return new SourceException("Reading the catalog of the MySQL server at " + server + " failed ("
                + reason(e, url) + "); check that the user may read information_schema.", e);
    }

    private static SourceException unreachable(String server, SQLException e) {
        return new SourceException("Cannot reach the MySQL server at " + server
                + "; check that it is running and the host and port are right.", e);
    }

    /** A connection-class SQLState, or a network exception anywhere in the cause chain. */
    private static boolean isUnreachable(SQLException e) {
        if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException
                    || t instanceof NoRouteToHostException || t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** The driver's first line, short, with the password masked in case the server echoed it. */
    private static String reason(SQLException e, SourceUrl url) {
        String message = e.getMessage() == null ? "no detail" : e.getMessage().strip().lines().findFirst().orElse("");
        if (url.hasPassword()) {
            message = message.replace(url.password(), "****");
        }
        // The driver prefixes "(conn=123)"; the operator has no use for the connection id.
        message = message.replaceFirst("^\\(conn=\\d+\\)\\s*", "").replaceAll("\\.$", "");
        String state = e.getSQLState() == null ? "" : ", SQLState " + e.getSQLState();
        String text = message + " [error " + e.getErrorCode() + state + "]";
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON) + "…";
    }
}
