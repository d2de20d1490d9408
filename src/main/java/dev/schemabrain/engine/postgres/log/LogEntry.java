package dev.schemabrain.engine.postgres.log;

import java.time.Instant;

/**
 * One message of a PostgreSQL server log, whatever format wrote it.
 *
 * @param time     when it was logged; null when the line carries no time
 * @param session  the session it belongs to (the session id, else the backend's pid); null for none
 * @param user     the role of the session; null for a background process
 * @param database the session's database; null for a background process
 * @param severity LOG, ERROR, DETAIL, … as the server writes it (English messages)
 * @param message  the primary message, its lines joined
 * @param detail   its DETAIL (for an execute: the bind parameters); null for none
 */
record LogEntry(Instant time, String session, String user, String database, String severity, String message,
                String detail) {

    LogEntry withDetail(String more) {
        return new LogEntry(time, session, user, database, severity, message, more);
    }

    LogEntry withMoreMessage(String line) {
        return new LogEntry(time, session, user, database, severity, message + "\n" + line, detail);
    }
}
