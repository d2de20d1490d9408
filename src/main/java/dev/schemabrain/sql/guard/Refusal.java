package dev.schemabrain.sql.guard;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Why a SQL text was not accepted: a closed reason, one sentence saying what and what to do, and for an unknown
 * name the closest catalog names. Messages quote only what the caller wrote or the catalog holds, never data.
 */
public record Refusal(Reason reason, String message, List<String> suggestions) implements GuardResult {

    public enum Reason {
        /** Not exactly one statement, or one that is not a SELECT (EXPLAIN, SET, DDL, ...). */
        NOT_A_SINGLE_SELECT,
        /** INSERT, UPDATE, DELETE, MERGE or the like anywhere, including inside a CTE. */
        DML_IN_STATEMENT,
        /** FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE. */
        LOCKING_CLAUSE,
        /** A table of the engine's own catalogs (pg_catalog, information_schema, sqlite_master, mysql, ...). */
        SYSTEM_CATALOG,
        /** A table or column the catalog does not have; suggestions hold the nearest names. */
        UNKNOWN_NAME,
        /** A name that more than one table or column in scope could mean. */
        AMBIGUOUS_NAME,
        /** A function (or cast target, variable, sequence) outside the engine's allow-list. */
        FUNCTION_NOT_ALLOWED,
        /** A MySQL {@code /*! ... *}{@code /} comment, or a comment the engine could read differently. */
        EXECUTABLE_COMMENT,
        /** SELECT ... INTO (OUTFILE, DUMPFILE, a variable or a new table). */
        INTO_OUTFILE,
        /** The text does not parse as SQL. */
        SYNTAX_ERROR,
        /** A construct the binder cannot follow, so lineage could not be vouched for. */
        UNSUPPORTED_CONSTRUCT;

        /** The reason as the wire spells it: lower snake case. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Refusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        suggestions = suggestions == null ? List.of() : List.copyOf(suggestions);
    }

    static Refusal of(Reason reason, String message) {
        return new Refusal(reason, message, List.of());
    }
}
