package dev.schemabrain.pii;

import dev.schemabrain.catalog.QualifiedName;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a metric query may run, given every column it reads (SPEC §8): its PII set is the union of
 * their categories; it is refused when that set meets the block list, when MIN or MAX runs over a
 * tagged column (the answer would be one person's value) or when it groups by a tagged column (each
 * group would name a value).
 */
public final class MetricPiiCheck {

    /** How a query uses a column. */
    public enum Use { MIN_MAX_OPERAND, GROUP_BY, OTHER }

    public record ColumnUse(QualifiedName table, String column, Use use) {
    }

    /**
     * @param propagated every category the query touches
     * @param refusal    why it may not run, if it may not
     */
    public record Verdict(Set<PiiCategory> propagated, Optional<Refusal> refusal) {

        public List<String> propagatedNames() {
            return propagated.stream().sorted().map(PiiCategory::wireName).toList();
        }
    }

    /**
     * @param categories only the categories that caused the refusal
     * @param column     the first column that caused it, {@code schema.table.column}
     */
    public record Refusal(Set<PiiCategory> categories, String column, Use use) {

        public List<String> categoryNames() {
            return categories.stream().sorted().map(PiiCategory::wireName).toList();
        }
    }

    private MetricPiiCheck() {
    }

    public static Verdict check(List<ColumnUse> uses, PiiTags tags, BlockList blockList) {
        EnumSet<PiiCategory> propagated = EnumSet.noneOf(PiiCategory.class);
        EnumSet<PiiCategory> blocked = EnumSet.noneOf(PiiCategory.class);
        String firstColumn = null;
        Use firstUse = null;
        for (ColumnUse u : uses) {
            PiiTag tag = tags.tag(u.table(), u.column());
            propagated.addAll(tag.categories());
            // Blocked categories refuse in any role; MIN/MAX and GROUP BY refuse over any tag at all.
            Set<PiiCategory> cause = u.use() == Use.OTHER ? tag.blockedBy(blockList.categories()) : tag.categories();
            if (!cause.isEmpty()) {
                blocked.addAll(cause);
                if (firstColumn == null) {
                    firstColumn = u.table() + "." + u.column();
                    firstUse = u.use();
                }
            }
        }
        Optional<Refusal> refusal = blocked.isEmpty() ? Optional.empty()
                : Optional.of(new Refusal(EnumSet.copyOf(blocked), firstColumn, firstUse));
        return new Verdict(EnumSet.copyOf(propagated.isEmpty() ? EnumSet.noneOf(PiiCategory.class) : propagated), refusal);
    }
}
