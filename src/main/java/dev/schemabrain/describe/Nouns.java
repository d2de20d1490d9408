package dev.schemabrain.describe;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Just enough English for the describer's sentences: the singular of a table's noun phrase ("order details" →
 * "order detail"), and its indefinite article ("an employee", "a user", "an hour"). Only the last word of a phrase
 * is inflected; a candidate singular is checked against the vocabulary where the spelling rules disagree.
 */
final class Nouns {

    private static final Map<String, String> IRREGULAR = Map.ofEntries(Map.entry("people", "person"),
            Map.entry("children", "child"), Map.entry("men", "man"), Map.entry("women", "woman"), Map.entry("feet", "foot"),
            Map.entry("teeth", "tooth"), Map.entry("mice", "mouse"), Map.entry("geese", "goose"), Map.entry("criteria", "criterion"),
            Map.entry("indices", "index"), Map.entry("matrices", "matrix"), Map.entry("vertices", "vertex"),
            Map.entry("analyses", "analysis"), Map.entry("theses", "thesis"), Map.entry("crises", "crisis"),
            Map.entry("statuses", "status"), Map.entry("addresses", "address"), Map.entry("aliases", "alias"),
            Map.entry("buses", "bus"), Map.entry("movies", "movie"), Map.entry("cookies", "cookie"));
    /** Words that end in s and are singular already. */
    private static final Pattern SINGULAR_S = Pattern.compile(".*(ss|us|is|as|os|ics|news|series|species|ous|yes)");
    /** Nouns without a plural: "a staff" reads wrong, "a staff record" does not. */
    private static final Set<String> MASS = Set.of("data", "information", "staff", "inventory", "equipment", "software",
            "hardware", "feedback", "media", "metadata", "news", "personnel", "furniture", "luggage", "baggage", "music",
            "traffic", "weather", "money", "advice", "evidence", "research", "stock", "merchandise", "mail", "audit", "history");
    /** Vowel letters sounded as consonants ("a user", "a one-off"), and the reverse ("an hour"). */
    private static final Pattern CONSONANT_SOUND = Pattern.compile("(uni|use|usa|usu|uti|ura|uri|url|eu|one|once|ubi).*");
    private static final Pattern VOWEL_SOUND = Pattern.compile("(hour|honest|honor|honour|heir).*");

    private final Set<String> vocabulary;

    Nouns(Set<String> vocabulary) {
        this.vocabulary = vocabulary;
    }

    /** "order details" → "order detail"; "staff" stays; "categories" → "category". */
    String singular(String phrase) {
        int space = phrase.lastIndexOf(' ');
        return phrase.substring(0, space + 1) + singularWord(phrase.substring(space + 1));
    }

    /** The phrase as something one can count: a mass noun gets " record" ("staff record"). */
    String countable(String singularPhrase) {
        return MASS.contains(lastWord(singularPhrase)) ? singularPhrase + " record" : singularPhrase;
    }

    /** "a customer", "an employee", "a user", "an hour". */
    static String withArticle(String phrase) {
        return article(phrase) + " " + phrase;
    }

    static String article(String phrase) {
        String w = phrase.isEmpty() ? "" : phrase.toLowerCase(Locale.ROOT);
        boolean vowel = !w.isEmpty() && ("aeiou".indexOf(w.charAt(0)) >= 0 ? !CONSONANT_SOUND.matcher(w).matches()
                : VOWEL_SOUND.matcher(w).matches());
        return vowel ? "an" : "a";
    }

    /** "a customer, an employee and a shipper". */
    static String list(List<String> items) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    private String singularWord(String w) {
        String irregular = IRREGULAR.get(w);
        if (irregular != null) {
            return irregular;
        }
        if (w.length() <= 3 || !w.endsWith("s") || SINGULAR_S.matcher(w).matches()) {
            return w;
        }
        String ies = w.endsWith("ies") ? w.substring(0, w.length() - 3) + "y" : null;
        String es = w.matches(".*(s|x|z|ch|sh|o)es") ? w.substring(0, w.length() - 2) : null;
        String s = w.substring(0, w.length() - 1);
        for (String candidate : new String[] {ies, es, s}) {
            if (candidate != null && vocabulary.contains(candidate)) {
                return candidate;
            }
        }
        return ies != null ? ies : es != null ? es : s;
    }

    private static String lastWord(String phrase) {
        return phrase.substring(phrase.lastIndexOf(' ') + 1);
    }
}
