package dev.schemabrain.pii;

import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.catalog.ValueShape;

import java.util.List;
import java.util.Set;

/**
 * Name rules whose meaning depends on the table or on the samples: short forms that mean a card number only when
 * the values could be one, and traits that are a person's only when the table is about people.
 */
final class NameContext {

    /** Short names that often, not always, mean a card number ({@code cc} is also a carbon copy or cubic centimetres). */
    private static final Set<String> AMBIGUOUS_CARD_WORDS = Set.of("cc", "pan");
    /** Tables about animals: their birth dates, sexes and diagnoses are not a person's. */
    private static final Set<String> ANIMAL_WORDS = Set.of("pet", "pets", "animal", "animals", "horse", "horses", "dog",
            "dogs", "cat", "cats", "livestock", "cattle", "herd", "herds", "kennel", "kennels", "breed", "breeds", "foal",
            "foals", "puppy", "puppies", "kitten", "kittens", "stallion", "stallions", "mare", "mares");
    private static final Set<String> PERSON_ROLES = Set.of("owner", "owners", "breeder", "breeders", "vet", "vets",
            "client", "clients", "keeper", "keepers", "handler", "handlers", "trainer", "trainers", "rider", "riders");

    private NameContext() {
    }

    static void apply(List<String> words, List<String> table, TypeClass type, List<String> values,
                      Set<PiiCategory> categories, Set<String> reasons) {
        cardShortForms(words, type, values, categories, reasons);
        animals(words, table, categories, reasons);
    }

    /**
     * {@code cc}, {@code cc_number}: a card number unless the column is numeric (engine size) or its samples show no
     * card at all (a carbon-copy address, an Indian PAN). With no samples the name decides: over-blocking a card
     * column is cheap, missing one is not.
     */
    private static void cardShortForms(List<String> words, TypeClass type, List<String> values,
                                       Set<PiiCategory> categories, Set<String> reasons) {
        boolean shortForm = words.stream().anyMatch(AMBIGUOUS_CARD_WORDS::contains);
        boolean otherCardWord = reasons.stream().anyMatch(r -> r.startsWith("name:") && r.contains("card")
                && !r.equals("name:pan"));
        if (!shortForm || otherCardWord && !words.contains("pan")) {
            return;
        }
        boolean noCard = !values.isEmpty() && values.stream().noneMatch(ValueShape.PAYMENT_CARD::occursIn);
        if (type == TypeClass.NUMBER && words.contains("cc") || noCard) {
            categories.remove(PiiCategory.PAYMENT_CARD);
            reasons.removeIf(r -> r.equals("name:pan"));
            return;
        }
        // Only when no other rule explains the name: cc_email is a carbon copy, cc_last_four a truncated number.
        if (words.contains("cc") && reasons.stream().noneMatch(r -> r.startsWith("name:"))) {
            categories.add(PiiCategory.PAYMENT_CARD);
            reasons.add("name:cc");
        }
    }

    private static void animals(List<String> words, List<String> table, Set<PiiCategory> categories, Set<String> reasons) {
        boolean animalTable = table.stream().anyMatch(ANIMAL_WORDS::contains)
                && table.stream().noneMatch(PERSON_ROLES::contains);
        if (animalTable && words.stream().noneMatch(PERSON_ROLES::contains)
                && categories.removeAll(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED, PiiCategory.HEALTH))) {
            reasons.add("guard:animal");
            if (categories.isEmpty()) {
                reasons.clear();
            }
        }
    }
}
