package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Drafts a table's {@link SubjectClass} from its columns, their PII tags and its name.
 * <p>
 * Evidence, strongest first:
 * <ul>
 * <li>a person: a tagged structured person name (first/last/given/family name, surname, full name), a birth date,
 *     or a column tagged government_id, demographic_protected, health, genetic or biometric — data only a person
 *     has; or a table named for people (customer, employee, patient, …) that holds any tagged column;</li>
 * <li>an organisation: a legal or company name, a VAT or registration number, or a table named for organisations
 *     (supplier, shipper, store, branch, …) without person evidence. A contact person's name on it
 *     ({@code contact_name}) is a column to protect, not a reason to count the organisation as a person;</li>
 * <li>none otherwise: facts (payments, payslips, claims) are about a person they reference, not people
 *     themselves, so a payslip's row id never stands in for a person.</li>
 * </ul>
 * Names the classifier leaves untagged (a public-figure catalogue's actors) are no person evidence, so such a
 * table is not a person either.
 */
public final class SubjectClassifier {

    /** The drafted class with the evidence for it, as {@code policy show} prints it. */
    public record Draft(SubjectClass subjectClass, String evidence) {
    }

    private static final Set<String> NAME_PARTS = Set.of("first", "last", "given", "family", "surname", "forename",
            "firstname", "lastname", "fullname", "middle", "maiden", "nachname", "vorname", "nombre", "apellido", "prenom",
            "nom", "cognome");
    private static final Set<String> NAME_WORDS = Set.of("name", "names");
    private static final Set<String> CONTACT_PERSON_WORDS = Set.of("contact", "rep", "representative", "agent", "signatory");
    private static final Set<String> ORG_COLUMN_WORDS = Set.of("company", "legal", "organisation", "organization", "vat",
            "registration", "duns", "ein", "business", "trading", "firm", "corporate", "incorporation", "siret", "siren",
            "abn", "gst", "kvk");
    private static final Set<PiiCategory> PERSON_ONLY = EnumSet.of(PiiCategory.GOVERNMENT_ID,
            PiiCategory.DEMOGRAPHIC_PROTECTED, PiiCategory.HEALTH, PiiCategory.GENETIC, PiiCategory.BIOMETRIC);
    private static final Set<String> PERSON_TABLES = Set.of("customer", "client", "employee", "staff", "person", "people",
            "user", "member", "patient", "student", "contact", "passenger", "guest", "driver", "applicant", "candidate",
            "subscriber", "worker", "volunteer", "donor", "resident", "traveller", "traveler", "citizen", "beneficiary",
            "claimant", "policyholder", "learner", "pupil", "guardian", "individual", "consumer", "shopper", "buyer",
            "borrower", "lender", "investor", "voter", "tenant", "physician", "doctor", "nurse", "teacher", "instructor",
            "agent", "clerk", "cashier", "salesperson", "recipient", "mitarbeiter", "kunde", "cliente", "empleado",
            // People who come, sign up or answer: a visitor's row with an e-mail is a person's.
            "visitor", "attendee", "participant", "respondent", "prospect", "lead", "player", "athlete", "reader",
            "viewer", "listener", "rider", "courier", "author");
    private static final Set<String> ORG_TABLES = Set.of("company", "supplier", "vendor", "shipper", "carrier", "store",
            "shop", "branch", "office", "warehouse", "organisation", "organization", "merchant", "partner", "agency",
            "bank", "department", "team", "site", "manufacturer", "distributor", "publisher", "label", "brand", "firm",
            "enterprise", "institution", "school", "hospital", "clinic", "tenant_org", "employer", "insurer", "retailer",
            "wholesaler", "airline", "hotel", "venue", "facility", "plant", "depot", "outlet", "franchise", "chain",
            "business");

    private SubjectClassifier() {
    }

    public static Draft draft(Table table, PiiTags tags) {
        List<String> tableWords = Identifiers.words(table.name().table());
        List<String> person = new ArrayList<>();
        List<String> org = new ArrayList<>();
        boolean anyTag = false;
        for (Column c : table.columns()) {
            PiiTag tag = tags.tag(table.name(), c.name());
            anyTag |= tag.tagged();
            List<String> w = Identifiers.words(c.name());
            boolean orgWord = w.stream().anyMatch(ORG_COLUMN_WORDS::contains);
            if (orgWord) {
                org.add(c.name());
                continue;
            }
            if (!tag.tagged()) {
                continue;
            }
            boolean contactPerson = w.stream().anyMatch(CONTACT_PERSON_WORDS::contains);
            boolean structuredName = w.stream().anyMatch(NAME_PARTS::contains)
                    || w.size() == 2 && w.get(0).equals("full") && NAME_WORDS.contains(w.get(1));
            boolean plainName = w.size() == 1 && NAME_WORDS.contains(w.get(0)) && personTable(tableWords);
            boolean birth = w.contains("birth") || w.contains("dob") || w.contains("born") || w.contains("birthday");
            if (!contactPerson && tag.categories().contains(PiiCategory.CONTACT) && (structuredName || plainName)) {
                person.add(c.name());
            } else if (!contactPerson && (birth || tag.categories().stream().anyMatch(PERSON_ONLY::contains))) {
                // A contact person's birth date or gender (contact_gender) describes the contact, not the row.
                person.add(c.name());
            }
        }
        String t = table.name().table();
        if (!person.isEmpty()) {
            return new Draft(SubjectClass.PERSON, "personal columns " + String.join(", ", person));
        }
        if (!org.isEmpty()) {
            return new Draft(SubjectClass.ORGANISATION, "organisation columns " + String.join(", ", org));
        }
        if (orgTable(tableWords)) {
            return new Draft(SubjectClass.ORGANISATION, "the table name " + t);
        }
        if (anyTag && personTable(tableWords)) {
            return new Draft(SubjectClass.PERSON, "the table name " + t + " with tagged columns");
        }
        return new Draft(SubjectClass.NONE, "no person or organisation evidence");
    }

    private static boolean personTable(List<String> words) {
        return !words.isEmpty() && PERSON_TABLES.contains(Identifiers.singular(words.get(words.size() - 1)));
    }

    private static boolean orgTable(List<String> words) {
        return !words.isEmpty() && ORG_TABLES.contains(Identifiers.singular(words.get(words.size() - 1)));
    }
}
