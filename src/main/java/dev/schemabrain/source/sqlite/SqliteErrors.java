package dev.schemabrain.source.sqlite;

import dev.schemabrain.error.SourceException;
import org.sqlite.SQLiteErrorCode;

import java.nio.file.Path;
import java.sql.SQLException;

/** Turns SQLite result codes into one operator-facing sentence naming the file. */
final class SqliteErrors {

    private static final int MAX_REASON = 200;

    private SqliteErrors() {
    }

    static SourceException translate(SQLException e, Path path) {
        // The driver reports extended result codes; the low byte is the primary code.
        int code = e.getErrorCode() & 0xFF;
        String message;
        if (code == SQLiteErrorCode.SQLITE_NOTADB.code) {
            message = "The file " + path + " is not an SQLite database; check the path in the URL.";
        } else if (code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
            message = "The SQLite file " + path + " is corrupt; restore it from a backup or repair it with the sqlite3 .recover command.";
        } else if (code == SQLiteErrorCode.SQLITE_CANTOPEN.code || code == SQLiteErrorCode.SQLITE_PERM.code) {
            message = "Cannot open the SQLite file " + path + "; check that it is readable by this user.";
        } else if (code == SQLiteErrorCode.SQLITE_BUSY.code || code == SQLiteErrorCode.SQLITE_LOCKED.code) {
            message = "The SQLite file " + path + " is locked by another process; try again when it is free.";
        } else {
            message = "Reading the SQLite file " + path + " failed (" + reason(e) + "); check that it is a valid SQLite database.";
        }
        return new SourceException(message, e);
    }

    private static String reason(SQLException e) {
        String text = e.getMessage() == null ? "no detail" : e.getMessage().strip().lines().findFirst().orElse("");
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON) + "…";
    }
}
