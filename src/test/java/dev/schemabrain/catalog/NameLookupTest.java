package dev.schemabrain.catalog;

import dev.schemabrain.catalog.NameLookup.Ambiguous;
import dev.schemabrain.catalog.NameLookup.ColumnResult;
import dev.schemabrain.catalog.NameLookup.Malformed;
import dev.schemabrain.catalog.NameLookup.NotFound;
import dev.schemabrain.catalog.NameLookup.SchemaResult;
import dev.schemabrain.catalog.NameLookup.TableResult;
import dev.schemabrain.testing.TestCatalogs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameLookupTest {

    /**
     * Two schemas sharing {@code customer}; {@code Sales.Orders} only differs in case from a bare
     * lookup; {@code crm.Lead} and {@code crm.lead} differ only in case; and a name that needs quotes.
     */
    private static final NameLookup SMALL = new NameLookup(new Catalog(List.of(
            table("public.album").columns("album_id", "title:text", "artist_id").pk("album_id").build(),
            table("public.artist").columns("artist_id", "name:text").pk("artist_id").build(),
            table("public.customer").columns("customer_id", "email:text", "Email:text").pk("customer_id").build(),
            table("public.invoice_line").columns("invoice_line_id", "unit_price:numeric").pk("invoice_line_id").build(),
            table("sales.customer").columns("id", "name:text").pk("id").build(),
            table("Sales.Orders").columns("OrderId", "CustomerName:text").pk("OrderId").build(),
            table("crm.Lead").columns("id").build(),
            table("crm.lead").columns("id").build(),
            table("public.Order Details").columns("Unit Price:numeric", "quantity").build())));

    private static NameLookup demo;

    @BeforeAll
    static void demoCatalog(@TempDir Path dir) throws Exception {
        demo = new NameLookup(TestCatalogs.demo(dir));
    }

    private static Table found(TableResult result) {
        return assertInstanceOf(TableResult.Found.class, result, result::toString).table();
    }

    private static ColumnResult.Found foundColumn(ColumnResult result) {
        return assertInstanceOf(ColumnResult.Found.class, result, result::toString);
    }

    // ------------------------------------------------------------------ tables

    /** Qualified names resolve exactly, then case-insensitively; bare names when unique. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "public.album, public.album,",
            "PUBLIC.Album, public.album,",
            "sales.orders, Sales.Orders, 'sales and Sales are different schemas, but only one holds an orders table'",
            "crm.Lead, crm.Lead,",
            "crm.lead, crm.lead,",
            "album, public.album,",
            "ALBUM, public.album,",
            "orders, Sales.Orders,",
            "Lead, crm.Lead, the exact spelling wins"})
    void namesResolveExactlyThenCaseInsensitivelyAndBareWhenUnique(String input, String expected, String why) {
        assertEquals(qn(expected), found(SMALL.resolveTable(input)).name(), why);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "CRM.LEAD, crm.Lead crm.lead",
            "customer, public.customer sales.customer",
            "Customer, public.customer sales.customer",
            "LEAD, crm.Lead crm.lead"})
    void namesMatchingSeveralTablesAreAmbiguous(String input, String candidates) {
        Ambiguous ambiguous = assertInstanceOf(Ambiguous.class, SMALL.resolveTable(input));
        assertEquals(Arrays.stream(candidates.split(" ")).map(TestCatalogs::qn).toList(), ambiguous.candidates());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"public.\"Order Details\"", "\"order details\""})
    void quotedNamesReachTablesThatBreakTheRule(String input) {
        assertEquals(qn("public.Order Details"), found(SMALL.resolveTable(input)).name());
    }

    @Test
    void aSuggestionForATableThatBreaksTheRuleIsQuoted() {
        NotFound notFound = assertInstanceOf(NotFound.class, SMALL.resolveTable("public.OrderDetails"));
        assertEquals("public.\"Order Details\"", notFound.fuzzyMatches().get(0), "rendered so it can be sent back");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "albums, public.album",
            "public.albm, public.album",
            "invoiceline, public.invoice_line",
            "pubic.album, public.album"})
    void unknownTablesComeWithSuggestions(String input, String best) {
        assertEquals(best, notFound(SMALL.resolveTable(input)).get(0));
    }

    @Test
    void anUnknownTableLikeNothingHasNoSuggestions() {
        assertEquals(List.of(), notFound(SMALL.resolveTable("zzzzqqq")));
    }

    @Test
    void anUnknownTableLikeTwoTablesSuggestsBoth() {
        assertTrue(notFound(SMALL.resolveTable("custmer")).containsAll(List.of("public.customer", "sales.customer")));
    }

    @Test
    void suggestionsAreAtMostThree() {
        assertTrue(notFound(SMALL.resolveTable("album_art")).size() <= 3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "Album Title, '''Album Title'' is not a valid name'",
            "a.b.c, expected schema.table or table"})
    void malformedTableNames(String input, String problem) {
        String message = malformed(SMALL.resolveTable(input));
        assertTrue(message.startsWith(problem), message);
    }

    @Test
    void aTooLongTableNameIsMalformed() {
        assertEquals("name is longer than 512 characters", malformed(SMALL.resolveTable("a".repeat(600))));
    }

    // ------------------------------------------------------------------ columns

    @Test
    void aColumnResolvesWithItsTable() {
        ColumnResult.Found title = foundColumn(SMALL.resolveColumn("public.album.title"));
        assertAll(() -> assertEquals(qn("public.album"), title.table().name()),
                () -> assertEquals("title", title.column().name()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "album.title, title",
            "ALBUM.Title, title",
            "orders.orderid, OrderId",
            "\"Order Details\".\"unit price\", Unit Price",
            "public.customer.email, email",
            "public.customer.Email, Email"})
    void columnsResolveByQualifiedOrBareTable(String input, String column) {
        assertEquals(column, foundColumn(SMALL.resolveColumn(input)).column().name());
    }

    @Test
    void anUnknownColumnComesWithSuggestionsFromItsTable() {
        ColumnResult.UnknownColumn unknown = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("album.titel"));
        assertAll(() -> assertEquals(qn("public.album"), unknown.table().name()),
                () -> assertEquals("titel", unknown.column()),
                () -> assertEquals("public.album.title", unknown.fuzzyMatches().get(0)),
                () -> assertTrue(unknown.fuzzyMatches().size() <= 3));
    }

    @Test
    void anUnknownColumnLikeNothingHasNoSuggestions() {
        ColumnResult.UnknownColumn garbage = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("public.album.zzzzqqq"));
        assertEquals(List.of(), garbage.fuzzyMatches());
    }

    @Test
    void columnsDifferingOnlyInCaseAreOfferedNotGuessedBetween() {
        ColumnResult.UnknownColumn caseTwins = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("public.customer.EMAIL"));
        assertEquals(List.of("public.customer.Email", "public.customer.email"), caseTwins.fuzzyMatches(),
                "columns differing only in case are offered, not guessed between");
    }

    @Test
    void aColumnOfAnAmbiguousTableIsAmbiguous() {
        assertInstanceOf(Ambiguous.class, SMALL.resolveColumn("customer.email"));
    }

    @Test
    void aColumnOfAnUnknownTableComesWithTableSuggestions() {
        assertEquals("public.album", notFound(SMALL.resolveColumn("albums.title")).get(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "album, expected schema.table.column",
            "a.b.c.d, expected schema.table.column",
            "album.1title, is not a valid name",
            "public.album, names the table public.album"})
    void malformedColumnNames(String input, String problem) {
        String message = malformed(SMALL.resolveColumn(input));
        assertTrue(message.contains(problem), message);
    }

    // ------------------------------------------------------------------ schemas

    @ParameterizedTest(name = "{0}")
    @CsvSource({"public, public", "PUBLIC, public", "CRM, crm"})
    void schemasResolveCaseInsensitively(String input, String schema) {
        assertEquals(schema, assertInstanceOf(SchemaResult.Found.class, SMALL.resolveSchema(input)).schema());
    }

    @Test
    void aSchemaMatchingTwoInCaseIsAmbiguous() {
        assertEquals(List.of("Sales", "sales"),
                assertInstanceOf(SchemaResult.Ambiguous.class, SMALL.resolveSchema("SALES")).candidates());
    }

    @Test
    void anUnknownSchemaComesWithSuggestions() {
        assertEquals("public", notFound(SMALL.resolveSchema("pubic")).get(0));
    }

    @Test
    void anUnknownSchemaLikeNothingHasNoSuggestions() {
        assertEquals(List.of(), notFound(SMALL.resolveSchema("zzzzqqq")));
    }

    @Test
    void aSchemaNameWithADotIsMalformed() {
        assertTrue(malformed(SMALL.resolveSchema("public.album")).startsWith("expected schema"));
    }

    @Test
    void schemasAreListedInOrder() {
        assertEquals(List.of("Sales", "crm", "public", "sales"), SMALL.schemas());
    }

    // ------------------------------------------------------------------ the demo database

    @ParameterizedTest(name = "{0}")
    @CsvSource({"team_members, main.team_members", "main.USERS, main.users"})
    void demoTablesResolve(String input, String expected) {
        assertEquals(qn(expected), found(demo.resolveTable(input)).name());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "user, main.users",
            "invoice_lineitems, main.invoice_line_items",
            "support_ticket, main.support_tickets"})
    void demoTablesAreSuggested(String input, String best) {
        assertEquals(best, notFound(demo.resolveTable(input)).get(0));
    }

    @Test
    void demoTableLikeNothingHasNoSuggestions() {
        assertEquals(List.of(), notFound(demo.resolveTable("zzzzqqq")));
    }

    @Test
    void demoColumnResolvesWithItsType() {
        ColumnResult.Found email = foundColumn(demo.resolveColumn("users.email"));
        assertEquals("TEXT", email.column().dataType());
    }

    @Test
    void demoColumnIsSuggested() {
        ColumnResult.UnknownColumn unknown = assertInstanceOf(ColumnResult.UnknownColumn.class,
                demo.resolveColumn("main.invoices.total"));
        assertEquals("main.invoices.total_cents", unknown.fuzzyMatches().get(0));
    }

    @Test
    void demoSchemaResolves() {
        assertEquals("main", assertInstanceOf(SchemaResult.Found.class, demo.resolveSchema("main")).schema());
    }

    private static List<String> notFound(Object result) {
        return assertInstanceOf(NotFound.class, result, result::toString).fuzzyMatches();
    }

    private static String malformed(Object result) {
        return assertInstanceOf(Malformed.class, result, result::toString).problem();
    }
}
