package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules version 5 added: people's names under names that do not say so, and public figures of catalogues. */
class PiiClassifierV5Test {

    private static final Set<PiiCategory> CONTACT = Set.of(PiiCategory.CONTACT);

    private static Set<PiiCategory> tag(String table, String column, String type, String... samples) {
        return PiiClassifier.classify(column, type, List.of(samples), table, null).categories();
    }

    @Test
    void roleWordsWithPeoplesNamesAreContact() {
        assertEquals(CONTACT, tag("articles", "author", "text", "Ngozi Eze", "Tom Becker", "Li Na"));
        assertEquals(CONTACT, tag("tickets", "assignee", "text", "Priya Raman", "Chen Jing"));
        assertEquals(CONTACT, tag("bugs", "reporter", "text", "Okafor, Chidi", "Lindgren, Elsa"));
        assertEquals(CONTACT, tag("letters", "recipient", "text", "Mrs. P. Henderson", "Mr. A. Osei"));
        assertEquals(CONTACT, tag("policies", "next_of_kin", "text", "Eleanor Pendleton (wife)", "Miguel Delgado (son)"));
        assertEquals(CONTACT, tag("deliveries", "signed_by", "text", "J. SMITH", "M. OKAFOR"));
        assertEquals(CONTACT, tag("vertraege", "empfänger", "text", "Müller, Hans", "Katharina Weber"));
        assertEquals(CONTACT, tag("envios", "destinatario", "text", "María José Quintero", "Javier Ortega Ruiz"));
        assertEquals(CONTACT, tag("virements", "bénéficiaire", "text", "Dupont, Marie", "SCI Les Tilleuls", "Antoine Roux"));
        assertEquals(CONTACT, tag("deals", "sales_rep", "text", "Marcus Johnson", "Ewa Nowak"));
        assertEquals(CONTACT, tag("claims", "beneficiary", "text"), "no samples: a beneficiary is always a person");
        assertEquals(CONTACT, tag("estates", "testator_name", "text"), "a role before name makes it a person's name");
    }

    @Test
    void roleWordsWithoutPeopleAreNotTagged() {
        assertEquals(Set.of(), tag("issues", "created_by", "integer", "1042", "877"));
        assertEquals(Set.of(), tag("pages", "created_by", "text", "7c9e6679-7425-40de-944b-e07fc1f90ae7", "550e8400-e29b-41d4-a716-446655440000"));
        assertEquals(CONTACT, tag("pages", "created_by", "text", "ann@corp.example", "raj@corp.example"), "an e-mail is contact");
        assertEquals(Set.of(), tag("services", "owner", "text", "Platform Team", "Payments Squad", "Data Engineering"));
        assertEquals(Set.of(), tag("requests", "owner", "text", "Facilities", "IT Operations", "Marketing"));
        assertEquals(Set.of(), tag("envios", "responsable", "text", "Equipo Norte", "Equipo Sur"));
        assertEquals(Set.of(), tag("alerts", "recipient", "text", "all-staff", "#incidents", "oncall-primary"));
        assertEquals(Set.of(), tag("orders", "vendor", "text", "Staples Inc", "Siemens AG", "Vini Sardi S.p.A."));
        assertEquals(Set.of(), tag("tickets", "author", "text"), "no samples: an author may be a team");
        assertEquals(Set.of(), tag("tickets", "assignee_id", "text", "Priya Raman"), "a key");
        assertEquals(Set.of(), tag("servers", "host_name", "text"), "a host's name is a machine's");
        assertEquals(Set.of(), tag("claims", "beneficiary_type", "text"), "about the beneficiary, not the beneficiary");
    }

    @Test
    void namesAloneNeedStrongEvidence() {
        assertEquals(CONTACT, tag("import", "col_3", "text", "Samantha Greene", "Mohammed Al-Sayed", "Yuki Watanabe"));
        assertEquals(CONTACT, tag("export", "field_07", "text", "GARCIA, LUIS", "O'NEILL, SIOBHAN", "KIM, MIN-JUN"));
        assertEquals(Set.of(), tag("import", "col_4", "text", "Acme Ltd", "Globex GmbH", "Initech LLC"));
        assertEquals(Set.of(), tag("ref", "city", "text", "San Jose", "Santa Clara", "Buenos Aires"));
        assertEquals(Set.of(), tag("ref", "team", "text", "Real Madrid", "Boston Celtics", "Manchester United"));
        assertEquals(Set.of(), tag("ref", "dept", "text", "Human Resources", "Customer Success"));
        assertEquals(Set.of(), tag("bands", "headliner", "text", "The National", "Arctic Monkeys", "Rosalía"));
        assertEquals(Set.of(), tag("songs", "lyric", "text", "love me do", "hey jude"));
    }

    @Test
    void valueShapes() {
        assertEquals(PersonNames.Shape.STRONG, PersonNames.shape("Dr. Amara Nwosu"));
        assertEquals(PersonNames.Shape.STRONG, PersonNames.shape("Laura and Ben Whitfield"));
        assertEquals(PersonNames.Shape.STRONG, PersonNames.shape("Nguyen Thi Lan"));
        assertEquals(PersonNames.Shape.STRONG, PersonNames.shape("A. B. Okafor"));
        assertEquals(PersonNames.Shape.WEAK, PersonNames.shape("Desmond Clarke"), "an unknown given name is only weak");
        assertEquals(PersonNames.Shape.NONE, PersonNames.shape("Kwame Mensah 07700 900123"));
        assertEquals(PersonNames.Shape.NONE, PersonNames.shape("Harbour Lettings Ltd"));
        assertEquals(PersonNames.Shape.NONE, PersonNames.shape("Allen & Overy"));
        assertEquals(PersonNames.Shape.NONE, PersonNames.shape("EMEA Enterprise"));
    }

    private static Table table(String name, List<String[]> columns, String... foreignKeyTargets) {
        TableBuilder b = new TableBuilder(new QualifiedName("public", name), TableKind.TABLE, null, null, null);
        int i = 1;
        for (String[] c : columns) {
            b.addColumn(new Column(c[0], i++, c[1], true, null, null, List.of(c).subList(2, c.length), List.of()));
        }
        for (String target : foreignKeyTargets) {
            b.addForeignKeyColumn(name + "_" + target + "_fk", target + "_id", new QualifiedName("public", target), target + "_id");
        }
        return b.build();
    }

    private static Set<PiiCategory> tag(Table t, String column, List<String> linkedFrom) {
        PiiClassifier.TableContext context = PiiClassifier.TableContext.of(t, linkedFrom);
        Column c = t.columns().stream().filter(x -> x.name().equals(column)).findFirst().orElseThrow();
        return PiiClassifier.classify(t, c, context).categories();
    }

    @Test
    void publicFiguresOfACatalogueAreNotContact() {
        List<String[]> actorColumns = List.of(new String[]{"actor_id", "integer"},
                new String[]{"first_name", "text", "PENELOPE", "NICK"}, new String[]{"last_name", "text", "GUINESS", "WAHLBERG"},
                new String[]{"last_update", "timestamp"});
        Table actor = table("actor", actorColumns);
        assertEquals(Set.of(), tag(actor, "last_name", List.of("film_actor")), "Pagila/Sakila: actors of a film catalogue");
        assertEquals(CONTACT, tag(actor, "last_name", List.of()), "no link to works: an actor of an audit log is a user");
        assertEquals(CONTACT, PiiClassifier.classify(actor, actor.columns().get(2), PiiClassifier.TableContext.of(actor, List.of())).categories(),
                "without incoming keys the table alone shows no link");

        List<String[]> withEmail = new ArrayList<>(actorColumns);
        withEmail.add(new String[]{"email", "text"});
        assertEquals(CONTACT, tag(table("actor", withEmail), "last_name", List.of("film_actor")),
                "an e-mail on the table: the people are contacts, not credits");

        Table artist = table("Artist", List.of(new String[]{"ArtistId", "integer"}, new String[]{"Name", "varchar", "AC/DC", "Accept"}));
        assertEquals(Set.of(), tag(artist, "Name", List.of("Album")));
        Table track = table("Track", List.of(new String[]{"TrackId", "integer"}, new String[]{"Name", "varchar"},
                new String[]{"Composer", "varchar", "Angus Young, Malcolm Young, Brian Johnson", "Steven Tyler, Joe Perry"},
                new String[]{"UnitPrice", "numeric"}), "Album");
        assertEquals(Set.of(), tag(track, "Composer", List.of("PlaylistTrack", "InvoiceLine")), "Chinook: a track's composer is a credit");
        assertEquals(CONTACT, tag("Track", "Composer", "varchar", "Angus Young, Malcolm Young, Brian Johnson", "Steven Tyler, Joe Perry"),
                "without the table's context the names are names");

        Table customer = table("customer", List.of(new String[]{"customer_id", "integer"}, new String[]{"first_name", "text"},
                new String[]{"last_name", "text"}), "store");
        assertEquals(CONTACT, tag(customer, "first_name", List.of("rental", "payment")), "customers stay contact");

        Table books = table("books", List.of(new String[]{"isbn", "text"}, new String[]{"title", "text"},
                new String[]{"author", "text", "Haruki Murakami", "Chimamanda Ngozi Adichie"}));
        assertEquals(Set.of(), tag(books, "author", List.of()), "a book's author in a product catalogue");
        Table manuscripts = table("manuscripts", List.of(new String[]{"title", "text"},
                new String[]{"author", "text", "Mariana Okoye", "Declan Fitzgerald"}, new String[]{"author_email", "text"}));
        assertEquals(CONTACT, tag(manuscripts, "author", List.of()), "a submitting author is a private person");
        Table reviews = table("film_reviews", List.of(new String[]{"film_id", "integer"},
                new String[]{"author", "text", "Mariana Okoye", "Declan Fitzgerald"}, new String[]{"body", "text"}));
        assertEquals(CONTACT, tag(reviews, "author", List.of()), "a review's author is a customer, not a credit");
    }

    @Test
    void publicFigureCatalogueHelper() {
        assertTrue(PiiClassifier.publicFigureCatalogue("actor", List.of("actor_id", "first_name", "last_name"), List.of("film_actor")));
        assertTrue(PiiClassifier.publicFigureCatalogue("composers", List.of("id", "name"), List.of("recordings")));
        assertFalse(PiiClassifier.publicFigureCatalogue("actor", List.of("actor_id", "first_name", "birth_date"), List.of("film_actor")));
        assertFalse(PiiClassifier.publicFigureCatalogue("performers", List.of("id", "name", "phone"), List.of("gigs")));
        assertFalse(PiiClassifier.publicFigureCatalogue("employees", List.of("id", "first_name"), List.of("films")));
        assertFalse(PiiClassifier.publicFigureCatalogue("actors", List.of("id", "display_name"), List.of("audit_events")));
        assertFalse(PiiClassifier.publicFigureCatalogue("performers", List.of("id", "name", "address_id"), List.of("recordings")),
                "a key to an address is personal too");
        assertFalse(PiiClassifier.publicFigureCatalogue("authors", List.of("id", "name"), List.of("book_reviews")),
                "reviews of books are not the books");
    }
}
