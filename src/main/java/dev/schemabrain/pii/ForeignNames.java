package dev.schemabrain.pii;

import dev.schemabrain.catalog.TypeClass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Name rules for column names in German, Spanish, French, Portuguese and Italian (version 6). The English rules read
 * a name through the English splitter, which cuts {@code correo_electronico} into "correo electro nico" and leaves
 * {@code geburtsdatum} whole; these rules read the name's own parts, accent-folded and singular
 * ({@link PersonRoles#parts}), with the small words of those languages dropped ({@code date_de_naissance} →
 * date naissance). Romance phrases match whole parts; German compounds match a stem inside a part
 * ({@code vorerkrankungen}, {@code schwerbehinderung}, {@code reisepassnummer}). Words that are also common English or
 * generic words ({@code nombre}, {@code portable}, {@code cap}, {@code genre}, {@code rg}) fire only on a table of
 * people. See docs/pii-blind-v6.md for the blind set these were checked against.
 */
final class ForeignNames {

    private record Phrase(PiiCategory category, List<String> parts) {
    }

    private static final Set<String> SMALL_WORDS = Set.of("de", "da", "do", "di", "del", "della", "du", "des", "d",
            "la", "le", "el", "lo", "y", "e", "et", "der", "die", "das");

    private static List<Phrase> rule(PiiCategory category, String... phrases) {
        return Arrays.stream(phrases).map(p -> new Phrase(category, List.of(p.split("_")))).toList();
    }

    /** Romance (and a few German) words and phrases, matched on whole parts; longest first. */
    private static final List<Phrase> PHRASES = Stream.of(
            rule(PiiCategory.CONTACT, "vorname", "nachname", "familienname", "geburtsname", "rufname",
                    "nombre_completo", "nome_completo", "nom_complet", "nom_famille", "nome_proprio", "apellido",
                    "primer_apellido", "segundo_apellido", "sobrenome", "apelido", "cognome", "prenom",
                    "direccion", "domicilio", "calle", "adresse", "anschrift", "endereco", "morada", "indirizzo",
                    "codigo_postal", "code_postal", "codice_postale", "cep", "plz", "postleitzahl",
                    "telefono", "telefone", "telefon", "movil", "celular", "cellulare", "telemovel",
                    "correo", "correo_electronico", "courriel", "correio_eletronico", "strasse", "hausnummer"),
            rule(PiiCategory.DEMOGRAPHIC_PROTECTED, "fecha_nacimiento", "date_naissance", "data_nascimento",
                    "data_nascita", "lugar_nacimiento", "lieu_naissance", "luogo_nascita", "local_nascimento",
                    "naturalidade", "sexo", "sexe", "sesso", "geschlecht", "nacionalidad", "nationalite",
                    "nazionalita", "nacionalidade", "cittadinanza", "ciudadania", "cidadania", "citoyennete",
                    "estado_civil", "situation_familiale", "stato_civile", "familienstand", "religione",
                    "religiao", "konfession", "raza", "raca", "etnia", "ethnie", "discapacidad", "handicap",
                    "disabilita", "deficiencia", "minusvalia", "edad", "idade"),
            rule(PiiCategory.FINANCIAL, "sueldo", "salario", "salaire", "stipendio", "retribuzione", "remuneracion",
                    "remuneration", "remuneracao", "ordenado", "renda", "revenu", "reddito", "gehalt", "lohn",
                    "einkommen", "numero_cuenta", "cuenta_bancaria", "conto_corrente", "compte_bancaire", "rib",
                    "conta_bancaria", "irpf", "quotient_familial", "steuerklasse"),
            rule(PiiCategory.HEALTH, "diagnostico", "diagnosi", "diagnose", "enfermedad", "maladie",
                    "malattia", "doenca", "alergia", "allergie", "allergia", "medicamento", "medicament",
                    "medicamenti", "farmaco", "farmaci", "tratamiento", "traitement", "tratamento", "trattamento",
                    "terapia", "therapie", "grupo_sanguineo", "groupe_sanguin", "gruppo_sanguigno", "tipo_sanguineo",
                    "historia_clinica", "dossier_medical", "cartella_clinica", "prontuario", "embarazada", "embarazo",
                    "grossesse", "gravidanza", "gravidez", "lesion", "lesione", "lesiones", "lesao", "blessure",
                    "medica", "medicale"),
            rule(PiiCategory.GOVERNMENT_ID, "pasaporte", "passeport", "passaporto", "passaporte",
                    "numero_seguridad_social", "seguridad_social", "numero_securite_sociale", "nss", "tessera_sanitaria",
                    "carta_identita", "carte_identite", "cedula", "cni", "numero_documento", "num_documento",
                    "carnet_conducir", "permis_conduire", "numero_permis", "steuerliche_idnr",
                    "steuer_idnr", "sv_nummer", "sv_nr", "codice_fiscale", "cod_fisc", "cod_fiscale"),
            rule(PiiCategory.CREDENTIAL, "passwort", "kennwort", "contrasena", "mot_passe", "senha", "parola_ordine"),
            rule(PiiCategory.ONLINE_IDENTIFIER, "nombre_usuario", "nom_utilisateur", "nome_utente", "nome_usuario",
                    "direccion_ip", "adresse_ip", "indirizzo_ip", "endereco_ip", "ip_adresse", "benutzername"))
            .flatMap(List::stream).sorted(Comparator.comparingInt((Phrase p) -> -p.parts().size())).toList();

    /** German compound stems, found inside a part ({@code bruttolohn}, {@code krankheitstage}); folded, no umlauts. */
    private static final List<Phrase> STEMS = Stream.of(
            rule(PiiCategory.CONTACT, "nachname", "vorname", "telefon", "handynummer", "mobilnummer", "emailadresse",
                    "strasse", "postleitzahl", "wohnadresse", "lieferadresse", "privatadresse"),
            rule(PiiCategory.DEMOGRAPHIC_PROTECTED, "geburtsdatum", "geburtstag", "geburtsort", "geburtsjahr",
                    "staatsangehorigkeit", "staatsangehoerigkeit", "nationalitat", "behinderung"),
            rule(PiiCategory.FINANCIAL, "gehalt", "bruttolohn", "nettolohn", "stundenlohn", "kontonummer",
                    "bankverbindung", "einkommen"),
            rule(PiiCategory.HEALTH, "krankheit", "erkrankung", "diagnose", "medikament", "allergie", "blutgruppe",
                    "behandlung", "schwangerschaft", "versichertennummer", "arbeitsunfahigkeit"),
            rule(PiiCategory.GOVERNMENT_ID, "personalausweis", "ausweisnummer", "reisepass", "fuhrerschein",
                    "fuehrerschein", "sozialversicherung", "burgerservicenummer", "sofinummer"),
            rule(PiiCategory.CREDENTIAL, "passwort", "kennwort"))
            .flatMap(List::stream).toList();

    /** Words that name something else on other tables: a product's {@code nombre}, a laptop's {@code portable}. */
    private static final List<Phrase> ON_PERSON_TABLES = Stream.of(
            rule(PiiCategory.CONTACT, "name", "nombre", "nom", "nome", "portable", "cap"),
            rule(PiiCategory.DEMOGRAPHIC_PROTECTED, "genre", "genero", "alter"),
            rule(PiiCategory.GOVERNMENT_ID, "rg"))
            .flatMap(List::stream).toList();

    /** A name word followed by one of these is a person's name: {@code nome_inquilino}, {@code nom_responsable_legal}. */
    private static final Set<String> NAME_WORDS = Set.of("nombre", "nom", "nome");
    private static final Set<String> NOT_A_PERSON_AFTER_NAME = Set.of("producto", "produit", "prodotto", "produto",
            "articulo", "article", "articolo", "artigo", "empresa", "entreprise", "azienda", "societe", "societa",
            "fichier", "archivo", "file", "ficheiro", "piece", "pieza", "pezzo", "peca", "campo", "champ", "tabla",
            "table", "tabella", "tabela", "fantasia", "comercial", "commercial", "commerciale", "ruta", "route",
            "rota", "strada", "ville", "ciudad", "citta", "cidade", "pais", "pays", "paese", "marca", "marque",
            "categoria", "categorie", "calle", "rue", "via", "rua");
    /** Tables of people in these languages, singular and folded as {@link PersonRoles#parts} gives them. */
    private static final Set<String> PERSON_TABLES = Set.of("patient", "patienten", "mitarbeiter", "kunde", "kunden",
            "mieter", "person", "personen", "mitglied", "mitglieder", "schuler", "schueler", "bewerber", "paciente",
            "empleado", "cliente", "socio", "alumno", "usuario", "huesped", "huespede", "eleve", "adherent",
            "locataire", "employe", "salarie", "client", "aluno", "inquilino", "funcionario", "utilizador", "ospiti",
            "ospite", "pazienti", "dipendenti", "studenti", "clienti", "utenti", "soci", "inquilini", "alunni",
            "iscritti", "candidato", "candidati", "candidat", "beneficiario", "colaborador", "trabajador", "travailleur",
            "lavoratori", "residente", "resident", "viajero", "passager", "passeggeri", "passageiro");
    /** German words that look like an English rule and are not: a Personalnummer is a staff number. */
    private static final Set<String> FALSE_FRIENDS = Set.of("personalnummer", "personalnr");
    /** First words that make the column a kind or count of the thing: {@code tipo_documento}, {@code anzahl_…}. */
    private static final Set<String> ABOUT_FIRST = Set.of("tipo", "type", "typ", "art", "anzahl", "cantidad",
            "quantite", "quantidade", "nivel", "niveau", "livello", "id", "fk");

    private ForeignNames() {
    }

    /**
     * Adds what the column's own parts say. A boolean keeps only a protected trait or a health fact (as the English
     * flag guard does); a key ({@code id_empleado}) or a kind ({@code tipo_documento}) adds nothing.
     */
    static void apply(String columnName, String tableName, TypeClass type, Set<PiiCategory> categories,
                      Set<String> reasons) {
        String folded = PersonNames.fold(columnName).replace("ß", "ss");
        if (FALSE_FRIENDS.contains(folded.replace("_", ""))) {
            categories.remove(PiiCategory.GOVERNMENT_ID);
            reasons.removeIf(r -> r.equals("name:personal_number"));
            return;
        }
        List<String> parts = new ArrayList<>(PersonRoles.parts(folded));
        parts.removeIf(SMALL_WORDS::contains);
        // A document's number (reisepass_nr, sv_nr) is the document's; a person's number (patienten_nr) is a key.
        boolean numbered = parts.size() > 1 && parts.get(parts.size() - 1).equals("nr");
        if (numbered) {
            List<String> document = parts.subList(0, parts.size() - 1);
            List<Phrase> ids = PHRASES.stream().filter(p -> p.category() == PiiCategory.GOVERNMENT_ID).toList();
            EnumSet<PiiCategory> found = EnumSet.noneOf(PiiCategory.class);
            List<String> why = new ArrayList<>();
            match(parts, ids, new boolean[parts.size()], found, why);
            match(document, ids, new boolean[document.size()], found, why);
            for (Phrase stem : STEMS) {
                if (stem.category() == PiiCategory.GOVERNMENT_ID
                        && document.stream().anyMatch(p -> p.contains(stem.parts().get(0)))) {
                    found.add(stem.category());
                    why.add("name:" + stem.parts().get(0));
                }
            }
            categories.addAll(found);
            reasons.addAll(why);
        }
        if (parts.isEmpty() || parts.size() > 1 && (ABOUT_FIRST.contains(parts.get(0))
                || Set.of("id", "fk", "nr").contains(parts.get(parts.size() - 1)))) {
            return;
        }
        EnumSet<PiiCategory> found = EnumSet.noneOf(PiiCategory.class);
        List<String> why = new ArrayList<>();
        boolean[] covered = new boolean[parts.size()];
        boolean personTable = personTable(tableName);
        match(parts, PHRASES, covered, found, why);
        if (personTable && parts.size() == 1) {
            match(parts, ON_PERSON_TABLES, covered, found, why);
        }
        for (int i = 0; i < parts.size(); i++) {
            if (covered[i]) {
                continue;
            }
            for (Phrase stem : STEMS) {
                String s = stem.parts().get(0);
                if (parts.get(i).contains(s) && !parts.get(i).startsWith("ip") && !parts.get(i).startsWith("web")) {
                    covered[i] = true;
                    found.add(stem.category());
                    why.add("name:" + s);
                    break;
                }
            }
        }
        int name = firstNameWord(parts);
        if (name >= 0 && !covered[name] && name + 1 < parts.size() && !covered[name + 1]
                && !NOT_A_PERSON_AFTER_NAME.contains(parts.get(name + 1))
                && (PersonRoles.qualifiesName(parts.get(name + 1)) || PERSON_TABLES.contains(parts.get(name + 1))
                    || parts.get(name + 1).equals("legal") || parts.size() > name + 2
                        && PersonRoles.qualifiesName(parts.get(name + 2)))) {
            found.add(PiiCategory.CONTACT);
            why.add("name:person_name");
        }
        if (type == TypeClass.BOOLEAN) {
            found.retainAll(EnumSet.of(PiiCategory.DEMOGRAPHIC_PROTECTED, PiiCategory.HEALTH));
        }
        if (!found.isEmpty()) {
            categories.addAll(found);
            reasons.addAll(why);
        }
    }

    private static int firstNameWord(List<String> parts) {
        for (int i = 0; i < parts.size(); i++) {
            if (NAME_WORDS.contains(parts.get(i))) {
                return i;
            }
        }
        return -1;
    }

    private static void match(List<String> parts, List<Phrase> phrases, boolean[] covered, Set<PiiCategory> found,
                              List<String> why) {
        for (Phrase p : phrases) {
            int n = p.parts().size();
            for (int i = 0; i + n <= parts.size(); i++) {
                if (!parts.subList(i, i + n).equals(p.parts()) || allCovered(covered, i, n)) {
                    continue;
                }
                Arrays.fill(covered, i, i + n, true);
                found.add(p.category());
                why.add("name:" + String.join("_", p.parts()));
            }
        }
    }

    private static boolean allCovered(boolean[] covered, int from, int n) {
        for (int i = from; i < from + n; i++) {
            if (!covered[i]) {
                return false;
            }
        }
        return true;
    }

    /** A table of people named in one of these languages. */
    static boolean personTable(String tableName) {
        if (tableName == null) {
            return false;
        }
        List<String> p = PersonRoles.parts(tableName);
        return !p.isEmpty() && PERSON_TABLES.contains(p.get(p.size() - 1));
    }
}
