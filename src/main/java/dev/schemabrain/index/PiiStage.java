package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.pii.Allowance;
import dev.schemabrain.pii.ChannelPolicy;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiClassifier;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Classifies every column of a fresh catalog and drops the samples of every tagged column before
 * anything is fingerprinted, described or stored, so PII sample values never reach the store; then withholds what
 * the other channels would leak ({@link ChannelPolicy}: comments redacted, free text and person tables' values).
 */
final class PiiStage {

    /** @param catalog the catalog without samples on tagged columns; {@code heuristic} holds only tagged columns */
    record Classified(Catalog catalog, List<PiiTags.Entry> heuristic) {
    }

    private PiiStage() {
    }

    /**
     * @param previous   the classifier's tags of the last run of this source
     * @param overrides  the operator's overrides, which also decide whose samples are dropped
     * @param allowances the operator's allowances by table and column; they decide which free-text and person
     *                   columns keep samples or value-index entries ({@link ChannelPolicy})
     */
    static Classified classify(Catalog catalog, List<PiiTags.Entry> previous, List<PiiTags.Entry> overrides,
                               Map<QualifiedName, Map<String, Set<Allowance>>> allowances) {
        Map<String, PiiTags.Entry> before = previous.stream()
                .collect(Collectors.toMap(PiiTags.Entry::qualifiedColumn, Function.identity(), (a, b) -> a));
        List<PiiTags.Entry> tagged = new ArrayList<>();
        // Tables whose keys point to each table: film_actor links actor to a film catalogue.
        Map<QualifiedName, List<String>> linkedFrom = new HashMap<>();
        for (Table t : catalog.tables()) {
            for (ForeignKey fk : t.foreignKeys()) {
                linkedFrom.computeIfAbsent(fk.target(), k -> new ArrayList<>()).add(t.name().table());
            }
        }
        for (Table t : catalog.tables()) {
            PiiClassifier.TableContext context = PiiClassifier.TableContext.of(t, linkedFrom.getOrDefault(t.name(), List.of()));
            for (Column c : t.columns()) {
                PiiTag tag = PiiClassifier.classify(t, c, context);
                PiiTags.Entry last = before.get(t.name() + "." + c.name());
                // A tagged column's samples were dropped last time, so content rules cannot fire again on
                // reused (empty) samples: what they found then still holds.
                if (c.samples().isEmpty() && last != null && fromContent(last.tag())) {
                    tag = union(tag, last.tag());
                }
                if (tag.tagged()) {
                    tagged.add(new PiiTags.Entry(t.name(), c.name(), tag, PiiTags.Origin.HEURISTIC));
                }
            }
        }
        PiiTags tags = new PiiTags(tagged, overrides).withAllowances(allowances);
        Catalog stripped = ChannelPolicy.apply(tags.withoutTaggedSamples(catalog), tags);
        return new Classified(stripped, tagged);
    }

    private static boolean fromContent(PiiTag tag) {
        return tag.reasons().stream().anyMatch(r -> r.startsWith("content:"));
    }

    private static PiiTag union(PiiTag a, PiiTag b) {
        EnumSet<PiiCategory> categories = EnumSet.noneOf(PiiCategory.class);
        categories.addAll(a.categories());
        categories.addAll(b.categories());
        LinkedHashSet<String> reasons = new LinkedHashSet<>(a.reasons());
        reasons.addAll(b.reasons());
        return PiiTag.of(categories, List.copyOf(reasons));
    }
}
