package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.TypeClass;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Whether a column holds free text: ticket bodies, manager notes, messages, where people write health, family and
 * harassment facts no shape rule can find. Such a column keeps no samples and no value-index entries unless the
 * operator allows it ({@link Allowance#SAMPLES}, {@link Allowance#VALUE_INDEX}). Recognised by a text type and either
 * a name that says so ({@code body}, {@code notes}, {@code comment}, {@code description}, {@code message}, in five
 * languages too) unless every sample is a word or two (a label), or samples that read as prose (five words or more,
 * mostly lower case: not titles or lists of names). A column with listed labels (an ENUM) is never free text; a kind
 * or status of a message ({@code message_type}) is not the message.
 */
public final class FreeText {

    private static final Set<String> WORDS = Set.of("body", "note", "notes", "comment", "comments", "description",
            "message", "memo", "narrative", "feedback", "transcript",
            "complaint", "diary", "journal", "bemerkung", "notiz", "kommentar", "nachricht", "beschreibung", "nota",
            "notas", "comentario", "observacion", "observaciones", "mensaje", "descripcion", "commentaire",
            "observation", "remarque", "commento", "messaggio", "descrizione", "osservazioni", "mensagem",
            "descricao", "observacoes", "observacao");
    /** Last words that make the column something about the text: its kind, status, length, language or key. */
    private static final Set<String> ABOUT = Set.of("type", "kind", "status", "state", "code", "id", "key", "format",
            "lang", "language", "count", "length", "len", "hash", "url", "at", "date", "flag", "template", "category");
    private static final int PROSE_WORDS = 5;

    private FreeText() {
    }

    public static boolean is(Column column) {
        if (TypeClass.of(column.dataType()) != TypeClass.TEXT || column.domain() != null && column.domain().listed()) {
            return false;
        }
        List<String> parts = PersonRoles.parts(column.name());
        if (parts.isEmpty() || ABOUT.contains(parts.get(parts.size() - 1))) {
            return false;
        }
        boolean named = parts.stream().anyMatch(p -> WORDS.contains(p) || WORDS.contains(p + "s") || WORDS.contains(p + "es"));
        return named && !labels(column.samples()) || prose(column.samples());
    }

    /**
     * Most samples (at least two) read as sentences: five words or more, most of them after the first in lower case.
     * Titles ("For Those About To Rock") and lists of names ("Steven Tyler, Joe Perry") are capitalised, not prose.
     */
    static boolean prose(List<String> samples) {
        long prose = samples.stream().filter(FreeText::sentence).count();
        return samples.size() >= 2 && prose * 2 > samples.size();
    }

    private static boolean sentence(String s) {
        String[] words = s.strip().split("\\s+");
        if (words.length < PROSE_WORDS) {
            return false;
        }
        long lower = Arrays.stream(words).skip(1).filter(w -> !w.isEmpty() && Character.isLowerCase(w.charAt(0))).count();
        return lower * 2 >= words.length - 1;
    }

    /**
     * Every sample (two at least) a word or two: a "description" that holds labels ({@code region_description}:
     * Eastern, Westboro) is a name of something, not text someone wrote.
     */
    static boolean labels(List<String> samples) {
        return samples.size() >= 2 && samples.stream().allMatch(s -> s.strip().split("\\s+").length <= 2);
    }
}
