package dev.schemabrain.engine;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How to introspect.
 *
 * @param sampleValues whether to read sample values at all
 * @param previous the table as the store last saw it, used to skip re-reading rows whose
 *                 {@link Table#dataVersion()} has not moved
 * @param progress told as tables are sampled, for a progress bar
 */
public record IntrospectionOptions(boolean sampleValues, Function<QualifiedName, Optional<Table>> previous,
                                   SamplingProgress progress) {

    public IntrospectionOptions {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(progress, "progress");
    }

    public IntrospectionOptions(boolean sampleValues, Function<QualifiedName, Optional<Table>> previous) {
        this(sampleValues, previous, SamplingProgress.NONE);
    }

    public static IntrospectionOptions fresh() {
        return new IntrospectionOptions(true, name -> Optional.empty());
    }

    public static IntrospectionOptions withoutSamples() {
        return new IntrospectionOptions(false, name -> Optional.empty());
    }

    /**
     * {@code current} with the samples and indexed values it had last time, when the engine vouches that the
     * rows have not changed (same non-null data version) and the columns are the same.
     */
    public Optional<Table> reusableData(Table current) {
        if (current.dataVersion() == null) {
            return Optional.empty();
        }
        return previous.apply(current.name())
                .filter(old -> current.dataVersion().equals(old.dataVersion()))
                .filter(old -> columnNames(old).equals(columnNames(current)))
                .map(old -> {
                    Map<String, Column> before = new HashMap<>();
                    old.columns().forEach(c -> before.put(c.name(), c));
                    return current.withColumns(current.columns().stream()
                            .map(c -> c.withSamples(before.get(c.name()).samples()).withValues(before.get(c.name()).values()))
                            .toList());
                });
    }

    private static List<String> columnNames(Table table) {
        return table.columns().stream().map(Column::name).toList();
    }
}
