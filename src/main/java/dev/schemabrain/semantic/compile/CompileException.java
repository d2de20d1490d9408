package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import java.util.List;
import java.util.Map;

/**
 * A request the compiler refuses, with what a caller needs to retry: close names, and arguments that
 * would work (for example a {@code via} that picks one of two paths).
 */
public final class CompileException extends Exception {

    private final ErrorKind problem;
    private final List<String> candidates;
    private final Map<String, Object> suggestedArgs;

    public CompileException(ErrorKind problem, String message, List<String> candidates, Map<String, Object> suggestedArgs) {
        super(message);
        this.problem = problem;
        this.candidates = List.copyOf(candidates);
        this.suggestedArgs = Map.copyOf(suggestedArgs);
    }

    public CompileException(ErrorKind problem, String message, List<String> candidates) {
        this(problem, message, candidates, Map.of());
    }

    public ErrorKind problem() {
        return problem;
    }

    public List<String> candidates() {
        return candidates;
    }

    public Map<String, Object> suggestedArgs() {
        return suggestedArgs;
    }
}
