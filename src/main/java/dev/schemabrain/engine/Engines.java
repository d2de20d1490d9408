package dev.schemabrain.engine;

import dev.schemabrain.engine.mysql.MySqlEngine;
import dev.schemabrain.engine.postgres.PostgresEngine;
import dev.schemabrain.engine.sqlite.SqliteEngine;

import java.util.Optional;

/** The engines, one each; they hold no state, so one instance serves every source. */
public final class Engines {

    public static final Engine POSTGRESQL = new PostgresEngine();
    public static final Engine MYSQL = new MySqlEngine();
    public static final Engine SQLITE = new SqliteEngine();

    private Engines() {
    }

    /** The engine of a live source; empty for the offline kinds (ddl, spider). */
    public static Optional<Engine> of(SourceKind kind) {
        return switch (kind) {
            case POSTGRESQL -> Optional.of(POSTGRESQL);
            case MYSQL -> Optional.of(MYSQL);
            case SQLITE -> Optional.of(SQLITE);
            case DDL, SPIDER -> Optional.empty();
        };
    }
}
