package dev.schemabrain.cli;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain apply [DIR]}: syncs the YAML semantic project into the store. */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Load DIR/entities, DIR/joins and DIR/metrics (*.yaml, one object per file) into the store.",
                "An object whose definition is the stored draft's stays that draft; one you added or changed becomes"
                        + " manually authored and replaces the draft of its name; 'validation_state: confirmed' in a file"
                        + " confirms its object. An object you authored or confirmed whose file is gone is removed."
                        + " Everything is checked against the index first: nothing is written unless every file is valid."})
final class ApplyCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "schemabrain",
            description = "The project directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--reviewer", paramLabel = "NAME",
            description = "Who reviews the project, recorded with the time on each object it confirms or changes"
                    + " (default: the login user name).")
    String reviewer;

    @Override
    public Integer call() throws SchemaBrainException {
        SemanticStore.State state = SemanticStore.read(main.store());
        SemanticProject.Loaded project = load(dir);
        SemanticModel resolved = SemanticProject.resolve(state.stored(), project.model());
        SemanticModel merged = SemanticProject.merge(state.stored(), resolved);
        failOnProblems(SemanticProject.check(merged, state.catalog(), project), "nothing was applied");
        List<SemanticProject.Change> changes = SemanticProject.diff(state.stored(), resolved);
        SemanticStore.replace(main.store(), merged, new MetricReview(reviewer(reviewer),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()));
        main.out().printf("Applied %s: %d entities, %d joins, %d metrics (%d added, %d changed, %d removed)%n", dir,
                project.model().entities().size(), project.model().joins().size(), project.model().metrics().size(),
                count(changes, '+'), count(changes, '~'), count(changes, '-'));
        changes.forEach(c -> main.out().println("  " + c));
        return 0;
    }

    /** {@code --reviewer NAME}, else the login user name; console signs its verdicts the same way. */
    static String reviewer(String given) throws UserError {
        String name = given != null ? given.strip() : System.getProperty("user.name", "").strip();
        if (name.isEmpty()) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "Who reviews the project is unknown; pass --reviewer NAME.");
        }
        return name;
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
