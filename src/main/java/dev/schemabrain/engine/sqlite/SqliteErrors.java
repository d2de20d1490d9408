package dev.schemabrain.engine.sqlite;

import dev.schemabrain.engine.Engines;
import dev.schemabrain.error.SourceException;

import java.nio.file.Path;
import java.sql.SQLException;

/** Turns SQLite result codes into one operator-facing sentence naming the file. */
final class SqliteErrors {

    private static final int MAX_REASON = 200;

    private SqliteErrors() {
    }

    static SourceException translate(SQLException e, Path path) {
        String message = switch (Engines.SQLITE.classify(e)) {
            case NOT_A_DATABASE -> "The file " + path + " is not an SQLite database; check the path in the URL.";
            case CORRUPT -> "The SQLite file " + path + " is corrupt; restore it from a backup or repair it with the sqlite3 .recover command.";
            case UNREACHABLE, PERMISSION -> "Cannot open the SQLite file " + path + "; check that it is readable by this user.";
            case BUSY -> "The SQLite file " + path + " is locked by another process; try again when it is free.";
            default -> "Reading the SQLite file " + path + " failed (" + reason(e) + "); check that it is a valid SQLite database.";
        };
        return new SourceException(message, e);
    }

    private static String reason(SQLException e) {
        String text = e.getMessage() == null ? "no detail" : e.getMessage().strip().lines().findFirst().orElse("");
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON) + "…";
    }
}
