package dev.schemabrain.pii;

import dev.schemabrain.catalog.QualifiedName;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The disclosure rules: whether a metric query may run, given every column it reads
 * and the role each plays. One place decides, so a new role or operator cannot slip past a rule kept
 * elsewhere. The query's PII set is the union of the categories of the columns it touches. Per use:
 * <ul>
 * <li>any role: a category on the block list refuses (no allowance lifts it);</li>
 * <li>MIN/MAX operand: any tag refuses — the answer is one person's value;</li>
 * <li>group_by and time dimension: any tag refuses — each group or bucket would name a value
 *     (a birth date bucketed by day lists everyone's birthday);</li>
 * <li>range or pattern filter: any tag refuses — ~150 calls of gte/lt binary search recover an e-mail;</li>
 * <li>equality filter (eq, ne, in, not_in): a direct identifier refuses — "count where email = x" is a
 *     membership oracle, and ne/not_in are its complement (total minus the count);</li>
 * <li>null test, plain measure, join key: only the block list (presence is one bit, and a group that
 *     narrows to a few people is suppressed by the small-cell rule in the same query).</li>
 * </ul>
 * An operator's {@link Allowance} on a column lifts the matching rule for that column only.
 */
public final class MetricPiiCheck {

    /** How a query uses a column. */
    public enum Use {
        /** A sum, count, count_distinct or average operand. */
        MEASURE(null),
        MIN_MAX_OPERAND(Allowance.MIN_MAX),
        /** eq, ne, in, not_in. */
        FILTER_EQUALITY(Allowance.FILTER_EQ),
        /** lt, lte, gt, gte and any pattern operator. */
        FILTER_RANGE(Allowance.FILTER_RANGE),
        /** is_null, not_null. */
        FILTER_NULL_TEST(null),
        GROUP_BY(Allowance.GROUP_BY),
        TIME_DIMENSION(Allowance.TIME_DIMENSION),
        JOIN_KEY(null);

        private final Allowance lifter;

        Use(Allowance lifter) {
            this.lifter = lifter;
        }

        /** The allowance that lifts this use's rule, if one can. */
        public Optional<Allowance> lifter() {
            return Optional.ofNullable(lifter);
        }
    }

    /**
     * Direct identifiers: a value of one of these names a person by itself, so even an equality test on
     * it is a disclosure.
     */
    public static final Set<PiiCategory> DIRECT_IDENTIFIERS = Set.copyOf(EnumSet.of(PiiCategory.CONTACT,
            PiiCategory.CREDENTIAL, PiiCategory.PAYMENT_CARD, PiiCategory.GOVERNMENT_ID, PiiCategory.ONLINE_IDENTIFIER,
            PiiCategory.BIOMETRIC, PiiCategory.GENETIC));

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

    /** Why a use was refused: the block list, or the rule of its role. */
    public enum Cause { BLOCKED, ROLE }

    /**
     * @param categories only the categories that caused the refusal
     * @param column     the first column that caused it, {@code schema.table.column}
     * @param use        the role it played there
     * @param cause      whether the block list or the role's rule refused it
     */
    public record Refusal(Set<PiiCategory> categories, String column, Use use, Cause cause, QualifiedName table,
                          String columnName) {

        public Refusal(Set<PiiCategory> categories, String column, Use use) {
            this(categories, column, use, Cause.ROLE, null, null);
        }

        public List<String> categoryNames() {
            return categories.stream().sorted().map(PiiCategory::wireName).toList();
        }
    }

    private MetricPiiCheck() {
    }

    public static Verdict check(List<ColumnUse> uses, PiiTags tags, BlockList blockList) {
        return check(uses, tags, blockList, Set.of());
    }

    /**
     * @param cleared categories the caller's access role sees in clear: no rule of use refuses them (the
     *                block list in force already leaves them out; the catastrophic floor is never cleared)
     */
    public static Verdict check(List<ColumnUse> uses, PiiTags tags, BlockList blockList, Set<PiiCategory> cleared) {
        EnumSet<PiiCategory> propagated = EnumSet.noneOf(PiiCategory.class);
        EnumSet<PiiCategory> causes = EnumSet.noneOf(PiiCategory.class);
        Refusal first = null;
        for (ColumnUse u : uses) {
            PiiTag tag = tags.tag(u.table(), u.column());
            propagated.addAll(tag.categories());
            Set<PiiCategory> blocked = tag.blockedBy(blockList.categories());
            // The block list first: no allowance lifts it.
            Cause why = blocked.isEmpty() ? Cause.ROLE : Cause.BLOCKED;
            Set<PiiCategory> found = blocked.isEmpty() ? byRole(u, tag, tags.allowances(u.table(), u.column())) : blocked;
            if (!cleared.isEmpty() && !found.isEmpty()) {
                EnumSet<PiiCategory> left = EnumSet.copyOf(found);
                cleared.stream().filter(c -> !PiiCategory.CATASTROPHIC_FLOOR.contains(c)).forEach(left::remove);
                found = left;
            }
            if (!found.isEmpty()) {
                causes.addAll(found);
                if (first == null) {
                    first = new Refusal(found, u.table() + "." + u.column(), u.use(), why, u.table(), u.column());
                }
            }
        }
        Optional<Refusal> refusal = first == null ? Optional.empty()
                : Optional.of(new Refusal(EnumSet.copyOf(causes), first.column(), first.use(), first.cause(), first.table(),
                first.columnName()));
        return new Verdict(propagated.isEmpty() ? Set.of() : EnumSet.copyOf(propagated), refusal);
    }

    /** The categories of {@code tag} that the rule of {@code u}'s role refuses, unless an allowance lifts it. */
    private static Set<PiiCategory> byRole(ColumnUse u, PiiTag tag, Set<Allowance> allowed) {
        if (!tag.tagged() || u.use().lifter().map(allowed::contains).orElse(false)) {
            return Set.of();
        }
        return switch (u.use()) {
            case MIN_MAX_OPERAND, GROUP_BY, TIME_DIMENSION, FILTER_RANGE -> tag.categories();
            case FILTER_EQUALITY -> tag.blockedBy(DIRECT_IDENTIFIERS);
            case MEASURE, FILTER_NULL_TEST, JOIN_KEY -> Set.of();
        };
    }
}
