package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Phrase matching of question words against stored values, and its guards. */
class ValueIndexTest {

    private static Table table(String name, String column, List<String> values) {
        return new Table(QualifiedName.of("s", name), TableKind.TABLE, null, null,
                List.of(new Column(column, 1, "text", true, null, null, List.of(), values)), List.of(), List.of(), List.of(), null);
    }

    private static final List<Table> TABLES = List.of(
            table("genre", "name", List.of("Metal", "Heavy Metal", "Bossa Nova", "Rock")),
            table("playlist", "name", List.of("Heavy Metal Classic", "Music")),
            table("invoice", "billing_city", List.of("Köln", "São Paulo", "Stuttgart")),
            table("track", "composer", List.of("Steven Tyler, Joe Perry", "AC/DC")));

    private static ValueIndex index() {
        return new ValueIndex(TABLES, List.of(Set.of("genre", "name"), Set.of("playlist", "name"),
                Set.of("invoice", "billing", "city"), Set.of("track", "composer", "music")));
    }

    private static List<String> values(String question) {
        return index().match(question).stream().map(m -> m.holder().value()).toList();
    }

    @Test
    void matchesWholePhrasesCaseAndAccentInsensitivelyLongestFirst() {
        assertAll(() -> assertEquals(List.of("Heavy Metal"), values("average price of heavy metal tracks")),
                () -> assertEquals(List.of("Köln"), values("invoices billed to KOLN")),
                () -> assertEquals(List.of("São Paulo"), values("sales in sao paulo?")),
                () -> assertEquals(List.of("Bossa Nova"), values("Bossa-Nova songs")),
                () -> assertEquals(List.of(), values("nova scotia invoices")));
    }

    @Test
    void anItemOfAListValueMatchesAndOnlyThatItemIsShown() {
        assertEquals(List.of("Steven Tyler"), values("songs written by Steven Tyler"));
    }

    @Test
    void commonWordsAndTheSchemasOwnWordsDoNotMatchAlone() {
        // "music" is a word of the schema's names; "the" is a stop word; "metal" is a fine value.
        assertAll(() -> assertEquals(List.of(), values("which music is the most popular")),
                () -> assertEquals(List.of("Metal"), values("metal albums")));
    }

    @Test
    void aQuestionThatIsAValueListMatchesNothing() {
        String list = "Metal Rock Bossa Nova Stuttgart Köln São Paulo Heavy Metal Classic";
        assertEquals(List.of(), values(list));
        // The same values two at a time are fine: the guard is about lists, not about values.
        assertEquals(2, values("Rock in Stuttgart").size());
    }

    @Test
    void hostileQuestionsAreBounded() {
        String huge = String.join(" ", IntStream.range(0, 5000).mapToObj(i -> "word" + i).toList()) + " stuttgart";
        String control = "invoices in Stutt\u0000gart\u202e";
        assertAll(() -> assertEquals(List.of(), values(huge), "words past the bound are not read"),
                () -> assertTrue(values(control).isEmpty(), "a control character splits the word"));
    }
}
