package dev.schemabrain.error;

/**
 * The one root of every failure SchemaBrain explains to a person: its message is one sentence saying what went
 * wrong and what to do (never a password), and its kind gives the exit code. The CLI maps it once, in Main;
 * anything else that escapes is a bug. Checked, like every member before it: each layer declares how it fails.
 * Sealed, so a new failure is a deliberate member here, not an ad hoc exception a command must remember.
 */
public abstract sealed class SchemaBrainException extends Exception
        permits UserError, SourceException, StoreException, AuditException, PiiPolicyException,
        SemanticProjectException, UnsafeFileException, EmbeddingException, ExecutionException {

    /** What kind of failure; each is the operator's to fix, so each exits 2 (SPEC: errors exit 2). */
    public enum Kind {
        /** Options or arguments that cannot work together or cannot be parsed. */
        USAGE(2),
        /** A file or object the operator supplied (YAML project, policy, manifest, questions) is invalid. */
        INPUT(2),
        /** A database, the store, the embedding model or a path cannot be reached, opened or created. */
        UNAVAILABLE(2),
        /** Something SchemaBrain must trust (the audit log, a key, a private file) is not as it must be. */
        INTEGRITY(2);

        private final int exitCode;

        Kind(int exitCode) {
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    private final Kind failure;

    protected SchemaBrainException(Kind failure, String message, Throwable cause) {
        super(message, cause);
        this.failure = failure;
    }

    /** Not {@code kind()}: ExecutionException's kind() is the MCP error kind its envelope reports. */
    public final Kind failure() {
        return failure;
    }
}
