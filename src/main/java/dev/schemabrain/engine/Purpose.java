package dev.schemabrain.engine;

/**
 * Why a connection is opened. It names the session on the server ({@code schemabrain-NAME}) and sets its
 * limits: introspection has no server-side statement limit (each sample query sets its own), a query
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

    public String applicationName() {
        return "schemabrain-" + name;
    }

    /** A query session: time-limited, and its work runs in a transaction. */
    public boolean limited() {
        return statementTimeoutMs > 0;
    }
}
