package dev.schemabrain.engine;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One statement shape an engine's statistics hold for the source's database: its text as the engine keeps
 * it (constants may or may not be replaced yet) and how many times it ran since the statistics were last
 * reset.
 *
 * @param role        the role that ran it (PostgreSQL), whose search_path its unqualified names went through; null when unknown
 * @param database    the statement's default database (MySQL/MariaDB), where its unqualified names live; null when unknown
 * @param sessionPath the search_path its session had set when it ran (a server log shows the session's SETs); null when unknown
 * @param firstSeen   when it first ran, as the server log says; null when the source keeps no times
 * @param lastSeen    when it last ran, as the server log says; null when the source keeps no times
 */
public record LoggedStatement(String text, long calls, String role, String database, List<String> sessionPath,
                              Instant firstSeen, Instant lastSeen) {

    public LoggedStatement {
        Objects.requireNonNull(text, "text");
        if (calls < 0) {
            throw new IllegalArgumentException("calls must not be negative");
        }
        sessionPath = sessionPath == null ? null : List.copyOf(sessionPath);
    }

    /** A statement of a statistics view: no session, no times. */
    public LoggedStatement(String text, long calls, String role, String database) {
        this(text, calls, role, database, null, null, null);
    }

    /** A statement whose role and default database are not known. */
    public LoggedStatement(String text, long calls) {
        this(text, calls, null, null);
    }

    /** Whether SchemaBrain sent it: every statement it sends to a source starts with {@link Purpose#STATEMENT_MARKER}. */
    public boolean fromSchemaBrain() {
        return text.stripLeading().startsWith(Purpose.STATEMENT_MARKER.strip());
    }
}
