package dev.schemabrain.mining;

import dev.schemabrain.engine.Engines;
import dev.schemabrain.sql.lex.Lexical;

/** The lexical rules a PostgreSQL or MySQL query log is read by, from the engines as mine-queries takes them. */
final class Lexis {

    static final Lexical POSTGRESQL = Engines.POSTGRESQL.sqlRules().orElseThrow().logged();
    static final Lexical MYSQL = Engines.MYSQL.sqlRules().orElseThrow().logged();

    private Lexis() {
    }
}
