package dev.schemabrain.cli;

import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.DbtManifest;
import dev.schemabrain.error.SchemaBrainException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** {@code schemabrain import dbt manifest.json}: entities, joins and metrics from a dbt project (MetricFlow included). */
@Command(name = "import", mixinStandardHelpOptions = true, description = "Import a semantic layer from another tool.")
final class ImportCommand extends CommandGroup {

    @Command(name = "dbt", mixinStandardHelpOptions = true,
            description = {"Import entities (models with a primary key, named after their semantic model's primary"
                    + " entity), joins (relationships tests, MetricFlow foreign entities) and MetricFlow's simple, ratio,"
                    + " derived and cumulative metrics from dbt's target/manifest.json.",
                    "Only models whose relation is in the index are imported, and only metrics that compile exactly:"
                            + " what has no counterpart (conversion metrics, offsets, filters with OR, median) is listed"
                            + " with the reason. Imports replace drafts and earlier imports of the same name, never objects"
                            + " applied from YAML."})
    int dbt(@Parameters(paramLabel = "MANIFEST", description = "dbt's manifest.json.") Path manifest) throws SchemaBrainException {
        SemanticStore.State state = SemanticStore.read(main.store());
        DbtManifest.Result result = DbtManifest.read(manifest, state.catalog());
        SemanticModel stored = state.stored();
        SemanticModel merged = new SemanticModel(
                merge(stored.entities(), result.model().entities(), Entity::name, Entity::origin),
                merge(stored.joins(), result.model().joins(), Join::name, Join::origin),
                merge(stored.metrics(), result.model().metrics(), Metric::name, Metric::origin));
        SemanticStore.replace(main.store(), merged);
        main.out().printf("Imported from %s: %d entities, %d joins, %d metrics%n", manifest,
                result.model().entities().size(), result.model().joins().size(), result.model().metrics().size());
        result.notes().forEach(n -> main.out().println("  note: " + n));
        result.skipped().forEach(s -> main.out().println("  skipped " + s));
        return 0;
    }

    /** An import replaces drafts and the previous import; objects the operator authored or confirmed win. */
    private static <T> List<T> merge(List<T> stored, List<T> imported, Function<T, String> name, Function<T, Origin> origin) {
        Map<String, T> out = new LinkedHashMap<>();
        for (T s : stored) {
            if (!origin.apply(s).equals(Origin.DBT)) {
                out.put(name.apply(s), s);
            }
        }
        for (T i : imported) {
            T existing = out.get(name.apply(i));
            if (existing == null || !origin.apply(existing).reviewed()) {
                out.put(name.apply(i), i);
            }
        }
        return new ArrayList<>(out.values());
    }
}
