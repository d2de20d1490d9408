package dev.schemabrain.pii;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What is known about one column: its sensitivity, its categories and, for the classifier's tags,
 * the rules that fired. An untagged column is {@link #NONE}.
 */
public record PiiTag(Sensitivity sensitivity, Set<PiiCategory> categories, List<String> reasons) {

    public static final PiiTag NONE = new PiiTag(Sensitivity.PUBLIC, Set.of(), List.of());

    public PiiTag {
        categories = categories.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(categories));
        reasons = List.copyOf(reasons);
        sensitivity = Sensitivity.max(sensitivity, Sensitivity.of(categories));
    }

    public static PiiTag of(Collection<PiiCategory> categories, List<String> reasons) {
        return new PiiTag(Sensitivity.of(categories), Set.copyOf(categories), reasons);
    }

    /** Whether the column carries any category. */
    public boolean tagged() {
        return !categories.isEmpty();
    }

    public boolean catastrophic() {
        return categories.stream().anyMatch(PiiCategory::catastrophic);
    }

    /** The categories of this column that {@code blockList} blocks, in enum order. */
    public Set<PiiCategory> blockedBy(Set<PiiCategory> blockList) {
        EnumSet<PiiCategory> blocked = EnumSet.noneOf(PiiCategory.class);
        for (PiiCategory c : categories) {
            if (blockList.contains(c)) {
                blocked.add(c);
            }
        }
        return blocked;
    }

    /** Categories in enum order, as wire names. */
    public List<String> categoryNames() {
        return EnumSet.copyOf(categories.isEmpty() ? EnumSet.noneOf(PiiCategory.class) : categories).stream()
                .map(PiiCategory::wireName).toList();
    }
}
