package dev.schemabrain.engine.mysql;

import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.mysql.MySqlEngine;
import dev.schemabrain.error.SourceException;

import java.sql.SQLException;

/** Turns driver failures into one operator-facing sentence; never echoes the password. */
final class MySqlErrors {

    private static final int MAX_REASON = 200;

    private MySqlErrors() {
    }

    static SourceException whileConnecting(SQLException e, SourceUrl url) {
        String server = MySqlEngine.server(url);
        return switch (Engines.MYSQL.classify(e)) {
            case AUTH_FAILED -> {
                String who = url.user() == null ? "the default user" : "user '" + url.user() + "'";
                String hint = url.hasPassword()
                        ? "check the user name and password"
                        : "check the user name, and add the password as mysql://user:password@host/database";
                yield new SourceException("The MySQL server at " + server + " rejected " + who
                        + " (wrong user name or password); " + hint + ".", e);
            }
            case UNKNOWN_DATABASE -> new SourceException("Database '" + url.database() + "' does not exist on " + server
                    + "; check the name in the URL.", e);
            case PERMISSION -> new SourceException("User '" + url.user() + "' may not open database '" + url.database()
                    + "' on " + server + "; grant it access or use another user.", e);
            case UNKNOWN_HOST, UNREACHABLE -> new SourceException("Cannot reach the MySQL server at " + server
                    + "; check that it is running and the host and port are right.", e);
            default -> new SourceException("Could not connect to the MySQL server at " + server + " (" + reason(e, url)
                    + "); check the URL and the server log.", e);
        };
    }

    static SourceException whileReading(SQLException e, SourceUrl url) {
        String server = MySqlEngine.server(url);
        Failure failure = Engines.MYSQL.classify(e);
        if (failure == Failure.UNKNOWN_HOST || failure == Failure.UNREACHABLE) {
            return new SourceException("Lost the connection to the MySQL server at " + server
                    + " while reading its catalog; check the server and try again.", e);
        }
        return new SourceException("Reading the catalog of the MySQL server at " + server + " failed ("
                + reason(e, url) + "); check that the user may read information_schema.", e);
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
