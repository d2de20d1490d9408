package dev.schemabrain.index;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.pii.PiiTags;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The index run sees incoming keys: Pagila's actor is linked to films only through film_actor's keys. */
class PiiStagePublicFigureTest {

    private static Table table(String name, List<String> columns, String... targets) {
        TableBuilder b = new TableBuilder(new QualifiedName("public", name), TableKind.TABLE, null, null, null);
        int i = 1;
        for (String c : columns) {
            b.addColumn(new Column(c, i++, c.endsWith("_id") ? "integer" : "text", true, null, null, List.of(), List.of()));
        }
        for (String t : targets) {
            b.addForeignKeyColumn(name + "_" + t + "_fk", t + "_id", new QualifiedName("public", t), t + "_id");
        }
        return b.build();
    }

    @Test
    void actorsOfAFilmCatalogueAreUntaggedCustomersAreNot() {
        Catalog pagila = new Catalog(List.of(
                table("actor", List.of("actor_id", "first_name", "last_name")),
                table("film", List.of("film_id", "title")),
                table("film_actor", List.of("actor_id", "film_id"), "actor", "film"),
                table("customer", List.of("customer_id", "first_name", "last_name", "email"))));
        Set<String> tagged = PiiStage.classify(pagila, List.of(), List.of(), Map.of()).heuristic().stream()
                .map(PiiTags.Entry::qualifiedColumn).collect(Collectors.toSet());
        assertEquals(Set.of("public.customer.first_name", "public.customer.last_name", "public.customer.email"), tagged);
    }
}
