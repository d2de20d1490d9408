package dev.schemabrain.describe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The known ways an offline description reads wrong (issue 18), each a check independent of the describer's own
 * rules: a plural after "each"/"a", "a" before a vowel sound, "The discontinued of the", an identifier word cut
 * into pieces ("ship per"), a doubled word, stray spacing.
 */
final class BrokenPatterns {

    /** Singular nouns that end in s; anything else ending in s after "each" or "a" reads as a plural. */
    private static final Pattern SINGULAR_S = Pattern.compile(".*(ss|us|is|as|os|ics|news|series|species|ous|yes)");
    /** Words that start with a vowel letter but a consonant sound ("a user", "a one-time"). */
    private static final Pattern CONSONANT_SOUND = Pattern.compile("(uni|use|usa|usu|uti|ura|uri|url|eu|one|once|ubi).*");
    /** Words that start with a consonant letter but a vowel sound ("an hour"). */
    private static final Pattern VOWEL_SOUND = Pattern.compile("(hour|honest|honor|honour|heir).*");
    /** Fragments that are no word of a name: a split that yields one cut a real word ("ship per", "sell ers"). */
    private static final Set<String> FRAGMENTS = Set.of("per", "ing", "ers", "ion", "ies", "ted", "ous", "ent", "ant",
            "ness", "ment", "est", "ful", "less", "ive", "age", "ure", "ate", "ism", "ist", "ity", "ize", "ise", "ions", "ings",
            "ents", "ants", "ates", "ives", "ages", "ures", "ists", "sub", "pre", "dis", "ably", "ibly");

    private static final Pattern EACH = Pattern.compile("\\b[Ee]ach ([a-z0-9 ]+?) (belongs|is|has|was|record)\\b");
    private static final Pattern IDENTIFIES = Pattern.compile("identifies (?:each|a|an|one) ([a-z0-9 ]+?)[.;,]");
    private static final Pattern BELONGS = Pattern.compile("belongs to ([^.;]+)[.;]");
    private static final Pattern WHETHER = Pattern.compile("\\b(?:Whether|When) (?:the|a|an) ([a-z0-9 ]+?) (is|has|was|can)\\b");
    private static final Pattern ARTICLE = Pattern.compile("\\b([Aa]n?) ([a-z][a-z0-9]*)\\b");
    private static final Pattern ADJECTIVE_OF = Pattern.compile("^The ([a-z]+(?<!e)ed|[a-z]+ive|[a-z]+able|[a-z]+ible|is [a-z]+|has [a-z]+) of\\b");
    private static final Pattern DOUBLED = Pattern.compile("\\b(\\w+) \\1\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPACING = Pattern.compile("\\s{2,}|\\s[.,;]|^\\s|\\s$|\\bThe [.,;]");

    private BrokenPatterns() {
    }

    /** What is wrong with {@code description} of the table or column named {@code identifier}; empty when nothing. */
    static List<String> problems(String identifier, String description) {
        List<String> out = new ArrayList<>();
        for (Pattern p : List.of(EACH, IDENTIFIES, WHETHER)) {
            Matcher m = p.matcher(description);
            while (m.find()) {
                if (plural(lastWord(m.group(1)))) {
                    out.add("number agreement: '" + m.group() + "'");
                }
            }
        }
        Matcher belongs = BELONGS.matcher(description);
        while (belongs.find()) {
            for (String item : belongs.group(1).split(",| and ")) {
                String w = lastWord(item.strip());
                if (item.strip().matches("an? .*") && plural(w)) {
                    out.add("number agreement: 'belongs to " + item.strip() + "'");
                }
            }
        }
        Matcher article = ARTICLE.matcher(description);
        while (article.find()) {
            String word = article.group(2);
            boolean vowel = "aeiou".indexOf(word.charAt(0)) >= 0 ? !CONSONANT_SOUND.matcher(word).matches()
                    : VOWEL_SOUND.matcher(word).matches();
            boolean an = article.group(1).equalsIgnoreCase("an");
            if (an != vowel) {
                out.add("article: '" + article.group() + "'");
            }
        }
        if (ADJECTIVE_OF.matcher(description).find()) {
            out.add("adjective as a noun: '" + description.substring(0, Math.min(40, description.length())) + "'");
        }
        Matcher doubled = DOUBLED.matcher(description);
        while (doubled.find()) {
            if (!doubled.group(1).matches("\\d+")) {
                out.add("doubled word: '" + doubled.group() + "'");
            }
        }
        if (SPACING.matcher(description).find()) {
            out.add("spacing: '" + description + "'");
        }
        // A word of the name cut in the text: adjacent words that spell one piece of the identifier, one a fragment.
        List<String> said = List.of(description.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"));
        for (String piece : Words.pieces(identifier.substring(identifier.lastIndexOf('.') + 1))) {
            for (int i = 0; i < said.size(); i++) {
                StringBuilder joined = new StringBuilder(said.get(i));
                for (int j = i + 1; j < Math.min(said.size(), i + 3); j++) {
                    joined.append(said.get(j));
                    if (joined.toString().equals(piece) && said.subList(i, j + 1).stream().anyMatch(FRAGMENTS::contains)) {
                        out.add("split word: '" + piece + "' as '" + String.join(" ", said.subList(i, j + 1)) + "'");
                    }
                }
            }
        }
        return out;
    }

    private static String lastWord(String phrase) {
        return phrase.substring(phrase.lastIndexOf(' ') + 1).toLowerCase(Locale.ROOT);
    }

    static boolean plural(String word) {
        return word.length() > 3 && word.endsWith("s") && !SINGULAR_S.matcher(word).matches();
    }
}
