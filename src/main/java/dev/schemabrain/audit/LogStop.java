package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;

/** Why the log stopped recording, once an fsync or a witness check failed: every later append fails with it. */
final class LogStop {

    private volatile AuditException reason;

    /** Throws the reason the log stopped, if it did. */
    void check() throws AuditException {
        AuditException r = reason;
        if (r != null) {
            throw r;
        }
    }

    boolean stopped() {
        return reason != null;
    }

    /** Stops the log for {@code why}; answers it, for the caller to throw. */
    AuditException stop(AuditException why) {
        reason = why;
        return why;
    }
}
