package dev.schemabrain.pii;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 29: what samples, values and comments of untagged columns may carry ({@link ChannelPolicy}, {@link FreeText}). */
class ChannelPolicyTest {

    private static Column text(String name, String... samples) {
        return new Column(name, 1, "text", true, null, null, List.of(samples), List.of(samples), null);
    }

    @Test
    void freeTextIsRecognisedByItsNameOrItsProseButNotByItsKind() {
        assertTrue(FreeText.is(text("body", "ok")));
        assertTrue(FreeText.is(text("manager_notes", "fine")));
        assertTrue(FreeText.is(text("bemerkung", "ok")));
        assertTrue(FreeText.is(text("extra", "She told me her husband left last week",
                "Asked for two days off for the funeral", "ok")), "prose under any name");
        assertFalse(FreeText.is(text("message_type", "sms", "email")));
        assertFalse(FreeText.is(text("city", "New York", "Rio de Janeiro")));
        assertFalse(FreeText.is(text("title", "For Those About To Rock (We Salute You)", "Let There Be Rock Live")),
                "titles are capitalised, not prose");
        assertFalse(FreeText.is(text("region_description", "Eastern", "Westboro")), "a description holding labels");
        assertFalse(FreeText.is(new Column("notes", 1, "integer", true, null, null, List.of("3"), List.of(), null)));
        assertFalse(FreeText.is(new Column("comment", 1, "enum('a','b')", true, null, null, List.of("a"), List.of("a"),
                new Domain(Domain.Kind.ENUM, null, List.of("a", "b")))), "listed labels are no free text");
    }

    @Test
    void personTablesKeepOnlyLabelledValuesFreeTextNothingAndCommentsAreRedacted() {
        QualifiedName patient = QualifiedName.of("public", "patient");
        TableBuilder b = new TableBuilder(patient, TableKind.TABLE, 10L, "Owner dpo@example.com", null);
        b.addColumn(new Column("last_name", 1, "text", true, null, null, List.of(), List.of(), null));
        b.addColumn(new Column("alias", 2, "text", true, null, "Ask jane.roe@example.com, SSN 219-09-9999",
                List.of("Quartermaine"), List.of("Quartermaine"), null));
        b.addColumn(new Column("status", 3, "enum", true, null, null, List.of("active"), List.of("active"),
                new Domain(Domain.Kind.ENUM, "status", List.of("active", "left"))));
        b.addColumn(text("notes", "Disclosed an HIV diagnosis"));
        b.addColumn(text("comments", "Disclosed a pregnancy"));
        Table table = b.build();
        PiiTags tags = new PiiTags(List.of(new PiiTags.Entry(patient, "last_name",
                PiiTag.of(Set.of(PiiCategory.CONTACT), List.of("name:last_name")), PiiTags.Origin.HEURISTIC)), List.of())
                .withAllowances(Map.of(patient, Map.of("comments", Set.of(Allowance.SAMPLES, Allowance.VALUE_INDEX))));
        Table out = ChannelPolicy.apply(new Catalog(List.of(table)), tags).tables().get(0);
        assertEquals("Owner <email>", out.comment());
        assertEquals("Ask <email>, SSN <national id>", out.column("alias").orElseThrow().comment());
        assertEquals(List.of(), out.column("alias").orElseThrow().values(), "a person table's names are not indexed");
        assertEquals(List.of("Quartermaine"), out.column("alias").orElseThrow().samples(), "its samples follow the tags");
        assertEquals(List.of("active"), out.column("status").orElseThrow().values(), "ENUM labels stay");
        assertEquals(List.of(), out.column("notes").orElseThrow().samples(), "free text keeps no samples");
        assertEquals(List.of(), out.column("notes").orElseThrow().values());
        assertEquals(List.of("Disclosed a pregnancy"), out.column("comments").orElseThrow().samples(), "allowed");
        assertEquals(List.of("Disclosed a pregnancy"), out.column("comments").orElseThrow().values(), "allowed");
    }
}
