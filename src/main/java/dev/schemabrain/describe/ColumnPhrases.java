package dev.schemabrain.describe;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.TypeClass;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sentence of a column that is neither a key nor a reference, shaped by what the column is: a flag reads
 * "Whether the product is discontinued", a time "When the invoice was issued", an amount "..., an amount", and an
 * adjective never stands as a noun ("The discontinued of the products" was the old sentence).
 */
final class ColumnPhrases {

    /** First words that make a yes/no question of the rest: is_active, has_allergy. */
    private static final Set<String> FLAG_VERBS = Set.of("is", "has", "can", "was", "should", "are", "does", "allow", "allows");
    /** Last words that mark a flag: abandoned_yn, active_flag. */
    private static final Set<String> FLAG_MARKS = Set.of("yn", "flag", "ind", "bool", "bit");
    /** Adjectives stored as 0/1 numbers as often as booleans. */
    private static final Set<String> FLAG_ADJECTIVES = Set.of("active", "inactive", "discontinued", "deleted", "enabled",
            "disabled", "archived", "verified", "visible", "hidden", "locked", "published", "approved", "public", "private",
            "valid", "default", "primary", "closed", "open", "paid", "available", "current", "blocked", "banned", "confirmed");
    /** Past participles that do not end in -ed. */
    private static final Set<String> IRREGULAR_PARTICIPLES = Set.of("paid", "sent", "built", "made", "sold", "bought", "held",
            "taken", "given", "seen", "done", "begun", "won", "lost", "left", "read", "born", "shown", "written", "set");
    /** Verbs that take no object: "when the dog arrived", not "was arrived". */
    private static final Set<String> INTRANSITIVE = Set.of("joined", "arrived", "departed", "happened", "occurred", "ended",
            "expired", "started", "finished", "died", "returned", "began", "left", "logged", "landed", "launched");
    private static final Set<String> PREPOSITIONS = Set.of("of", "in", "per", "for", "by", "to", "from", "with", "on", "at");
    private static final Set<String> TIME_WORDS = Set.of("at", "on", "date", "time", "timestamp", "datetime", "ts", "dt", "when");
    /** Words of a number column that make it money. */
    private static final Set<String> AMOUNT_WORDS = Set.of("amount", "price", "cost", "total", "fee", "fees", "balance",
            "salary", "freight", "revenue", "tax", "charge", "charges", "budget", "spent", "sales", "earnings", "wage", "cents",
            "payment", "paid", "due", "income", "profit", "discount", "rate", "money", "gross", "net", "bonus", "commission");

    private ColumnPhrases() {
    }

    /** The sentence without its final period. */
    static String sentence(List<String> words, String owner, Column c) {
        TypeClass type = TypeClass.of(c);
        String phrase = String.join(" ", words);
        String first = words.get(0);
        String last = words.get(words.size() - 1);
        if (words.size() > 1 && FLAG_VERBS.contains(first)) {
            String verb = first.equals("allow") || first.equals("allows") ? "allows" : first.equals("are") ? "is" : first;
            return "Whether the " + owner + " " + verb + " " + String.join(" ", words.subList(1, words.size()));
        }
        if (words.size() > 1 && FLAG_MARKS.contains(last) && adjective(words.get(words.size() - 2))) {
            return "Whether the " + owner + " is " + String.join(" ", words.subList(0, words.size() - 1));
        }
        if (type == TypeClass.TEMPORAL || words.size() == 2 && TIME_WORDS.contains(last) && participle(first)) {
            return timeSentence(words, owner, c.dataType());
        }
        if (PREPOSITIONS.contains(last)) {
            // "best_of": "The best of of the match" doubles the preposition.
            return "The " + phrase + " value of the " + owner + ", " + typePhrase(c);
        }
        if (words.size() == 1 && adjective(first)) {
            boolean flagNumber = type == TypeClass.NUMBER && (FLAG_ADJECTIVES.contains(first) || zeroOne(c.samples()));
            if (type == TypeClass.BOOLEAN || flagNumber) {
                return "Whether the " + owner + " is " + first;
            }
            return type == TypeClass.NUMBER ? "The number " + first + " of the " + owner
                    : "The " + first + " value of the " + owner + ", " + typePhrase(c);
        }
        if (type == TypeClass.BOOLEAN) {
            return "The " + phrase + " flag of the " + owner + ", yes or no";
        }
        if (type == TypeClass.NUMBER && words.stream().anyMatch(AMOUNT_WORDS::contains)) {
            return "The " + phrase + " of the " + owner + ", an amount";
        }
        return "The " + phrase + " of the " + owner + ", " + typePhrase(c);
    }

    private static String timeSentence(List<String> words, String owner, String dataType) {
        String kind = typePhrase(dataType);
        if (words.size() == 1 && participle(words.get(0))) {
            return "When the " + owner + (INTRANSITIVE.contains(words.get(0)) ? " " : " was ") + words.get(0) + ", " + kind;
        }
        if (words.size() == 2) {
            String event = TIME_WORDS.contains(words.get(1)) ? words.get(0) : TIME_WORDS.contains(words.get(0)) ? words.get(1) : null;
            if (event != null && participle(event)) {
                boolean passive = !INTRANSITIVE.contains(event);
                if (passive || TIME_WORDS.contains(words.get(0)) || !event.equals(words.get(1))) {
                    return "When the " + owner + (passive ? " was " : " ") + event + ", " + kind;
                }
            }
        }
        return "The " + String.join(" ", words) + " of the " + owner + ", " + kind;
    }

    /** Values a description names before it trails off. */
    private static final int NAMED_VALUES = 8;

    /** What the column holds: its type's own values when it declares them ("one of draft, open, paid"). */
    static String typePhrase(Column c) {
        Domain d = c.domain();
        if (d == null) {
            return typePhrase(c.dataType());
        }
        if (!d.categorical()) {
            return "yes or no";
        }
        if (!d.listed()) {
            return "one of a fixed set of values";
        }
        List<String> values = d.values();
        String named = String.join(", ", values.subList(0, Math.min(values.size(), NAMED_VALUES)))
                + (values.size() > NAMED_VALUES ? ", …" : "");
        return (d.kind() == Domain.Kind.SET ? "any of " : "one of ") + named;
    }

    static String typePhrase(String dataType) {
        String type = dataType == null ? "" : dataType.toLowerCase(Locale.ROOT);
        return switch (TypeClass.of(dataType)) {
            case TEMPORAL -> type.contains("timestamp") || type.contains("datetime") ? "a date and time"
                    : type.startsWith("date") ? "a date" : "a date or time";
            case BOOLEAN -> "yes or no";
            case NUMBER -> "a number";
            case TEXT -> "text";
            case CATEGORICAL -> "one of a fixed set of values";
            case OTHER -> "a value";
        };
    }

    private static boolean participle(String w) {
        return w.length() > 3 && w.endsWith("ed") && !w.endsWith("eed") || IRREGULAR_PARTICIPLES.contains(w);
    }

    private static boolean adjective(String w) {
        return participle(w) || FLAG_ADJECTIVES.contains(w) || w.length() > 5 && (w.endsWith("ive") || w.endsWith("able")
                || w.endsWith("ible"));
    }

    private static boolean zeroOne(List<String> samples) {
        return !samples.isEmpty() && samples.stream().allMatch(v -> v.equals("0") || v.equals("1"));
    }
}
