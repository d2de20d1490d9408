package dev.schemabrain.catalog;

import java.util.List;
import java.util.Objects;

/**
 * One column as introspected. Primary-key membership lives on {@link Table#primaryKey()};
 * {@code samples} holds at most {@link SamplePolicy#MAX_SAMPLES} already-redacted values.
 *
 * @param position 1-based ordinal position within the table
 * @param defaultValue the default expression as the database reports it, or null
 * @param comment the database's own comment, or null
 */
public record Column(String name, int position, String dataType, boolean nullable,
                     String defaultValue, String comment, List<String> samples) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dataType, "dataType");
        samples = samples == null ? List.of() : List.copyOf(samples);
    }

    public Column withSamples(List<String> newSamples) {
        return new Column(name, position, dataType, nullable, defaultValue, comment, newSamples);
    }
}
