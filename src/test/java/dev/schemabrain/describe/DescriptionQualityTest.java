package dev.schemabrain.describe;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.embed.WordVocabulary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No offline description of any table or column of the sample databases (Chinook, Northwind, Pagila, Sakila, the
 * demo database, the Spider dev schemas) reads wrong in a known way (issue 18), and the checks themselves catch
 * the sentences the issue quoted.
 */
class DescriptionQualityTest {

    @Test
    void noDescriptionOfTheSampleDatabasesHasABrokenPattern() throws Exception {
        List<DescriptionCorpus.Described> all = DescriptionCorpus.all();
        List<String> broken = new ArrayList<>();
        for (DescriptionCorpus.Described d : all) {
            BrokenPatterns.problems(d.where(), d.text()).forEach(p -> broken.add(d.corpus() + " " + d.where() + ": " + p));
        }
        assertTrue(all.size() > 1_000, "every column of the sample databases: " + all.size());
        assertEquals(List.of(), broken);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "public.orders | Each orders belongs to a customers and a employees.",
            "public.products.discontinued | The discontinued of the products, a number.",
            "public.shippers.shipper_id | The ship per id uniquely identifies each shippers record.",
            "main.plans.is_public | The is public of the plans, a number.",
            "main.subscriptions | The sub script ions table records status.",
            "public.customer_customer_demo | The customer customer demo table links customers.",
            "public.customer | Each customer belongs to a address.",
            "public.rental | Each rental belongs to an store."})
    void theChecksCatchTheSentencesTheIssueQuoted(String where, String sentence) {
        assertFalse(BrokenPatterns.problems(where, sentence).isEmpty(), sentence);
    }

    @Test
    void hostileNamesGiveCleanSentences() {
        String huge = "order_" + "x".repeat(10_000);
        List<Column> columns = List.of(column("\u540d\u524d"), column("\u0007bell\u202Eevil_at\u0000"),
                column("\u0001\u200B"), column(huge), column("is_"), column("__"));
        Table t = new Table(QualifiedName.of("s", "\u8868"),
                TableKind.TABLE, 1L, null, columns, List.of(), List.of(), List.of(), null);
        TableDocuments d = new OfflineDescriber(new Words(WordVocabulary.get().words()))
                .describe(new Catalog(List.of(t))).get(0);
        List<String> sentences = new ArrayList<>(List.of(d.description().text()));
        d.columns().forEach(c -> sentences.add(c.description().text()));
        for (String s : sentences) {
            assertTrue(s.codePoints().noneMatch(cp -> Character.isISOControl(cp) || Character.getType(cp) == Character.FORMAT), s);
            assertTrue(s.length() < 11_000 && s.endsWith("."), s);
            assertEquals(List.of(), BrokenPatterns.problems("s.x", s), s);
        }
        assertEquals("The \u540d\u524d of the \u8868, text.", d.columns().get(0).description().text());
        assertEquals("The unnamed value of the \u8868, text.", d.columns().get(2).description().text());
    }

    private static Column column(String name) {
        return new Column(name, 1, "text", true, null, null, List.of());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"shipper_id, shipper id", "subscriptions, subscriptions", "countrylanguage, country language",
            "passwordhash, password hash", "categories, categories"})
    void wholeWordsWithAnEndingStayWhole(String identifier, String phrase) {
        assertEquals(phrase, new Words(WordVocabulary.get().words()).phrase(identifier));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"orders, order", "order details, order detail", "categories, category", "addresses, address",
            "statuses, status", "people, person", "movies, movie", "boxes, box", "staff, staff", "purchases, purchase",
            "status, status", "series, series"})
    void singulars(String plural, String singular) {
        assertEquals(singular, new Nouns(WordVocabulary.get().words()).singular(plural));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"employee, an employee", "user, a user", "hour, an hour", "order, an order", "customer, a customer",
            "unit, a unit", "item, an item"})
    void articles(String noun, String withArticle) {
        assertEquals(withArticle, Nouns.withArticle(noun));
    }
}
