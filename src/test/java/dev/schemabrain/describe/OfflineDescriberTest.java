package dev.schemabrain.describe;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.embed.WordVocabulary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline describer: words from identifiers, one sentence per table and column, comments first. */
class OfflineDescriberTest {

    private static final Words WORDS = new Words(WordVocabulary.get().words());

    private static Column column(String name, String type, String comment, String... samples) {
        return new Column(name, 1, type, true, null, comment, List.of(samples));
    }

    private static Table table(String name, List<Column> columns, List<String> pk, List<ForeignKey> fks, String comment) {
        return new Table(QualifiedName.of("shop", name), TableKind.TABLE, 10L, comment, columns, pk, fks, List.of(), null);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "custAddr, customer address,",
            "CUST_ADDR, customer address,",
            "order_qty2, order quantity 2,",
            "countrylanguage, country language, run-together words are split with the model's vocabulary",
            "xqzvbnmt, xqzvbnmt, a word no split explains stays whole"})
    void identifiersBecomeWords(String identifier, String phrase, String why) {
        assertEquals(phrase, WORDS.phrase(identifier), why);
    }

    @Test
    void camelCaseIsCutIntoPieces() {
        assertEquals(List.of("surface", "area"), Words.pieces("SurfaceArea"));
    }

    @Test
    void sentencesNameKeysTargetsJunctionsAndExamples() {
        Table customer = table("customer", List.of(column("id", "integer", null), column("full_name", "text", null, "Ada", "Linus"),
                column("email", "text", null, "<email>")), List.of("id"), List.of(), null);
        Table orders = table("orders", List.of(column("id", "integer", null), column("cust_id", "integer", null),
                        column("total_amt", "numeric", "Order total in cents, tax included")),
                List.of("id"), List.of(new ForeignKey("fk", List.of("cust_id"), customer.name(), List.of("id"))), null);
        Table tag = table("tag", List.of(column("id", "integer", null)), List.of("id"), List.of(), "Labels for orders");
        Table orderTag = table("order_tag", List.of(column("order_id", "integer", null), column("tag_id", "integer", null)),
                List.of("order_id", "tag_id"), List.of(new ForeignKey("a", List.of("order_id"), orders.name(), List.of("id")),
                        new ForeignKey("b", List.of("tag_id"), tag.name(), List.of("id"))), null);
        Map<String, TableDocuments> docs = new OfflineDescriber(WORDS).describe(new Catalog(List.of(customer, orders, tag, orderTag)))
                .stream().collect(Collectors.toMap(d -> d.table().table(), Function.identity()));

        TableDocuments o = docs.get("orders");
        assertAll(
                () -> assertEquals("The orders table records customer id, total amount. Each order belongs to a customer. Referenced by order tag.",
                        o.description().text()),
                () -> assertEquals(DescriptionOrigin.HEURISTIC, o.description().origin()),
                () -> assertEquals("The id uniquely identifies each order.", o.columns().get(0).description().text()),
                () -> assertEquals("The customer id of the order; refers to a customer (id).", o.columns().get(1).description().text()),
                () -> assertEquals(new Description("Order total in cents, tax included", DescriptionOrigin.DB_COMMENT),
                        o.columns().get(2).description(), "the database's comment wins"),
                () -> assertTrue(o.lexicalText().contains("total amount of the order, an amount") && o.lexicalText().contains("tax included"),
                        "the heuristic sentence and the comment are both searchable"),
                () -> assertEquals("orders customer id", o.columns().get(1).text()),
                () -> assertEquals("The full name of the customer, text; for example Ada, Linus.",
                        docs.get("customer").columns().get(1).description().text()),
                () -> assertEquals("The email of the customer, text.", docs.get("customer").columns().get(2).description().text(),
                        "redacted samples are not examples"),
                () -> assertEquals(DescriptionOrigin.DB_COMMENT, docs.get("tag").description().origin()),
                () -> assertTrue(docs.get("tag").tableText().endsWith("Labels for orders")),
                () -> assertEquals("The order tag table links orders and tag (many-to-many); joining through it multiplies rows.",
                        docs.get("order_tag").description().text()),
                () -> assertTrue(docs.get("order_tag").columns().get(0).description().text().endsWith("joining through it multiplies rows.")));
    }

    @Test
    void describingIsDeterministic() {
        Table t = table("invoice_line", List.of(column("invoice_line_id", "integer", null), column("unit_price", "numeric", null)),
                List.of("invoice_line_id"), List.of(), null);
        Catalog catalog = new Catalog(List.of(t));
        assertEquals(new OfflineDescriber(WORDS).describe(catalog), new OfflineDescriber(WORDS).describe(catalog));
    }
}
