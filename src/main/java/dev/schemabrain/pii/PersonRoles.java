package dev.schemabrain.pii;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Column and table words that say who: role words naming people ({@code assignee}, {@code empfänger},
 * {@code destinatario}), and the words that mark a catalogue of published works and the public figures credited on
 * it. Words are matched accent-folded on the name's own parts (snake_case, camelCase), not the English split, so
 * {@code begünstigter} and {@code encarregado_educacao} are read as written.
 */
final class PersonRoles {

    /** Words naming a person by role. A role word lowers the bar for names in the samples; it never tags alone. */
    private static final Set<String> ROLES = Stream.of(
            // English
            "author", "owner", "assignee", "assigned", "recipient", "reporter", "requester", "requestor", "beneficiary",
            "kin", "approver", "referee", "umpire", "guardian", "executor", "executrix", "testator", "trustee", "heir",
            "witness", "signatory", "signer", "rep", "representative", "salesperson", "agent", "handler", "assessor",
            "adjuster", "inspector", "auditor", "reviewer", "editor", "investigator", "examiner", "interviewer",
            "interviewee", "recruiter", "candidate", "applicant", "claimant", "complainant", "plaintiff", "defendant",
            "respondent", "appellant", "petitioner", "surety", "guarantor", "cosigner", "nominee", "nominator", "mentor",
            "mentee", "tutor", "teacher", "instructor", "coach", "trainer", "pupil", "student", "learner", "attendee",
            "participant", "delegate", "speaker", "visitor", "guest", "host", "borrower", "lender", "landlord",
            "landlady", "tenant", "lessee", "lessor", "occupant", "resident", "adopter", "interpreter", "translator",
            "officiant", "celebrant", "deceased", "decedent", "informant", "keeper", "chair", "chairperson", "chairman",
            "steward", "enumerator", "captain", "pilot", "officer", "clinician", "physician", "doctor", "surgeon",
            "nurse", "midwife", "gp", "carer", "caregiver", "caretaker", "parent", "mother", "father", "spouse", "child",
            "patient", "customer", "client", "employee", "manager", "supervisor", "worker", "staff", "contractor",
            "buyer", "seller", "payee", "payer", "payor", "sender", "addressee", "consignor", "consignee", "courier",
            "driver", "rider", "player", "athlete", "member", "volunteer", "donor", "subscriber", "holder", "notary",
            "attorney", "lawyer", "solicitor", "barrister", "counsel", "advocate", "judge", "magistrate", "juror",
            "assistant", "colleague", "companion", "fiance", "fiancee", "bride", "groom", "couple", "widow", "victim",
            "suspect", "offender", "inmate", "detainee", "taker", "organiser", "organizer", "coordinator", "person",
            "individual", "submitter", "uploader", "verifier", "preparer", "initiator", "originator", "contact",
            // German
            "empfanger", "empfaenger", "begunstigter", "beguenstigter", "absender", "ansprechpartner", "besteller",
            "sachbearbeiter", "bearbeiter", "kunde", "mitarbeiter", "vertreter", "inhaber", "vormund",
            "erziehungsberechtigter", "verfasser", "autor", "zeuge", "mieter", "vermieter", "arzt", "erbe",
            "antragsteller", "verantwortlicher", "betreuer", "kontoinhaber", "fahrer", "lehrer", "schuler", "schueler",
            "teilnehmer", "bewohner", "pfleger",
            // Spanish
            "destinatario", "remitente", "beneficiario", "titular", "responsable", "solicitante", "paciente", "cliente",
            "apoderado", "fiador", "avalista", "propietario", "arrendatario", "inquilino", "encargado", "contacto",
            "representante", "testigo", "heredero", "conductor", "medico", "alumno", "empleado", "vendedor",
            "comprador", "asesor", "gestor", "tomador", "asegurado",
            // French
            "beneficiaire", "destinataire", "expediteur", "titulaire", "demandeur", "interlocuteur", "livreur",
            "client", "locataire", "proprietaire", "auteur", "temoin", "tuteur", "donneur", "mandataire", "heritier",
            "signataire", "referent", "gestionnaire", "conseiller", "vendeur", "acheteur", "medecin", "eleve",
            "salarie", "employe", "redacteur", "rapporteur", "garant", "assure",
            // Italian
            "mittente", "referente", "intestatario", "richiedente", "responsabile", "paziente", "autore", "tutore",
            "erede", "locatario", "proprietario", "firmatario", "testimone", "incaricato", "dipendente", "venditore",
            "acquirente", "relatore", "compilatore",
            // Portuguese
            "remetente", "responsavel", "herdeiro", "testemunha", "requerente", "aluno", "funcionario", "signatario")
            .collect(Collectors.toUnmodifiableSet());
    /** Roles that are always a person, so the word tags even without samples (no team is a next of kin). */
    private static final Set<String> ALWAYS_A_PERSON = Set.of("kin", "beneficiary", "guardian", "executor", "testator",
            "heir", "deceased", "decedent", "spouse", "begunstigter", "beguenstigter", "vormund", "erbe",
            "erziehungsberechtigter", "beneficiario", "beneficiaire", "heritier", "heredero", "herdeiro", "erede",
            "tutore");
    /** Roles that before "name" are not a person's: host_name is a machine's, chair_name a piece of furniture's. */
    private static final Set<String> NOT_BEFORE_NAME = Set.of("host", "chair", "keeper", "officer", "contact", "person",
            "couple", "taker");

    /**
     * Public figures as credited on a catalogue of works. Evidence for "names of public figures, not contact data":
     * a table named by one of these words, linked by a key to a table of works, holding nothing else about the
     * person; or a credit column with one of these words on a table of works that holds nothing about people.
     */
    static final Set<String> PUBLIC_FIGURES = Set.of("actor", "actress", "artist", "author", "composer", "director",
            "performer", "band", "singer", "musician", "writer", "poet", "novelist", "painter", "sculptor",
            "illustrator", "narrator", "conductor", "songwriter", "lyricist", "playwright", "screenwriter", "filmmaker",
            "cast", "orchestra", "choir", "ensemble", "translator", "photographer", "starring", "featuring");
    /**
     * Works a catalogue lists. Not "issue", "item" or "work": issue trackers and work items have authors who are
     * colleagues, not public figures.
     */
    static final Set<String> WORKS = Set.of("film", "movie", "album", "track", "song", "book", "title", "product",
            "release", "recording", "artwork", "episode", "show", "series", "edition", "catalog", "catalogue",
            "playlist", "painting", "exhibition", "concert", "performance", "programme", "program", "gig", "lot",
            "video", "composition", "piece", "podcast", "game", "opera", "play", "publication", "novel", "single");

    private PersonRoles() {
    }

    /** The name's own parts, accent-folded and singular: {@code NextOfKin} → next, of, kin. */
    static List<String> parts(String name) {
        List<String> out = new ArrayList<>();
        String spaced = name.replaceAll("(\\p{Ll})(\\p{Lu})", "$1 $2");
        for (String p : PersonNames.fold(spaced).split("[^\\p{L}]+")) {
            if (!p.isEmpty()) {
                out.add(singular(p));
            }
        }
        return out;
    }

    static boolean role(List<String> parts) {
        return parts.stream().anyMatch(ROLES::contains) || !parts.isEmpty() && parts.get(parts.size() - 1).equals("by");
    }

    /** The last word only: {@code beneficiary_type} and {@code guardian_relationship} are about the person. */
    static boolean alwaysAPerson(List<String> parts) {
        return !parts.isEmpty() && ALWAYS_A_PERSON.contains(parts.get(parts.size() - 1));
    }

    /** A role word that makes the following {@code name} a person's ({@code testator_name}). */
    static boolean qualifiesName(String word) {
        String w = singular(PersonNames.fold(word));
        return ROLES.contains(w) && !NOT_BEFORE_NAME.contains(w);
    }

    /**
     * A table of works: named for works ({@code books}, {@code Track}), not for something about them
     * ({@code film_reviews}, whose authors are customers).
     */
    static boolean works(String tableName) {
        return lastIn(tableName, WORKS);
    }

    /** A key-linked table that shows the link to works: a table of works, or a join of works and figures. */
    static boolean linksToWorks(String tableName) {
        List<String> p = parts(tableName);
        return works(tableName) || p.stream().anyMatch(WORKS::contains)
                && (PUBLIC_FIGURES.contains(p.get(p.size() - 1)) || p.get(p.size() - 1).equals("credit"));
    }

    static boolean lastIn(String name, Set<String> words) {
        List<String> p = parts(name);
        return !p.isEmpty() && words.contains(p.get(p.size() - 1));
    }

    private static String singular(String w) {
        if (w.length() > 4 && w.endsWith("ies") && !w.equals("series") && !w.equals("movies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        return w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w;
    }
}
