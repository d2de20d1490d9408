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
 * @param values the distinct short text values retrieval may match a question against ({@link ValuePolicy}:
 *               bounded, never for PII-tagged columns), empty when none were read
 * @param domain the values its type allows (an ENUM's labels, a boolean), or null when the type is open
 */
public record Column(String name, int position, String dataType, boolean nullable,
                     String defaultValue, String comment, List<String> samples, List<String> values, Domain domain) {

    public Column {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dataType, "dataType");
        samples = samples == null ? List.of() : List.copyOf(samples);
        values = values == null ? List.of() : List.copyOf(values);
    }

    /** A column whose type has no declared domain. */
    public Column(String name, int position, String dataType, boolean nullable, String defaultValue, String comment,
                  List<String> samples, List<String> values) {
        this(name, position, dataType, nullable, defaultValue, comment, samples, values, null);
    }

    /** A column without indexed values. */
    public Column(String name, int position, String dataType, boolean nullable, String defaultValue, String comment,
                  List<String> samples) {
        this(name, position, dataType, nullable, defaultValue, comment, samples, List.of(), null);
    }

    public Column withSamples(List<String> newSamples) {
        return new Column(name, position, dataType, nullable, defaultValue, comment, newSamples, values, domain);
    }

    public Column withValues(List<String> newValues) {
        return new Column(name, position, dataType, nullable, defaultValue, comment, samples, newValues, domain);
    }

    public Column withComment(String newComment) {
        return new Column(name, position, dataType, nullable, defaultValue, newComment, samples, values, domain);
    }

    public Column withDomain(Domain newDomain) {
        return new Column(name, position, dataType, nullable, defaultValue, comment, samples, values, newDomain);
    }

    /**
     * Neither samples nor values: what a PII-tagged column keeps. Its type's labels go too (a gender ENUM's
     * labels are the data); the kind and the engine's type stay, so a filter is still bound in that type.
     */
    public Column withoutData() {
        return new Column(name, position, dataType, nullable, defaultValue, comment, List.of(), List.of(),
                domain == null ? null : domain.withoutValues());
    }
}
