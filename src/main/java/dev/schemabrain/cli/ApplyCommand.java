package dev.schemabrain.cli;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain apply [DIR]}: syncs the YAML semantic project into the store. */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Load DIR/entities, DIR/joins and DIR/metrics (*.yaml, one object per file) into the store.",
                "Each object becomes applied and manually authored and replaces an inferred draft of the same name;"
                        + " an applied object whose file is gone is removed. Everything is checked against the index"
                        + " first: nothing is written unless every file is valid."})
final class ApplyCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "schemabrain",
            description = "The project directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Override
    public Integer call() throws SchemaBrainException {
        SemanticStore.State state = SemanticStore.read(main.store());
        SemanticProject.Loaded project = load(dir);
        SemanticModel merged = SemanticProject.merge(state.stored(), project.model());
        failOnProblems(SemanticProject.check(merged, state.catalog(), project), "nothing was applied");
        List<SemanticProject.Change> changes = SemanticProject.diff(state.stored(), project.model());
        SemanticStore.replace(main.store(), merged);
        main.out().printf("Applied %s: %d entities, %d joins, %d metrics (%d added, %d changed, %d removed)%n", dir,
                project.model().entities().size(), project.model().joins().size(), project.model().metrics().size(),
                count(changes, '+'), count(changes, '~'), count(changes, '-'));
        changes.forEach(c -> main.out().println("  " + c));
        return 0;
    }

    static SemanticProject.Loaded load(Path dir) throws SemanticProjectException {
        return SemanticProject.read(dir);
    }

    static void failOnProblems(List<String> problems, String consequence) throws UserError {
        if (problems.isEmpty()) {
            return;
        }
        String first = problems.get(0);
        throw new UserError(SchemaBrainException.Kind.INPUT, problems.size() == 1 ? first.substring(0, first.length() - 1) + "; " + consequence + "."
                : problems.size() + " problems, " + consequence + ":\n  " + String.join("\n  ", problems));
    }

    private static long count(List<SemanticProject.Change> changes, char sign) {
        return changes.stream().filter(c -> c.sign() == sign).count();
    }
}
