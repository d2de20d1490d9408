package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameSyntaxTest {

    private static List<String> parts(String input, int min, int max) {
        NameSyntax.Result result = NameSyntax.parse(input, min, max);
        return assertInstanceOf(NameSyntax.Parts.class, result, () -> input + " → " + result).parts();
    }

    private static String problem(String input, int min, int max) {
        NameSyntax.Result result = NameSyntax.parse(input, min, max);
        return assertInstanceOf(NameSyntax.Problem.class, result, () -> input + " → " + result).message();
    }

    @Test
    void acceptsPlainParts() {
        assertEquals(List.of("public", "album"), parts("public.album", 1, 2));
        assertEquals(List.of("album"), parts("album", 1, 2));
        assertEquals(List.of("_x", "A$1", "col_9"), parts("_x.A$1.col_9", 3, 3));
        assertEquals(List.of("public", "album"), parts("  public.album \n", 2, 2), "surrounding whitespace is ignored");
    }

    @Test
    void rejectsPartsBreakingTheRule() {
        assertEquals("'Album Title' is not a valid name: each part must start with a letter or underscore and "
                + "contain only letters, digits, _ or $.", problem("Album Title", 1, 2));
        for (String bad : List.of("1album", "public.1album", "al-bum", "$album", "public.al bum", "é", "a;drop",
                "public.album'", "ab\"c\"")) {
            assertTrue(problem(bad, 1, 2).contains("each part must start with a letter or underscore"), bad);
        }
    }

    @Test
    void rejectsEmptyParts() {
        for (String bad : List.of("public..album", ".album", "album.", ".")) {
            assertTrue(problem(bad, 1, 3).contains("empty part"), bad);
        }
        assertTrue(problem("", 1, 2).startsWith("name is empty"));
        assertTrue(problem("   ", 1, 2).startsWith("name is empty"));
        assertTrue(problem(null, 1, 2).startsWith("name is empty"));
    }

    @Test
    void checksThePartCount() {
        assertEquals("expected schema.table, got 'album'", problem("album", 2, 2));
        assertTrue(problem("a.b.c", 1, 2).startsWith("expected schema.table or table"));
        assertTrue(problem("album", 2, 3).startsWith("expected schema.table.column or table.column"));
        assertTrue(problem("a.b.c.d", 2, 3).startsWith("expected schema.table.column"));
        assertTrue(problem("a.b", 1, 1).startsWith("expected schema"));
        assertThrows(IllegalArgumentException.class, () -> NameSyntax.parse("a", 2, 1));
    }

    @Test
    void enforcesThe63CharacterPartLimit() {
        String max = "a".repeat(63);
        assertEquals(List.of("s", max), parts("s." + max, 2, 2));
        String message = problem("s." + max + "b", 2, 2);
        assertTrue(message.contains("longer than 63 characters"), message);
        assertEquals(List.of("s", "x".repeat(63)), parts("s.\"" + "x".repeat(63) + "\"", 2, 2));
        assertTrue(problem("s.\"" + "x".repeat(64) + "\"", 2, 2).contains("longer than 63 characters"));
    }

    @Test
    void enforcesThe512CharacterInputLimit() {
        // 8 parts of 63 characters and 7 dots: 511 characters, within the limit.
        String longest = String.join(".", java.util.Collections.nCopies(8, "a".repeat(63)));
        assertEquals(511, longest.length());
        assertEquals(8, parts(longest, 1, 8).size());
        assertEquals("name is longer than 512 characters", problem(longest + ".ab", 1, 9));
        assertEquals("name is longer than 512 characters", problem("x".repeat(100_000), 1, 2));
    }

    @Test
    void quotedPartsAddressNamesThatBreakTheRule() {
        assertEquals(List.of("public", "Order Details"), parts("public.\"Order Details\"", 2, 2));
        assertEquals(List.of("Order Details"), parts("\"Order Details\"", 1, 2));
        assertEquals(List.of("my.schema", "1st table", "price ($)"), parts("\"my.schema\".\"1st table\".\"price ($)\"", 3, 3));
        assertEquals(List.of("public", "album"), parts("\"public\".album", 2, 2));
        assertTrue(problem("public.\"Order Details", 2, 2).contains("quoted part is not closed"));
        assertTrue(problem("public.\"\"", 2, 2).contains("quoted part is empty"));
        assertTrue(problem("public.\"Order\"Details", 2, 2).contains("must be followed by '.'"));
        assertTrue(problem("public.\"Order\".", 2, 2).contains("empty part"));
    }

    @Test
    void neverEchoesMoreThan64CharactersOfTheInput() {
        String huge = "bad name " + "z".repeat(400);
        String message = problem(huge, 1, 2);
        assertTrue(message.contains("'" + huge.substring(0, 64) + "…'"), message);
        assertFalse(message.contains(huge.substring(0, 65)), message);
        assertTrue(message.length() < 200, message);

        String tooManyParts = String.join(".", java.util.Collections.nCopies(40, "abcdefghij"));
        String countMessage = problem(tooManyParts, 1, 2);
        assertTrue(countMessage.endsWith(tooManyParts.substring(0, 64) + "…'"), countMessage);

        String longPart = problem("s." + "q".repeat(300), 2, 2);
        assertFalse(longPart.contains("q".repeat(65)), longPart);
    }

    @Test
    void rendersNamesSoTheyParseBack() {
        assertEquals("public.album", NameSyntax.render(QualifiedName.of("public", "album")));
        assertEquals("public.\"Order Details\"", NameSyntax.render(QualifiedName.of("public", "Order Details")));
        assertEquals("dbo.\"Order Details\".\"Unit Price\"",
                NameSyntax.render(QualifiedName.of("dbo", "Order Details"), "Unit Price"));
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
