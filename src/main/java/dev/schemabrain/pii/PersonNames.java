package dev.schemabrain.pii;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether sampled values look like people's names ("First Last", "Last, First", "J. Smith", "Dr. Amara Nwosu",
 * "Laura and Ben Whitfield"), and which column words name a person by role ({@code assignee}, {@code empfänger}).
 *
 * <p>A value is person-shaped when it has one to four capitalised word tokens after titles and particles
 * ({@code van}, {@code de}), no digits and no company or group word (Inc, GmbH, S.r.l., Team, FC, …); it is
 * strongly so when a title, a known given name in the given-name position (resource {@code pii/given-names.txt},
 * many languages), a family-first surname ({@code Chen Jing}) or initials before a surname back it. Capitalised
 * two-word things (Real Madrid, Buenos Aires) are shaped like names, so a column needs strong evidence in most
 * values unless a role word already says the column holds people.
 */
final class PersonNames {

    enum Shape { NONE, WEAK, STRONG }

    private static final Set<String> GIVEN = load("/pii/given-names.txt");
    private static final Set<String> FAMILY_FIRST = load("/pii/family-first-surnames.txt");
    private static final Set<String> TITLES = Set.of("mr", "mrs", "ms", "miss", "mx", "dr", "dra", "prof", "professor",
            "sir", "dame", "lady", "lord", "rev", "revd", "reverend", "fr", "hon", "judge", "capt", "captain", "col",
            "sgt", "herr", "frau", "fraulein", "mme", "mlle", "monsieur", "madame", "sr", "sra", "srta", "don", "dona",
            "dott", "dottssa", "sig", "sigra", "signor", "signora", "avv", "ing", "nurse", "aunt", "auntie", "uncle",
            "grandma", "grandpa", "granny", "nan", "nana", "gran", "grandad", "doctor", "doktor");
    private static final Set<String> PARTICLES = Set.of("van", "von", "der", "den", "de", "da", "di", "du", "del",
            "della", "la", "le", "bin", "binti", "bint", "al", "el", "dos", "das", "do", "y", "ter", "ten", "zu", "af");
    /** Words of organisations, groups, places and things: a value with one is not a person's name. */
    private static final Set<String> NOT_A_PERSON = Set.of("inc", "incorporated", "ltd", "limited", "llc", "llp", "plc",
            "gmbh", "ag", "kg", "ohg", "gbr", "ev", "mbh", "sa", "sas", "sarl", "sl", "slu", "srl", "spa", "bv", "nv",
            "oy", "oyj", "ab", "asa", "aps", "pty", "co", "corp", "corporation", "company", "cie", "sci", "lda", "ltda",
            "group", "holding", "holdings", "partners", "associates", "services", "solutions", "systems", "technologies",
            "labs", "team", "teams", "squad", "guild", "department", "dept", "division", "unit", "office", "club", "fc",
            "university", "universite", "universidad", "universita", "college", "school", "academy", "institute",
            "institut", "bank", "hotel", "hospital", "clinic", "street", "road", "avenue", "lane", "square", "stadium",
            "arena", "park", "garden", "gardens", "hall", "house", "building", "tower", "centre", "center", "gallery",
            "museum", "theatre", "theater", "cinema", "church", "books", "press", "records", "publishing", "media",
            "studio", "studios", "productions", "foundation", "trust", "council", "ministry", "agency", "committee",
            "board", "society", "association", "union", "federation", "league", "orchestra", "philharmonic",
            "philharmoniker", "symphony", "ensemble", "choir", "quartet", "band", "the", "les", "los", "las", "il",
            "equipo", "equipe", "squadra", "abteilung", "cooperative", "industries", "international", "global",
            "consulting", "logistics", "express", "airlines", "airways", "shop", "store", "market", "restaurant",
            "cafe", "bar", "pharmacy", "salon", "city", "county", "state", "republic", "kingdom");
    /** "and" in several languages: a couple or a list of people in one value. */
    private static final Pattern AND = Pattern.compile("\\s*(?:;|&|\\+|,|\\s(?:and|und|et|y|e|en|og|och|i)\\s)\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PARENTHESES = Pattern.compile("\\([^)]*\\)");
    private static final Pattern INITIALS = Pattern.compile("(?:\\p{Lu}\\.?){1,3}|(?:\\p{Lu}\\.-?){1,3}");
    private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}'’.-]*");

    private PersonNames() {
    }

    /** Content alone: at least two values, four in five shaped like names and three in five strongly so. */
    static boolean mostlyNames(List<String> values) {
        if (values.size() < 2) {
            return false;
        }
        long person = 0;
        long strong = 0;
        for (String v : values) {
            Shape s = shape(v);
            person += s == Shape.NONE ? 0 : 1;
            strong += s == Shape.STRONG ? 1 : 0;
        }
        return person * 5 >= values.size() * 4L && strong * 5 >= values.size() * 3L;
    }

    /** Under a role word: half the values shaped like names, one of them strongly (team names are not). */
    static boolean someNames(List<String> values) {
        long person = 0;
        long strong = 0;
        for (String v : values) {
            Shape s = shape(v);
            person += s == Shape.NONE ? 0 : 1;
            strong += s == Shape.STRONG ? 1 : 0;
        }
        return !values.isEmpty() && person * 2 >= values.size() && strong >= 1;
    }

    static Shape shape(String raw) {
        String value = PARENTHESES.matcher(raw).replaceAll(" ").strip();
        if (value.isEmpty() || value.chars().anyMatch(c -> Character.isDigit(c) || "@#/:_=<>|\\".indexOf(c) >= 0)) {
            return Shape.NONE;
        }
        boolean allCaps = value.chars().filter(Character::isLetter).allMatch(Character::isUpperCase);
        // "Last, First": one comma, a short surname part before it, one or two names after; read as "First Last".
        String[] comma = value.split(",");
        if (comma.length == 2) {
            List<String> family = tokens(comma[0]);
            List<String> given = tokens(comma[1]);
            if (!family.isEmpty() && family.size() <= 3 && !given.isEmpty() && given.size() <= 3) {
                List<String> reordered = new ArrayList<>(given);
                reordered.addAll(family);
                Shape s = part(reordered, allCaps, false);
                if (s != Shape.NONE) {
                    return s;
                }
            }
        }
        String[] parts = AND.split(value);
        Shape result = Shape.STRONG;
        boolean strong = false;
        boolean multi = parts.length > 1;
        for (String p : parts) {
            List<String> t = tokens(p);
            if (t.isEmpty()) {
                return Shape.NONE;
            }
            Shape s = part(t, allCaps, multi);
            if (s == Shape.NONE) {
                return Shape.NONE;
            }
            strong |= s == Shape.STRONG;
            if (s == Shape.WEAK) {
                result = Shape.WEAK;
            }
        }
        return strong ? Shape.STRONG : result;
    }

    /** One person: titles, initials, particles and one to four capitalised names. */
    private static Shape part(List<String> tokens, boolean allCaps, boolean multi) {
        boolean title = false;
        int initials = 0;
        List<String> names = new ArrayList<>();
        for (String t : tokens) {
            String f = fold(t);
            if (NOT_A_PERSON.contains(f.replace(".", ""))) {
                return Shape.NONE;
            }
            if (names.isEmpty() && initials == 0 && TITLES.contains(f)) {
                title = true;
            } else if (INITIALS.matcher(t).matches() && (t.length() == 1 || t.contains("."))) {
                initials++;
            } else if (PARTICLES.contains(f) && (Character.isLowerCase(t.charAt(0)) || allCaps) && !names.isEmpty()) {
                continue;
            } else if (WORD.matcher(t).matches() && Character.isUpperCase(t.charAt(0)) && t.length() >= 2
                    && (allCaps || !t.chars().filter(Character::isLetter).allMatch(Character::isUpperCase))) {
                names.add(t);
            } else {
                return Shape.NONE;   // lower-case words, acronyms in mixed case, symbols
            }
        }
        int words = names.size() + initials;
        if (names.isEmpty() || words > 4) {
            return Shape.NONE;
        }
        if (words == 1 && !title) {
            // A lone name is a person only beside another in the same value ("Craig and Donna Fletcher").
            return multi && isGiven(names.get(0)) ? Shape.STRONG : Shape.NONE;
        }
        if (title || initials >= 1 && names.size() == 1 || isGiven(names.get(0))
                || FAMILY_FIRST.contains(fold(names.get(0))) && names.size() <= 3) {
            return Shape.STRONG;
        }
        return Shape.WEAK;
    }

    private static List<String> tokens(String part) {
        List<String> out = new ArrayList<>();
        for (String t : part.strip().split("\\s+")) {
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    private static boolean isGiven(String token) {
        String f = fold(token);
        if (GIVEN.contains(f)) {
            return true;
        }
        int dash = f.indexOf('-');
        return dash > 0 && GIVEN.contains(f.substring(0, dash));   // Jean-Michel, Min-jun
    }

    /** Lower case, accents and a trailing full stop removed: "Dr." → dr, "José" → jose. */
    static String fold(String s) {
        String n = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }

    private static Set<String> load(String resource) {
        Set<String> out = new HashSet<>();
        try (InputStream in = PersonNames.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int hash = line.indexOf('#');
                for (String w : (hash >= 0 ? line.substring(0, hash) : line).strip().split("\\s+")) {
                    if (!w.isEmpty()) {
                        out.add(fold(w));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(out);
    }
}
