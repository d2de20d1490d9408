package dev.schemabrain.catalog;

import dev.schemabrain.catalog.NameLookup.Ambiguous;
import dev.schemabrain.catalog.NameLookup.ColumnResult;
import dev.schemabrain.catalog.NameLookup.Malformed;
import dev.schemabrain.catalog.NameLookup.NotFound;
import dev.schemabrain.catalog.NameLookup.SchemaResult;
import dev.schemabrain.catalog.NameLookup.TableResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static dev.schemabrain.testing.TestCatalogs.table;
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
        demo = new NameLookup(dev.schemabrain.testing.TestCatalogs.demo(dir));
    }

    private static Table found(TableResult result) {
        return assertInstanceOf(TableResult.Found.class, result, result::toString).table();
    }

    private static ColumnResult.Found foundColumn(ColumnResult result) {
        return assertInstanceOf(ColumnResult.Found.class, result, result::toString);
    }

    // ------------------------------------------------------------------ tables

    @Test
    void qualifiedNamesResolveExactlyThenCaseInsensitively() {
        assertEquals(qn("public.album"), found(SMALL.resolveTable("public.album")).name());
        assertEquals(qn("public.album"), found(SMALL.resolveTable("PUBLIC.Album")).name());
        assertEquals(qn("Sales.Orders"), found(SMALL.resolveTable("sales.orders")).name(),
                "sales and Sales are different schemas, but only one holds an orders table");
        assertEquals(qn("crm.Lead"), found(SMALL.resolveTable("crm.Lead")).name());
        assertEquals(qn("crm.lead"), found(SMALL.resolveTable("crm.lead")).name());
        Ambiguous ambiguous = assertInstanceOf(Ambiguous.class, SMALL.resolveTable("CRM.LEAD"));
        assertEquals(List.of(qn("crm.Lead"), qn("crm.lead")), ambiguous.candidates());
    }

    @Test
    void bareNamesResolveWhenUnique() {
        assertEquals(qn("public.album"), found(SMALL.resolveTable("album")).name());
        assertEquals(qn("public.album"), found(SMALL.resolveTable("ALBUM")).name());
        assertEquals(qn("Sales.Orders"), found(SMALL.resolveTable("orders")).name());
        Ambiguous customer = assertInstanceOf(Ambiguous.class, SMALL.resolveTable("customer"));
        assertEquals(List.of(qn("public.customer"), qn("sales.customer")), customer.candidates());
        assertInstanceOf(Ambiguous.class, SMALL.resolveTable("Customer"));
        assertEquals(qn("crm.Lead"), found(SMALL.resolveTable("Lead")).name(), "the exact spelling wins");
        assertInstanceOf(Ambiguous.class, SMALL.resolveTable("LEAD"));
    }

    @Test
    void quotedNamesReachTablesThatBreakTheRule() {
        assertEquals(qn("public.Order Details"), found(SMALL.resolveTable("public.\"Order Details\"")).name());
        assertEquals(qn("public.Order Details"), found(SMALL.resolveTable("\"order details\"")).name());
        NotFound notFound = assertInstanceOf(NotFound.class, SMALL.resolveTable("public.OrderDetails"));
        assertEquals("public.\"Order Details\"", notFound.fuzzyMatches().get(0), "rendered so it can be sent back");
    }

    @Test
    void unknownTablesComeWithSuggestions() {
        assertEquals("public.album", notFound(SMALL.resolveTable("albums")).get(0));
        assertEquals("public.album", notFound(SMALL.resolveTable("public.albm")).get(0));
        assertEquals("public.invoice_line", notFound(SMALL.resolveTable("invoiceline")).get(0));
        assertEquals("public.album", notFound(SMALL.resolveTable("pubic.album")).get(0));
        assertEquals(List.of(), notFound(SMALL.resolveTable("zzzzqqq")));
        assertTrue(notFound(SMALL.resolveTable("custmer")).containsAll(List.of("public.customer", "sales.customer")));
        assertTrue(notFound(SMALL.resolveTable("album_art")).size() <= 3);
    }

    @Test
    void malformedTableNames() {
        assertTrue(malformed(SMALL.resolveTable("Album Title")).contains("is not a valid name"));
        assertTrue(malformed(SMALL.resolveTable("a.b.c")).startsWith("expected schema.table or table"));
        assertEquals("name is longer than 512 characters", malformed(SMALL.resolveTable("a".repeat(600))));
    }

    // ------------------------------------------------------------------ columns

    @Test
    void columnsResolveByQualifiedOrBareTable() {
        ColumnResult.Found title = foundColumn(SMALL.resolveColumn("public.album.title"));
        assertEquals(qn("public.album"), title.table().name());
        assertEquals("title", title.column().name());
        assertEquals("title", foundColumn(SMALL.resolveColumn("album.title")).column().name());
        assertEquals("title", foundColumn(SMALL.resolveColumn("ALBUM.Title")).column().name());
        assertEquals("OrderId", foundColumn(SMALL.resolveColumn("orders.orderid")).column().name());
        assertEquals("Unit Price", foundColumn(SMALL.resolveColumn("\"Order Details\".\"unit price\"")).column().name());
        assertEquals("email", foundColumn(SMALL.resolveColumn("public.customer.email")).column().name());
        assertEquals("Email", foundColumn(SMALL.resolveColumn("public.customer.Email")).column().name());
    }

    @Test
    void unknownColumnsComeWithSuggestionsFromTheirTable() {
        ColumnResult.UnknownColumn unknown = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("album.titel"));
        assertEquals(qn("public.album"), unknown.table().name());
        assertEquals("titel", unknown.column());
        assertEquals("public.album.title", unknown.fuzzyMatches().get(0));
        assertTrue(unknown.fuzzyMatches().size() <= 3);

        ColumnResult.UnknownColumn garbage = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("public.album.zzzzqqq"));
        assertEquals(List.of(), garbage.fuzzyMatches());

        ColumnResult.UnknownColumn caseTwins = assertInstanceOf(ColumnResult.UnknownColumn.class,
                SMALL.resolveColumn("public.customer.EMAIL"));
        assertEquals(List.of("public.customer.Email", "public.customer.email"), caseTwins.fuzzyMatches(),
                "columns differing only in case are offered, not guessed between");
    }

    @Test
    void columnLookupsReportTableProblems() {
        assertInstanceOf(Ambiguous.class, SMALL.resolveColumn("customer.email"));
        assertEquals("public.album", notFound(SMALL.resolveColumn("albums.title")).get(0));
        assertTrue(malformed(SMALL.resolveColumn("album")).contains("expected schema.table.column"));
        assertTrue(malformed(SMALL.resolveColumn("a.b.c.d")).contains("expected schema.table.column"));
        assertTrue(malformed(SMALL.resolveColumn("album.1title")).contains("is not a valid name"));
        String tableGiven = malformed(SMALL.resolveColumn("public.album"));
        assertTrue(tableGiven.contains("names the table public.album"), tableGiven);
    }

    // ------------------------------------------------------------------ schemas

    @Test
    void schemasResolveWithSuggestions() {
        assertEquals("public", assertInstanceOf(SchemaResult.Found.class, SMALL.resolveSchema("public")).schema());
        assertEquals("public", assertInstanceOf(SchemaResult.Found.class, SMALL.resolveSchema("PUBLIC")).schema());
        assertEquals("crm", assertInstanceOf(SchemaResult.Found.class, SMALL.resolveSchema("CRM")).schema());
        assertEquals(List.of("Sales", "sales"),
                assertInstanceOf(SchemaResult.Ambiguous.class, SMALL.resolveSchema("SALES")).candidates());
        assertEquals("public", notFound(SMALL.resolveSchema("pubic")).get(0));
        assertEquals(List.of(), notFound(SMALL.resolveSchema("zzzzqqq")));
        assertTrue(malformed(SMALL.resolveSchema("public.album")).startsWith("expected schema"));
        assertEquals(List.of("Sales", "crm", "public", "sales"), SMALL.schemas());
    }

    // ------------------------------------------------------------------ the demo database

    @Test
    void demoDatabase() {
        assertEquals(qn("main.team_members"), found(demo.resolveTable("team_members")).name());
        assertEquals(qn("main.users"), found(demo.resolveTable("main.USERS")).name());
        assertEquals("main.users", notFound(demo.resolveTable("user")).get(0));
        assertEquals("main.invoice_line_items", notFound(demo.resolveTable("invoice_lineitems")).get(0));
        assertEquals("main.support_tickets", notFound(demo.resolveTable("support_ticket")).get(0));
        assertEquals(List.of(), notFound(demo.resolveTable("zzzzqqq")));

        ColumnResult.Found email = foundColumn(demo.resolveColumn("users.email"));
        assertEquals("TEXT", email.column().dataType());
        ColumnResult.UnknownColumn unknown = assertInstanceOf(ColumnResult.UnknownColumn.class,
                demo.resolveColumn("main.invoices.total"));
        assertEquals("main.invoices.total_cents", unknown.fuzzyMatches().get(0));
        assertEquals("main", assertInstanceOf(SchemaResult.Found.class, demo.resolveSchema("main")).schema());
    }

    private static List<String> notFound(Object result) {
        return assertInstanceOf(NotFound.class, result, result::toString).fuzzyMatches();
    }

    private static String malformed(Object result) {
        return assertInstanceOf(Malformed.class, result, result::toString).problem();
    }
}
