package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which values of a column the value index may keep (retrieval v2): the distinct short text values of a
 * text column whose name may be sampled at all ({@link SamplePolicy#mayCollect}), at most
 * {@link #MAX_PER_COLUMN} per column of at most {@link #MAX_LENGTH} characters. Excluded: non-text types
 * (numbers, dates), values with control characters, values that look like numbers or dates, values the
 * sample redaction would change (an e-mail, a phone number, a secret: never indexed, not even as a
 * placeholder), and long free text (a column where most values read are too long). PII-tagged columns lose
 * their values later, with their samples ({@code PiiTags#withoutTaggedSamples}); so do free-text columns and the
 * text columns of a person table, unless allowed ({@code pii.ChannelPolicy}).
 */
public final class ValuePolicy {

    public static final int MAX_PER_COLUMN = 200;
    public static final int MAX_LENGTH = SamplePolicy.MAX_LENGTH;
    /** The whole store keeps at most this many values; above it every column keeps an equal share. */
    public static final int MAX_PER_STORE = 500_000;
    /** Rows read per table for values (the samples still come from the first {@code 100}). */
    public static final int ROWS_READ = 1000;

    private static final List<String> TEXT_TYPES = List.of("char", "text", "string", "varchar", "nvarchar",
            "nchar", "character", "clob", "citext", "name", "enum");
    private static final Pattern NUMBER_OR_DATE = Pattern.compile("[\\p{N}\\p{P}\\p{S}\\s]+");
    private static final Pattern CONTROL = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]");

    private ValuePolicy() {
    }

    /**
     * A status or currency column: which of its values exist decides which rows a drafted metric counts (the sold
     * statuses, whether amounts are in one currency), so all its distinct values are read, not those of the first
     * rows (an updated row moves to the end of a PostgreSQL heap: the first thousand shipments were all undelivered).
     */
    public static boolean readsAllValues(String columnName) {
        String words = Identifiers.toSnakeCase(columnName).toLowerCase(Locale.ROOT);
        return ALL_VALUES.matcher(words).find();
    }

    private static final Pattern ALL_VALUES = Pattern.compile("(^|_)(status|state|stage|currency|ccy)(_|$)");

    /** Whether a column's values may be indexed at all: a text type whose name may be sampled. */
    public static boolean mayIndex(String columnName, String dataType) {
        String type = dataType == null ? "" : dataType.toLowerCase(Locale.ROOT);
        boolean text = TEXT_TYPES.stream().anyMatch(type::contains) && !type.contains("[]");
        return text && SamplePolicy.mayCollect(columnName, dataType);
    }

    /** The values to keep from the raw values read, in first-seen order; empty for long free text. */
    public static List<String> pick(Iterable<String> rawValues) {
        List<String> all = new ArrayList<>();
        rawValues.forEach(all::add);
        return pick(null, all);
    }

    /** As {@link #pick(Iterable)}; none of a column whose values are government identifiers ({@link GovernmentIds}). */
    public static List<String> pick(String columnName, List<String> rawValues) {
        if (GovernmentIds.column(columnName, rawValues).isPresent()) {
            return List.of();
        }
        return pickEach(rawValues);
    }

    private static List<String> pickEach(Iterable<String> rawValues) {
        Set<String> kept = new LinkedHashSet<>();
        int read = 0;
        int tooLong = 0;
        for (String raw : rawValues) {
            if (raw == null || raw.isBlank()) {
                continue;
            }
            read++;
            String value = raw.strip();
            if (value.length() > MAX_LENGTH) {
                tooLong++;
                continue;
            }
            if (kept.size() < MAX_PER_COLUMN && acceptable(value)) {
                kept.add(value);
            }
        }
        // A column of notes or descriptions is free text, not names: its short values are not representative.
        if (tooLong * 2 > read) {
            return List.of();
        }
        return new ArrayList<>(kept);
    }

    /** One value: no control characters, some letters, and nothing the sample redaction would replace. */
    static boolean acceptable(String value) {
        return !CONTROL.matcher(value).find()
                && !NUMBER_OR_DATE.matcher(value).matches()
                && SamplePolicy.redact(value).equals(value);
    }

    /** At most {@code perColumn} values of a column (the first ones read). */
    public static List<String> cap(List<String> values, int perColumn) {
        return values.size() <= perColumn ? values : List.copyOf(values.subList(0, perColumn));
    }

    /** The catalog with at most {@link #MAX_PER_STORE} values in all: above it each column keeps an equal share. */
    public static Catalog bounded(Catalog catalog) {
        long total = 0;
        int columns = 0;
        for (Table t : catalog.tables()) {
            for (Column c : t.columns()) {
                total += c.values().size();
                columns += c.values().isEmpty() ? 0 : 1;
            }
        }
        if (total <= MAX_PER_STORE) {
            return catalog;
        }
        int share = Math.max(1, MAX_PER_STORE / columns);
        return new Catalog(catalog.tables().stream()
                .map(t -> t.withColumns(t.columns().stream().map(c -> c.withValues(cap(c.values(), share))).toList()))
                .toList());
    }
}
