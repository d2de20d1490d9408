package dev.schemabrain.cli;

import dev.schemabrain.error.FileProblems;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticProject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain export [DIR]}: writes the stored semantic layer out as YAML files. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write the store's entities, joins and metrics as DIR/{entities,joins,metrics}/NAME.yaml.",
                "Inferred drafts are included unless --applied-only; edit the files and run 'schemabrain apply DIR'."})
final class ExportCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "schemabrain",
            description = "The project directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--applied-only", description = "Only objects that were applied or imported, not inferred drafts.")
    boolean appliedOnly;

    @Override
    public Integer call() throws SchemaBrainException {
        SemanticModel stored = SemanticStore.read(main.store()).stored();
        SemanticModel model = appliedOnly ? new SemanticModel(
                stored.entities().stream().filter(e -> !e.origin().inferred()).toList(),
                stored.joins().stream().filter(j -> !j.origin().inferred()).toList(),
                stored.metrics().stream().filter(m -> !m.origin().inferred()).toList()) : stored;
        List<Path> written;
        try {
            written = SemanticProject.write(dir, model);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot write the project to " + dir + " ("
                    + FileProblems.reason(e) + "); check the path and its permissions.", e);
        }
        main.out().printf("Exported %d entities, %d joins, %d metrics to %s (%d files)%n", model.entities().size(),
                model.joins().size(), model.metrics().size(), dir, written.size());
        return 0;
    }
}
