package dev.schemabrain.pii;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Version 6: column names in German, Spanish, French, Portuguese and Italian (issue 29 item 10). */
class PiiClassifierV6Test {

    private static Set<PiiCategory> tag(String table, String column, String type, String... samples) {
        return PiiClassifier.classify(column, type, List.of(samples), table, null).categories();
    }

    @Test
    void theIssuesColumnsAreTagged() {
        assertEquals(Set.of(PiiCategory.FINANCIAL), tag("mitarbeiter", "gehalt", "numeric", "4200.00"));
        assertEquals(Set.of(PiiCategory.HEALTH), tag("patienten", "krankheit", "text", "HIV", "Asthma"));
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("kunden", "geburtsdatum", "date"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("kunden", "nachname", "text"));
        assertEquals(Set.of(PiiCategory.FINANCIAL), tag("empleados", "sueldo", "numeric"));
        assertEquals(Set.of(PiiCategory.HEALTH), tag("pacientes", "diagnostico", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("clientes", "nombre_completo", "text"));
    }

    @Test
    void eachLanguageTagsItsCommonFields() {
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("eleves", "date_de_naissance", "date"));
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("ospiti", "passaporto", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("alunos", "endereco", "text"));
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("adherents", "mot_de_passe", "text"));
        assertEquals(Set.of(PiiCategory.ONLINE_IDENTIFIER), tag("dipendenti", "nome_utente", "text"));
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("mitarbeiter", "reisepassnummer", "text"));
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("mitarbeiter", "schwerbehinderung", "boolean"));
    }

    @Test
    void namesOfThingsAndKeysAreNotPeople() {
        assertEquals(Set.of(), tag("productos", "nombre", "text", "Rioja Crianza"));
        assertEquals(Set.of(), tag("fromages", "nom_produit", "text"));
        assertEquals(Set.of(), tag("logements", "nombre_pieces", "integer", "2"));
        assertEquals(Set.of(), tag("empleados", "id_empleado", "integer"));
        assertEquals(Set.of(), tag("ospiti", "tipo_documento", "text", "passaporto"));
        assertEquals(Set.of(), tag("mitarbeiter", "personalnummer", "text", "P-0042"));
        assertEquals(Set.of(), tag("pets", "diagnosis", "text"));
        assertEquals(Set.of(), tag("patienten", "krankenkasse", "text", "AOK"));
    }
}
