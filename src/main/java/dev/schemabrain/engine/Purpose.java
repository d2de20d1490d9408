package dev.schemabrain.engine;

/**
 * Why a connection is opened. It sets the session's limits: introspection has no server-side statement limit (each sample query sets its own), a query
 * session has one and runs its statement in a read-only transaction that is rolled back.
 *
 * @param statementTimeoutMs the server stops a statement after this long; 0 for none
 */
public record Purpose(String name, int connectTimeoutSeconds, int statementTimeoutMs) {

    public static Purpose introspection() {
        return new Purpose("index", 10, 0);
    }

    public static Purpose query(int statementTimeoutMs) {
        if (statementTimeoutMs < 1) {
            throw new IllegalArgumentException("a query session needs a positive statement timeout");
        }
        return new Purpose("executor", 5, statementTimeoutMs);
    }

    /**
     * Every SchemaBrain session carries this one name (PostgreSQL {@code application_name}, MySQL's
     * {@code program_name} attribute), so an operator and the query-log miner can tell our statements apart.
     */
    public static final String APPLICATION_NAME = "schemabrain";

    /**
     * Leads every statement SchemaBrain sends to a user table (samples, get_metric). pg_stat_statements keeps no
     * application name but keeps a leading comment in the text it stores, so the query-log miner skips these.
     */
    public static final String STATEMENT_MARKER = "/* schemabrain */ ";

    /** A query session: time-limited, and its work runs in a read-only transaction. */
    public boolean limited() {
        return statementTimeoutMs > 0;
    }
}
