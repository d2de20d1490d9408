package dev.schemabrain.cli;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain diff [DIR]}: what apply would change; exit 0 in sync, 1 drift, 2 error. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Compare the YAML semantic project with the store's applied objects without writing anything.",
                "Prints '+ kind name' (apply would add, or make an edited or confirmed draft yours), '~' (change) and"
                        + " '-' (remove); a draft left as exported is no difference. Exit 0 in sync, 1 drift, 2 error."})
final class DiffCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "schemabrain",
            description = "The project directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Override
    public Integer call() throws SchemaBrainException {
        SemanticStore.State state = SemanticStore.read(main.store());
        SemanticProject.Loaded project = ApplyCommand.load(dir);
        SemanticModel resolved = SemanticProject.resolve(state.stored(), project.model());
        ApplyCommand.failOnProblems(SemanticProject.check(SemanticProject.merge(state.stored(), resolved),
                state.catalog(), project), "the project cannot be applied");
        List<SemanticProject.Change> changes = SemanticProject.diff(state.stored(), resolved);
        if (changes.isEmpty()) {
            main.out().println("In sync: the store holds every object of " + dir + " as it is written.");
            return 0;
        }
        changes.forEach(main.out()::println);
        main.out().println(changes.size() + " difference" + (changes.size() == 1 ? "" : "s") + "; run 'schemabrain apply "
                + dir + "' to sync.");
        return 1;
    }
}
