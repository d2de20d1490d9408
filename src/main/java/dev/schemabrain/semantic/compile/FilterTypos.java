package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * A caller's text filter value that is a typo of a value the catalog knows ("Shiped" for shipped, "EURO" for EUR):
 * compared as text it matches no row, and the answer is a silent zero. A declared domain is complete and
 * {@link FilterValues} refuses outside it; an open text column's indexed values are a sample, so a value it lacks may
 * be a rare real one. A value is refused only when it is close to a known value (case aside, or a small edit
 * distance) and a bound existence probe finds no row holding it; a value far from every known one goes through.
 */
public final class FilterTypos {

    private FilterTypos() {
    }

    /** Probes per call at most: each suspect costs one query, and an in list may hold a thousand values. */
    static final int MAX_PROBES = 5;
    /** A refusal names at most this many nearest values (a recovery's fuzzy_matches hold three). */
    static final int NEAREST = 3;
    private static final Set<FilterOp> EQUALITY = EnumSet.of(FilterOp.EQ, FilterOp.NE, FilterOp.IN, FilterOp.NOT_IN);

    /** Whether {@code sql} (one bound parameter) returns a row; true when that cannot be told, so nothing is refused. */
    @FunctionalInterface
    public interface Probe {
        boolean anyRow(String sql, List<Object> params);
    }

    /**
     * @param filter    the position of the caller's filter
     * @param reference the filter's column as the caller wrote it
     * @param nearest   the closest known values, best first
     */
    public record Typo(int filter, String reference, String value, List<String> nearest, boolean clear, String message) {
        public Typo {
            nearest = List.copyOf(nearest);
        }

        /** The one value to retry with, when it is closer than every other. */
        public Optional<String> correction() {
            return clear ? Optional.of(nearest.get(0)) : Optional.empty();
        }
    }

    /**
     * The first value of {@code filters} that is a confirmed typo, else empty.
     *
     * @param withheld whether a column's values are not the caller's to see (PII-tagged): it is never checked
     */
    public static Optional<Typo> find(MetricCompiler compiler, List<Filter> filters, Dialect dialect,
                                      BiPredicate<QualifiedName, String> withheld, Probe probe) {
        int probes = 0;
        for (int i = 0; i < filters.size(); i++) {
            Filter f = filters.get(i);
            if (!EQUALITY.contains(f.op()) || f.comparesColumns() || f.value() == null) {
                continue;
            }
            MetricCompiler.Ref ref;
            try {
                ref = compiler.reference(f.column(), ErrorKind.UNKNOWN_FILTER_COLUMN, "filter");
            } catch (CompileException e) {
                continue;   // the compile that ran before has refused this already
            }
            Column column = ref.column();
            TypeClass type = TypeClass.of(column);
            // A declared domain is checked whole by FilterValues; a PII column's values are never echoed.
            if (column.domain() != null || type != TypeClass.TEXT && type != TypeClass.CATEGORICAL
                    || column.values().isEmpty() || withheld.test(ref.table().name(), column.name())) {
                continue;
            }
            for (Object v : f.value() instanceof List<?> list ? list : List.of(f.value())) {
                String value = v instanceof String s ? s : String.valueOf(v);
                if (column.values().contains(value)) {
                    continue;
                }
                List<Near> near = nearest(value, column.values());
                if (near.isEmpty()) {
                    continue;
                }
                if (probes++ == MAX_PROBES) {
                    return Optional.empty();
                }
                String sql = "SELECT 1 FROM " + dialect.qualified(ref.table().name()) + " WHERE "
                        + dialect.quote(column.name()) + " = ? LIMIT 1";
                if (!probe.anyRow(sql, List.of(value))) {
                    List<String> names = near.stream().limit(NEAREST).map(Near::value).toList();
                    boolean clear = near.size() == 1 || near.get(0).distance() < near.get(1).distance();
                    return Optional.of(new Typo(i, ref.written(), value, names, clear, "No " + ref.written() + " is '"
                            + NameSyntax.excerpt(value) + "'; the nearest value" + (names.size() == 1 ? " is " : "s are ")
                            + String.join(", ", names) + "."));
                }
            }
        }
        return Optional.empty();
    }

    private record Near(String value, int distance, double similarity) {
    }

    /**
     * The known values a typo of {@code value} could be: equal but for case, or at most one edit per four characters
     * (none under four, where one edit makes another code: USD, AUD). Closest first.
     */
    static List<Near> nearest(String value, List<String> known) {
        String typed = value.strip().toLowerCase(Locale.ROOT);
        List<Near> out = new ArrayList<>();
        for (String k : known) {
            String candidate = k.toLowerCase(Locale.ROOT);
            int distance = Fuzzy.osaDistance(typed, candidate);
            if (distance <= Math.max(typed.length(), candidate.length()) / 4) {
                out.add(new Near(k, distance, Fuzzy.similarity(typed, candidate)));
            }
        }
        out.sort(Comparator.comparingInt(Near::distance).thenComparing(Comparator.comparingDouble(Near::similarity).reversed())
                .thenComparing(Near::value));
        return out;
    }
}
