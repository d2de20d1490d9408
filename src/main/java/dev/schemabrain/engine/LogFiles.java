package dev.schemabrain.engine;

import java.util.List;

/** A server's own statement log, read from files (mine-queries --log-file), for an engine whose QueryLog reads one. */
public interface LogFiles {

    /** What the files held: messages, statements run (every database), prepare/bind steps not counted as runs. */
    record Figures(int files, long messages, long statements, long steps, long foreignLines) {
    }

    Figures figures();

    /** The statements run in {@code database}, with their run counts. */
    List<LoggedStatement> statements(String database);

    /** Statement runs of other databases, left out. */
    long elsewhere(String database);
}
