package dev.schemabrain.pii;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The categories a server refuses to aggregate over and redacts in descriptions. It always holds the
 * catastrophic floor unless the operator forces it lower.
 */
public record BlockList(Set<PiiCategory> categories) {

    public static final BlockList FLOOR = new BlockList(PiiCategory.CATASTROPHIC_FLOOR);

    public BlockList {
        categories = categories.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(categories));
    }

    /**
     * The categories named in {@code csv} (wire names, comma-separated). Leaving out one of the floor's
     * categories is refused unless {@code force} is set.
     *
     * @throws IllegalArgumentException naming the unknown category or the floor categories left out
     */
    public static BlockList parse(String csv, boolean force) {
        EnumSet<PiiCategory> chosen = EnumSet.noneOf(PiiCategory.class);
        for (String part : csv.split(",")) {
            if (!part.isBlank()) {
                chosen.add(PiiCategory.fromWireName(part.strip().toLowerCase(Locale.ROOT)));
            }
        }
        return of(chosen, force);
    }

    /** @throws IllegalArgumentException when {@code categories} leaves out part of the floor and {@code force} is not set */
    public static BlockList of(Set<PiiCategory> categories, boolean force) {
        List<String> missing = new ArrayList<>();
        for (PiiCategory floor : List.of(PiiCategory.CREDENTIAL, PiiCategory.PAYMENT_CARD, PiiCategory.GOVERNMENT_ID)) {
            if (!categories.contains(floor)) {
                missing.add(floor.wireName());
            }
        }
        if (!missing.isEmpty() && !force) {
            throw new IllegalArgumentException("the block list leaves out " + String.join(", ", missing)
                    + ", which are always blocked; add them, or confirm with the force flag that they may be aggregated");
        }
        return new BlockList(categories);
    }

    public boolean blocks(PiiCategory category) {
        return categories.contains(category);
    }

    /** The categories as wire names, in enum order. */
    public List<String> names() {
        return categories.stream().sorted().map(PiiCategory::wireName).toList();
    }
}
