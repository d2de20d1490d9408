package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NameSyntaxTest {

    private static List<String> parts(String input, int min, int max) {
        NameSyntax.Result result = NameSyntax.parse(input, min, max);
        return assertInstanceOf(NameSyntax.Parts.class, result, () -> input + " → " + result).parts();
    }

    private static String problem(String input, int min, int max) {
        NameSyntax.Result result = NameSyntax.parse(input, min, max);
        return assertInstanceOf(NameSyntax.Problem.class, result, () -> input + " → " + result).message();
    }

    /** Plain parts, and quoted parts that address names breaking the rule. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void acceptsPlainAndQuotedParts(String input, int min, int max, List<String> expected) {
        assertEquals(expected, parts(input, min, max));
    }

    static Stream<Arguments> acceptsPlainAndQuotedParts() {
        return Stream.of(
                arguments("public.album", 1, 2, List.of("public", "album")),
                arguments("album", 1, 2, List.of("album")),
                arguments("_x.A$1.col_9", 3, 3, List.of("_x", "A$1", "col_9")),
                arguments("  public.album \n", 2, 2, List.of("public", "album")),   // surrounding whitespace is ignored
                arguments("public.\"Order Details\"", 2, 2, List.of("public", "Order Details")),
                arguments("\"Order Details\"", 1, 2, List.of("Order Details")),
                arguments("\"my.schema\".\"1st table\".\"price ($)\"", 3, 3, List.of("my.schema", "1st table", "price ($)")),
                arguments("\"public\".album", 2, 2, List.of("public", "album")));
    }

    @Test
    void aPartBreakingTheRuleIsExplained() {
        assertEquals("'Album Title' is not a valid name: each part must start with a letter or underscore and "
                + "contain only letters, digits, _ or $.", problem("Album Title", 1, 2));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"1album", "public.1album", "al-bum", "$album", "public.al bum", "é", "a;drop",
            "public.album'", "ab\"c\""})
    void rejectsPartsBreakingTheRule(String bad) {
        assertTrue(problem(bad, 1, 2).contains("each part must start with a letter or underscore"), bad);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"public..album", ".album", "album.", "."})
    void rejectsEmptyParts(String bad) {
        assertTrue(problem(bad, 1, 3).contains("empty part"), bad);
    }

    @ParameterizedTest(name = "[{0}]")
    @NullSource
    @ValueSource(strings = {"", "   "})
    void rejectsAnEmptyName(String empty) {
        assertTrue(problem(empty, 1, 2).startsWith("name is empty"));
    }

    @Test
    void aMissingSchemaIsNamed() {
        assertEquals("expected schema.table, got 'album'", problem("album", 2, 2));
    }

    @ParameterizedTest(name = "{0} in {1}..{2}")
    @CsvSource({
            "a.b.c, 1, 2, expected schema.table or table",
            "album, 2, 3, expected schema.table.column or table.column",
            "a.b.c.d, 2, 3, expected schema.table.column",
            "a.b, 1, 1, expected schema"})
    void checksThePartCount(String input, int min, int max, String expected) {
        assertTrue(problem(input, min, max).startsWith(expected));
    }

    @Test
    void aPartCountRangeThatIsEmptyIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> NameSyntax.parse("a", 2, 1));
    }

    @Test
    void acceptsAPartOf63Characters() {
        String max = "a".repeat(63);
        assertEquals(List.of("s", max), parts("s." + max, 2, 2));
    }

    @Test
    void rejectsAPartOf64Characters() {
        String message = problem("s." + "a".repeat(63) + "b", 2, 2);
        assertTrue(message.contains("longer than 63 characters"), message);
    }

    @Test
    void acceptsAQuotedPartOf63Characters() {
        assertEquals(List.of("s", "x".repeat(63)), parts("s.\"" + "x".repeat(63) + "\"", 2, 2));
    }

    @Test
    void rejectsAQuotedPartOf64Characters() {
        assertTrue(problem("s.\"" + "x".repeat(64) + "\"", 2, 2).contains("longer than 63 characters"));
    }

    @Test
    void enforcesThe512CharacterInputLimit() {
        // 8 parts of 63 characters and 7 dots: 511 characters, within the limit.
        String longest = String.join(".", Collections.nCopies(8, "a".repeat(63)));
        assertEquals(511, longest.length());
        assertEquals(8, parts(longest, 1, 8).size());
    }

    @Test
    void rejectsAnInputOneBeyondTheLimitOf512Characters() {
        String longest = String.join(".", Collections.nCopies(8, "a".repeat(63)));
        assertEquals("name is longer than 512 characters", problem(longest + ".ab", 1, 9));
    }

    @Test
    void rejectsAHugeInput() {
        assertEquals("name is longer than 512 characters", problem("x".repeat(100_000), 1, 2));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "public.\"Order Details | quoted part is not closed",
            "public.\"\"             | quoted part is empty",
            "public.\"Order\"Details | must be followed by '.'",
            "public.\"Order\".       | empty part"})
    void badlyQuotedPartsAreExplained(String input, String problem) {
        assertTrue(problem(input, 2, 2).contains(problem));
    }

    @Test
    void neverEchoesMoreThan64CharactersOfTheInput() {
        String huge = "bad name " + "z".repeat(400);
        String message = problem(huge, 1, 2);
        assertAll(() -> assertTrue(message.contains("'" + huge.substring(0, 64) + "…'"), message),
                () -> assertFalse(message.contains(huge.substring(0, 65)), message),
                () -> assertTrue(message.length() < 200, message));
    }

    @Test
    void aPartCountProblemEchoesAtMost64Characters() {
        String tooManyParts = String.join(".", Collections.nCopies(40, "abcdefghij"));
        String countMessage = problem(tooManyParts, 1, 2);
        assertTrue(countMessage.endsWith(tooManyParts.substring(0, 64) + "…'"), countMessage);
    }

    @Test
    void aLongPartProblemEchoesAtMost64Characters() {
        String longPart = problem("s." + "q".repeat(300), 2, 2);
        assertFalse(longPart.contains("q".repeat(65)), longPart);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "public | album                | public.album",
            "public | Order Details        | public.\"Order Details\""})
    void rendersTableNamesQuotedWhereNeeded(String schema, String table, String rendered) {
        assertEquals(rendered, NameSyntax.render(QualifiedName.of(schema, table)));
    }

    @Test
    void rendersAColumnNameQuotedWhereNeeded() {
        assertEquals("dbo.\"Order Details\".\"Unit Price\"",
                NameSyntax.render(QualifiedName.of("dbo", "Order Details"), "Unit Price"));
    }

    @Test
    void rendersNamesSoTheyParseBack() {
        String rendered = NameSyntax.render(List.of("a b", "c", "9d"));
        assertEquals(List.of("a b", "c", "9d"), parts(rendered, 3, 3));
    }

    @Test
    void excerptDoesNotSplitASurrogatePair() {
        String text = "a".repeat(63) + "😀" + "tail";
        String cut = NameSyntax.excerpt(text);
        assertEquals("a".repeat(63) + "…", cut);
    }
}
