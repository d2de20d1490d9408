package dev.schemabrain.execute;

import dev.schemabrain.engine.Failure;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.error.ExecutionException;

import java.sql.SQLException;
import java.util.regex.Pattern;

/**
 * Our own sentence for each way a statement fails on the source. The database's text is never passed on: a value
 * inside an error message is a value read ({@code invalid input syntax for type integer: "123-45-6789"}), so an agent
 * could read through a conversion error what the guard would refuse to return. Only the SQLSTATE or the engine's
 * error code (digits and capitals, no value) may name an error we do not know.
 */
final class StatementFailures {

    private static final Pattern CODE = Pattern.compile("[0-9A-Z]{5}");

    private StatementFailures() {
    }

    /** The answer for a statement the source refused; {@code failure} is not a timeout, busy or unavailable source. */
    static ExecutionException of(Failure failure, SQLException e) {
        ErrorKind kind = failure == Failure.UNDEFINED_NAME ? ErrorKind.SCHEMA_DRIFT : ErrorKind.STATEMENT_FAILED;
        return new ExecutionException(kind, sentence(failure, e), firstLine(e.getMessage()));
    }

    static String sentence(Failure failure, SQLException e) {
        return switch (failure) {
            case INVALID_VALUE -> "The source could not convert or use a value the statement read (text that is not a"
                    + " number or date, malformed JSON); its message is withheld as it may quote the value: convert only"
                    + " values of the right shape (filter them first), or leave the conversion out.";
            case DIVISION_BY_ZERO -> "The statement divided by zero on the source; guard the divisor with NULLIF(divisor, 0)"
                    + " and retry.";
            case OUT_OF_RANGE -> "A value went out of its type's range on the source (an overflow or a value too long);"
                    + " cast to a wider type or narrow the rows, then retry.";
            case UNDEFINED_NAME -> "The source has no table or column that the statement names although the catalog"
                    + " has it: the schema changed since it was indexed; check the table with describe_table, and ask the"
                    + " operator to run schemabrain index.";
            case UNDEFINED_FUNCTION -> "The source has no function or operator the statement uses for these argument"
                    + " types; cast the arguments or use another function, then check the statement with validate_query.";
            case SYNTAX -> "The source could not parse the statement in its own SQL dialect; rewrite it in the source's"
                    + " dialect and check it with validate_query.";
            case READ_ONLY -> "The source refused the statement because the session is read-only; only one SELECT runs"
                    + " here.";
            case PERMISSION -> "The server's database account may not read something the statement uses; leave that"
                    + " table or column out, or ask the operator for the grant.";
            case RESOURCES -> "The source ran out of memory, disk or an engine limit running the statement; narrow it"
                    + " with filters, fewer columns or an aggregate, then retry.";
            default -> "The source refused the statement (" + code(e) + "); its message is withheld as it may quote"
                    + " values: check the statement with validate_query, or simplify it.";
        };
    }

    /** The SQLSTATE when it looks like one, else the engine's error code: never text the engine wrote around a value. */
    static String code(SQLException e) {
        String state = Failure.state(e);
        if (CODE.matcher(state).matches() && !state.equals("HY000") && !state.equals("00000")) {
            return "SQLSTATE " + state;
        }
        return e.getErrorCode() != 0 ? "error code " + e.getErrorCode() : "no error code";
    }

    /** The driver's first line, for the operator's own command only. */
    private static String firstLine(String message) {
        String text = message == null ? "no detail" : message.strip();
        int newline = text.indexOf('\n');
        text = newline < 0 ? text : text.substring(0, newline);
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
