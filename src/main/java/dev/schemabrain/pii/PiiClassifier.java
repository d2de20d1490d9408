package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.IdentifierWords;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tags a column with PII categories from its name, type and sample values.
 *
 * <p>Name rules match whole words of the name as the describer splits it ({@code pin} never fires on
 * {@code shipping}; {@code passwordhash} reads "password hash"; a three-letter word only a run-together split
 * produced fires nothing). {@link NameContext} settles short forms by their samples ({@code cc}, {@code pan}) and
 * traits on tables about animals; {@link ContentRules} reads the samples.
 * Guards keep well-known look-alikes out: a key column ({@code customer_id}, {@code address_id}) keeps
 * only identifier-like categories; a date, time or flag about something ({@code password_changed_at},
 * {@code is_email_verified}) and a count or setting of something ({@code token_count},
 * {@code password_policy}) are not that thing; {@code name} is a person's name only with a person
 * qualifier ({@code first_name}) or on a person-like table (an artist, a band, is a thing).
 *
 * <p>Version 5: names of people under columns that do not say "name" are found by their samples
 * ({@link PersonNames}), with a lower bar under a role word ({@code assignee}, {@code next_of_kin},
 * {@code empfänger}; {@link PersonRoles}). Public figures credited in a catalogue of works (Pagila's actors, a book's
 * author, a recording's composer) are not contact data; see {@link #publicFigureCatalogue}.
 */
public final class PiiClassifier {

    /** Bump when a rule changes: it is part of the index change token, so every column is classified again. */
    public static final String VERSION = "7";

    private record Rule(PiiCategory category, List<String> words) {
        Rule {
            words = List.copyOf(words);
        }
    }

    private record Phrase(PiiCategory category, String phrase) {
    }

    /** Spellings of "number" in names: {@code licence_no}, {@code card_num}. */
    private static final Set<String> NUMBER = Set.of("no", "num", "nbr", "nr", "nro", "nummer", "numero");

    private static List<Phrase> rule(PiiCategory category, String... phrases) {
        return Arrays.stream(phrases).map(phrase -> new Phrase(category, phrase)).toList();
    }

    private static final List<Phrase> PHRASES = Stream.of(
        rule(PiiCategory.CONTACT, "email", "e_mail", "emailaddress", "phone", "telephone", "tel", "mobile", "cellphone",
                "cell_phone", "fax", "address", "addr", "street", "address1", "address2", "address_line", "postal_code",
                "postcode", "zip", "zipcode", "zip_code", "first_name", "firstname", "fname", "last_name", "lastname",
                "lname", "full_name", "fullname", "middle_name", "given_name", "family_name", "surname", "maiden_name",
                "display_name", "nickname", "contact_name", "contact_person", "emergency_contact", "msisdn", "cell_number"),
        rule(PiiCategory.LOCATION, "latitude", "longitude", "lat", "lng", "lon", "geo", "geolocation", "gps",
                "coordinates", "geohash", "geopoint", "geo_point", "home_location", "location_history", "cell_tower"),
        rule(PiiCategory.FINANCIAL, "salary", "wage", "wages", "income", "iban", "bic", "swift", "account_number",
                "account_no", "acct_no", "acct_number", "bank_account", "routing_number", "sort_code", "credit_score",
                "credit_limit", "net_worth", "account_balance", "balance", "payroll", "compensation", "bonus",
                "card_last4", "last4", "last_four"),
        rule(PiiCategory.PAYMENT_CARD, "card_number", "card_no", "card_num", "cardnumber", "credit_card", "creditcard",
                "cc_number", "cc_num", "ccnum", "pan", "cvv", "cvv2", "cvc", "cvc2", "card_cvv", "card_expiry",
                "card_exp", "card_expiration", "cardholder", "card_holder", "cardholder_name", "primary_account_number"),
        rule(PiiCategory.HEALTH, "diagnosis", "diagnoses", "medication", "medications", "prescription", "allergy",
                "allergies", "blood_type", "blood_group", "icd", "icd10", "icd_code", "medical", "symptom", "symptoms",
                "medical_treatment", "treatment_plan", "disease", "mental_health", "health_condition", "health_record", "clinical", "lab_result", "bmi", "pregnancy", "hiv",
                "vaccination", "immunization", "insurance_member_id", "medical_record_number", "mrn", "injury", "smoker",
                "pre_existing_condition", "special_needs"),
        rule(PiiCategory.GENETIC, "dna", "genome", "genotype", "genetic", "gene", "snp", "allele", "gene_sequence"),
        rule(PiiCategory.BIOMETRIC, "fingerprint", "face_embedding", "face_id", "faceprint", "facial", "retina",
                "iris_scan", "voiceprint", "voice_print", "biometric", "palm_print", "face_template", "face_image", "selfie",
                "signature_image"),
        rule(PiiCategory.BEHAVIORAL, "browsing_history", "clickstream", "click_stream", "search_history", "search_query",
                "search_terms", "search_term", "purchase_history", "watch_history", "viewing_history",
                "listening_history", "location_history", "interests"),
        rule(PiiCategory.ONLINE_IDENTIFIER, "ip", "ip_address", "ipaddress", "ipv4", "ipv6", "ip_addr", "mac_address",
                "macaddress", "device_id", "cookie", "cookie_id", "session_id", "user_agent", "useragent", "username",
                "user_name", "login", "login_name", "handle", "screen_name", "idfa", "advertising_id", "imei", "udid",
                "browser_fingerprint", "device_fingerprint", "ua", "imsi", "iccid", "sim_serial", "linkedin", "twitter",
                "facebook", "instagram", "gamertag"),
        rule(PiiCategory.CREDENTIAL, "password", "passwd", "pwd", "passphrase", "password_hash", "secret",
                "client_secret", "api_key", "apikey", "access_key", "secret_key", "private_key", "token", "access_token",
                "refresh_token", "auth_token", "session_token", "bearer", "otp", "totp", "mfa_secret", "salt", "pin",
                "security_answer", "recovery_code", "backup_code", "puk", "puk_code", "access_code", "passcode",
                "verification_code", "credential", "hashed_password", "encrypted_password",
                "password_digest", "pw", "pwhash", "psk", "pre_shared_key", "wpa_key", "jwt", "id_token", "signing_key",
                "hmac_key", "encryption_key", "master_key", "connection_string", "conn_string", "mfa_seed", "otp_seed",
                "totp_seed", "two_factor_seed", "two_factor_secret", "seed_phrase", "mnemonic", "recovery_phrase"),
        rule(PiiCategory.GOVERNMENT_ID, "ssn", "social_security", "social_security_number", "sin", "passport",
                "passport_number", "passport_no", "national_id", "national_insurance", "national_insurance_number", "nino",
                "nin", "tax_id", "tin", "taxpayer_id", "driver_license", "drivers_license", "driving_licence",
                "driving_license", "driver_licence", "license_number", "licence_number", "voter_id", "aadhaar", "curp", "cpf",
                "nif", "dni", "bsn", "personnummer", "id_card_number", "id_number",
                // national numbers around the world, by their usual names and acronyms
                "nie", "pesel", "hetu", "cpr", "nric", "tfn", "tax_file_number", "codice_fiscale", "fiscal_code",
                "steuer_id", "steuernummer", "steueridentifikationsnummer", "sozialversicherungsnummer", "svnr", "ahv",
                "ppsn", "pps_number", "insee", "nir", "numero_secu", "securite_sociale", "aadhar", "cuit", "cuil", "amka",
                "egn", "oib", "jmbg", "mykad", "hkid", "emirates_id", "iqama", "my_number", "personal_identity_number",
                "personal_id_number", "personal_number", "identity_number", "identity_card", "id_card",
                "resident_registration_number", "citizen_id", "known_traveler_number", "known_traveller_number",
                "redress_number", "travel_document", "id_document", "identity_document",
                // abbreviations of licence, passport, tax and social-security references
                "dl_number", "drv_lic", "drv_license", "drv_licence", "driver_lic", "drivers_lic", "lic_number",
                "soc_sec", "soc_sec_number", "soc_ins", "social_insurance", "social_insurance_number", "ni_number",
                "tax_ref", "tax_reference", "tax_reference_number", "utr", "unique_taxpayer_reference", "itin", "ptin",
                "voter_reg", "voter_registration", "pp_number", "passport_id", "shenfenzheng", "sfz", "sfzh",
                "zhengjian_haoma", "shenfenzheng_haoma", "permis"),
        rule(PiiCategory.DEMOGRAPHIC_PROTECTED, "gender", "sex", "race", "ethnicity", "ethnic", "religion", "religious",
                "sexual_orientation", "disability", "disabilities", "date_of_birth", "birth_date", "birthdate", "dob",
                "birthday", "age", "marital_status", "nationality", "political", "political_party", "citizenship",
                "union_membership", "veteran_status", "birth_year", "year_of_birth", "place_of_birth", "birthplace",
                "birth_place", "male", "female", "pregnant", "dateofbirth", "party_affiliation", "political_affiliation"),
        rule(PiiCategory.FINANCIAL, "gross_pay", "net_pay", "base_pay", "take_home_pay")).flatMap(List::stream).toList();
    /** The describer's splitter, which also knows the rules' own short terms ("ssn", "iban", "addr"). */
    private static final IdentifierWords SPLITTER = IdentifierWords.english().with(shortTerms(PHRASES));
    /** Longest rules first, so that {@code card_number} wins over {@code number}. */
    private static final List<Rule> NAME_RULES = PHRASES.stream().map(p -> new Rule(p.category(), words(p.phrase()).words()))
            .sorted(Comparator.comparingInt((Rule r) -> -r.words().size())).toList();
    /** The rule word "fingerprint" as the splitter reads it. */
    private static final List<String> FINGERPRINT = words("fingerprint").words();

    private static Set<String> shortTerms(List<Phrase> phrases) {
        Set<String> ruleTerms = new HashSet<>();
        for (Phrase p : phrases) {
            for (String part : p.phrase().split("_")) {
                for (String w : IdentifierWords.pieces(part)) {
                    // Short terms only: a long rule word ("emailaddress") must stay splittable itself.
                    if (w.length() >= 3 && w.length() <= 6 && w.chars().allMatch(Character::isLetter)) {
                        ruleTerms.add(w);
                    }
                }
            }
        }
        return Set.copyOf(ruleTerms);
    }

    /** Location words that place a person wherever they appear; the others only on person-like tables. */
    private static final Set<String> LOCATES_A_PERSON = Set.of("gps", "geolocation", "home_location", "location_history",
            "cell_tower");
    private static final Set<String> IDENTITY_TABLE_WORDS = Set.of("kyc", "identity", "identities", "verification",
            "verifications", "passport", "passports", "id");
    private static final Set<String> WHEN_WORDS = Set.of("at", "on", "date", "time", "timestamp", "ts", "when");

    /** Categories a key column may keep: an identifier can itself be personal. */
    private static final Set<PiiCategory> IDENTIFIER_LIKE = EnumSet.of(PiiCategory.GOVERNMENT_ID,
            PiiCategory.ONLINE_IDENTIFIER);
    /** Words that make a column a key to other rows rather than the value itself. */
    private static final Set<String> KEY_WORDS = Set.of("id", "ids", "fk", "key", "uuid", "guid", "ref", "sk");
    /** Words that make a column a count, setting or property of the thing rather than the thing. */
    private static final Set<String> ABOUT_WORDS = Set.of("count", "counts", "attempts", "tries", "length", "len",
            "size", "policy", "policies", "type", "types", "status", "format", "version", "strength", "required",
            "enabled", "verified", "confirmed", "changed", "updated", "created", "reset", "expires", "expired",
            "expiry", "used", "limit", "limits", "max", "min", "rule", "rules", "template", "hint", "hints", "provider",
            "validated", "opt", "optin", "consent", "consented", "sent", "bounced", "domain", "by", "code_type",
            "flag", "allowed", "mode", "file", "files", "archive", "check", "quota", "pattern", "state", "country",
            "subject");
    /** About-words that state a trait rather than describe a setting: a disability's status is the disability. */
    private static final Set<String> STATE_OF = Set.of("status", "state");
    private static final Set<String> FLAG_PREFIXES = Set.of("is", "has", "can", "should", "was", "allow", "use", "uses");
    /** What the bare word {@code name} names on these tables: a person. */
    private static final Set<String> PERSON_TABLES = Set.of("agent", "agents", "learner", "learners", "volunteer",
            "volunteers", "customer", "customers", "user", "users", "person", "people",
            "persons", "employee", "employees", "staff", "contact", "contacts", "patient", "patients", "member",
            "members", "author", "authors", "student", "students", "teacher", "teachers", "client", "clients",
            "account_holder", "guest", "guests", "passenger", "passengers", "driver", "drivers", "applicant",
            "applicants", "candidate", "candidates", "subscriber", "subscribers", "donor", "donors", "player",
            "players", "actor", "actors", "owner", "owners", "visitor", "visitors", "worker",
            "workers", "physician", "physicians", "doctor", "doctors", "nurse", "nurses", "singer", "singers",
            "teammate", "profile", "profiles", "individual", "individuals", "buyer", "buyers", "seller", "sellers",
            "tenant", "tenants", "resident", "residents", "beneficiary", "beneficiaries", "contractor", "contractors");
    /** Qualifiers that make {@code name} a person's name on any table. */
    private static final Set<String> PERSON_QUALIFIERS = Set.of("customer", "user", "person", "employee", "contact",
            "patient", "member", "author", "student", "client", "guest", "passenger", "driver", "applicant",
            "candidate", "subscriber", "owner", "recipient", "sender", "holder", "manager", "rep", "agent", "parent",
            "spouse", "child", "buyer", "seller", "tenant", "beneficiary", "maiden", "legal", "billing", "shipping",
            "cardholder", "account", "guardian");
    /** {@code fingerprint} of these is a hash of data, not of a body. */
    private static final Set<String> HASH_OF = Set.of("sql", "query", "key", "ssh", "cert", "certificate", "schema",
            "file", "content", "commit", "plan", "build", "statement", "gpg", "pgp", "tls", "public", "row", "record",
            "card");

    private PiiClassifier() {
    }

    /** With a context built once per table ({@link TableContext#of(Table, Collection)}, which also knows incoming keys). */
    public static PiiTag classify(Table table, Column column, TableContext context) {
        return classify(column.name(), column.dataType(), column.samples(), table.name().table(), context);
    }

    /**
     * What the classifier may know of a column's table: whether it lists public figures of a catalogue of works
     * (see {@link #publicFigureCatalogue}) or is itself a catalogue of works whose credit columns name public figures.
     * Built once per table: it classifies the table's column names.
     */
    public static final class TableContext {
        private final boolean publicFigures;
        private final boolean works;

        private TableContext(boolean publicFigures, boolean works) {
            this.publicFigures = publicFigures;
            this.works = works;
        }

        public static TableContext of(String tableName, Collection<String> columnNames, Collection<String> linkedTables) {
            boolean candidate = PersonRoles.lastIn(tableName, PersonRoles.PUBLIC_FIGURES) || PersonRoles.works(tableName);
            if (!candidate || !nothingPersonal(tableName, columnNames)) {
                return new TableContext(false, false);
            }
            return new TableContext(publicFigureCatalogue(tableName, columnNames, linkedTables),
                    PersonRoles.works(tableName));
        }

        /** @param linkedFrom names of the tables whose foreign keys point to this one */
        public static TableContext of(Table table, Collection<String> linkedFrom) {
            List<String> linked = new ArrayList<>(linkedFrom);
            for (ForeignKey fk : table.foreignKeys()) {
                linked.add(fk.target().table());
            }
            return of(table.name().table(), table.columns().stream().map(Column::name).toList(), linked);
        }
    }

    /**
     * Whether a table lists public figures credited in a catalogue of works (actors, artists, authors, composers,
     * directors, performers, bands), whose names are then not personal contact data. Evidence, all required:
     * the table is named for such a figure ({@code actor}, {@code artists}); a key links it to a table of works
     * (a film, album, track, book, recording, artwork: {@code album.artist_id}) or to a join of works and figures
     * ({@code film_actor}, {@code film_credits}; not {@code film_reviews}, whose authors are customers); and none
     * of its columns says anything else about a person, nor is a key to it (no e-mail, phone, address or
     * {@code address_id}, birth date, gender, salary, id number: a festival's guest list or a label's payroll of
     * performers stays personal). Customer, employee and patient tables are never named for a public figure, so
     * their names stay tagged.
     */
    public static boolean publicFigureCatalogue(String tableName, Collection<String> columnNames,
                                                Collection<String> linkedTables) {
        return PersonRoles.lastIn(tableName, PersonRoles.PUBLIC_FIGURES)
                && linkedTables.stream().anyMatch(PersonRoles::linksToWorks)
                && nothingPersonal(tableName, columnNames);
    }

    /**
     * No column of the table is tagged by its name for anything but a person's name, nor is a key to such a thing
     * ({@code address_id}: the address is kept elsewhere, but it is this person's).
     */
    private static boolean nothingPersonal(String tableName, Collection<String> columnNames) {
        for (String c : columnNames) {
            List<String> words = words(c).words();
            List<String> named = new ArrayList<>(List.of(c));
            if (words.size() > 1 && KEY_WORDS.contains(words.get(words.size() - 1))) {
                named.add(String.join("_", words.subList(0, words.size() - 1)));
            }
            for (String n : named) {
                PiiTag tag = classify(n, "text", List.of(), tableName, null);
                if (!tag.reasons().stream().allMatch(PiiClassifier::personNameReason)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static final Set<String> NAME_PARTS = Set.of("firstname", "fname", "lastname", "lname", "fullname",
            "middlename", "givenname", "familyname", "surname", "maidenname", "displayname", "nickname", "personname",
            "contactname");

    private static boolean personNameReason(String reason) {
        return reason.equals("content:person_name") || reason.startsWith("name:role_")
                || reason.startsWith("name:") && NAME_PARTS.contains(reason.substring(5).replace("_", ""));
    }

    /**
     * @param context what the table shows, built once per table; null without the table's other columns, when
     *                public-figure catalogues are not recognised
     */
    public static PiiTag classify(String columnName, String dataType, List<String> samples, String tableName,
                                  TableContext context) {
        EnumSet<PiiCategory> categories = EnumSet.noneOf(PiiCategory.class);
        Set<String> reasons = new LinkedHashSet<>();
        NameWords name = words(columnName);
        List<String> words = name.words();
        if (words.isEmpty()) {
            return PiiTag.NONE;
        }
        TypeClass type = TypeClass.of(dataType);
        List<String> table = tableName == null ? List.of() : words(tableName).words();
        List<String> values = samples.stream().filter(v -> v != null && !v.isBlank()).map(String::strip).toList();
        boolean[] covered = nameRules(name, table, categories, reasons);
        guard(words, covered, type, categories, reasons);
        ForeignNames.apply(columnName, tableName, type, categories, reasons);
        NameContext.apply(words, table, type, values, categories, reasons);
        cardExpiry(words, table, categories, reasons);
        ContentRules.apply(columnName, values, categories, reasons);
        personNames(columnName, words, type, values, categories, reasons);
        if (context != null && !categories.isEmpty() && reasons.stream().allMatch(PiiClassifier::personNameReason)
                && (context.publicFigures || context.works && PersonRoles.parts(columnName).stream()
                        .anyMatch(PersonRoles.PUBLIC_FIGURES::contains))) {
            return PiiTag.NONE;   // Pagila's actors, a book's author: public figures of a catalogue
        }
        return categories.isEmpty() ? PiiTag.NONE : PiiTag.of(categories, List.copyOf(reasons));
    }

    /**
     * People's names in a column whose name does not say "name" (name rules decide those): under a role word
     * ({@code assignee}, {@code created_by}, {@code destinatario}) half the samples must look like names; with no
     * role word most must, with a given name or title in most (capitalised two-word things are common). Without
     * samples only roles that are always a person tag ({@code next_of_kin}, {@code beneficiary}).
     */
    private static void personNames(String columnName, List<String> words, TypeClass type, List<String> values,
                                    Set<PiiCategory> categories, Set<String> reasons) {
        List<String> parts = PersonRoles.parts(columnName);
        if (type == TypeClass.NUMBER || type == TypeClass.TEMPORAL || type == TypeClass.BOOLEAN
                || categories.contains(PiiCategory.CONTACT) || words.contains("name") || parts.contains("name")
                || KEY_WORDS.contains(words.get(words.size() - 1))) {
            return;
        }
        boolean role = PersonRoles.role(parts);
        if (!values.isEmpty()) {
            if (role ? PersonNames.someNames(values) : PersonNames.mostlyNames(values)) {
                categories.add(PiiCategory.CONTACT);
                reasons.add("content:person_name");
            }
        } else if (categories.isEmpty() && PersonRoles.alwaysAPerson(parts)) {
            categories.add(PiiCategory.CONTACT);
            reasons.add("name:role_" + String.join("_", parts));
        }
    }

    /**
     * A name's words as the describer splits them ({@code passwordhash} → password hash), spellings of "number"
     * normalized; {@code shortParts} marks words of three letters or fewer that only a run-together split produced
     * ({@code pinstripe} → pin stripe): too weak alone to fire a rule.
     */
    record NameWords(List<String> words, boolean[] shortParts) {
    }

    static NameWords words(String name) {
        List<String> out = new ArrayList<>();
        List<Boolean> weak = new ArrayList<>();
        for (List<String> piece : SPLITTER.splitPieces(name)) {
            for (String w : piece) {
                out.add(NUMBER.contains(w) ? "number" : w);
                weak.add(piece.size() > 1 && w.length() <= 3);
            }
        }
        boolean[] shortParts = new boolean[out.size()];
        for (int i = 0; i < shortParts.length; i++) {
            shortParts[i] = weak.get(i);
        }
        return new NameWords(List.copyOf(out), shortParts);
    }

    /**
     * Longer phrases first; a phrase whose words a longer one already matched does not fire
     * ({@code ip_address} is not also an {@code address}). Answers which words were matched.
     */
    private static boolean[] nameRules(NameWords column, List<String> table, Set<PiiCategory> categories,
                                       Set<String> reasons) {
        List<String> words = column.words();
        boolean[] covered = new boolean[words.size()];
        // LName, FName, FullName: snake-casing splits a single letter off; the whole name may be one rule word.
        String whole = String.join("", words);
        for (Rule rule : NAME_RULES) {
            if (words.size() > 1 && rule.words().size() == 1 && rule.words().get(0).equals(whole)) {
                Arrays.fill(covered, true);
                categories.add(rule.category());
                reasons.add("name:" + whole);
            }
        }
        // The number of an identity document, on a table about checking identities.
        if (indexOf(words, List.of("document", "number")) >= 0 && table.stream().anyMatch(IDENTITY_TABLE_WORDS::contains)) {
            categories.add(PiiCategory.GOVERNMENT_ID);
            reasons.add("name:identity_document_number");
        }
        // line_1, line_2 of an address table are address lines.
        if (table.stream().anyMatch(w -> w.startsWith("address")) && words.get(0).equals("line")) {
            covered[0] = true;
            categories.add(PiiCategory.CONTACT);
            reasons.add("name:address_line");
        }
        for (Rule rule : NAME_RULES) {
            int at = indexOf(words, rule.words());
            if (at < 0 || allCovered(covered, at, rule.words().size()) && !categories.contains(rule.category())
                    || allCovered(column.shortParts(), at, rule.words().size())) {
                continue;
            }
            if (rule.words().equals(FINGERPRINT) && (at > 0 && HASH_OF.contains(words.get(at - 1))
                    || table.stream().map(PiiClassifier::singular).anyMatch(HASH_OF::contains))) {
                continue;   // sql_fingerprint, key_fingerprint: a hash of data, not of a body
            }
            if (rule.category() == PiiCategory.LOCATION && !LOCATES_A_PERSON.contains(String.join("_", rule.words()))
                    && !personTable(table) && words.stream().noneMatch(PERSON_QUALIFIERS::contains)) {
                continue;   // a station's or a store's coordinates locate no one
            }
            for (int i = at; i < at + rule.words().size(); i++) {
                covered[i] = true;
            }
            categories.add(rule.category());
            reasons.add("name:" + String.join("_", rule.words()));
        }
        int name = words.lastIndexOf("name");
        // A login name (username → user name, screen_name) is not a person's name.
        boolean login = name >= 0 && covered[name] && categories.contains(PiiCategory.ONLINE_IDENTIFIER);
        if (name >= 0 && !login && !categories.contains(PiiCategory.CONTACT)) {
            boolean qualified = name > 0 && (PERSON_QUALIFIERS.contains(words.get(name - 1))
                    || PersonRoles.qualifiesName(words.get(name - 1)));
            if (qualified || (words.size() == 1 && personTable(table))) {
                covered[name] = true;
                categories.add(PiiCategory.CONTACT);
                reasons.add("name:person_name");
            }
        }
        return covered;
    }

    private static boolean personTable(List<String> table) {
        return !table.isEmpty() && PERSON_TABLES.contains(table.get(table.size() - 1));
    }

    private static boolean allCovered(boolean[] covered, int from, int length) {
        for (int i = from; i < from + length; i++) {
            if (!covered[i]) {
                return false;
            }
        }
        return true;
    }

    /** Drops what the column's shape says it cannot be (see the class comment). */
    private static void guard(List<String> words, boolean[] covered, TypeClass type, Set<PiiCategory> categories,
                              Set<String> reasons) {
        if (categories.isEmpty()) {
            return;
        }
        String last = words.get(words.size() - 1);
        if (KEY_WORDS.contains(last) && words.size() > 1 && !covered[words.size() - 1]) {
            categories.retainAll(IDENTIFIER_LIKE);   // customer_id, address_id: a key; driver_license_id keeps government_id
        }
        boolean birth = words.stream().anyMatch(w -> w.contains("birth") || w.equals("dob"));
        boolean flag = type == TypeClass.BOOLEAN || FLAG_PREFIXES.contains(words.get(0)) && !covered[0];
        boolean about = false;
        boolean states = false;
        for (int i = 0; i < words.size(); i++) {
            boolean aboutWord = !covered[i] && ABOUT_WORDS.contains(words.get(i))
                    && !(words.get(i).equals("template") && categories.contains(PiiCategory.BIOMETRIC));
            about |= aboutWord;
            states |= aboutWord && STATE_OF.contains(words.get(i));
        }
        states &= about && words.stream().filter(ABOUT_WORDS::contains).allMatch(STATE_OF::contains);
        boolean when = type == TypeClass.TEMPORAL || (!covered[words.size() - 1] && WHEN_WORDS.contains(last));
        if (flag || states) {
            // is_male, has_disability, hiv_status: a flag or status of a protected trait or a health fact states it.
            categories.retainAll(EnumSet.of(PiiCategory.DEMOGRAPHIC_PROTECTED, PiiCategory.HEALTH));
        } else if (about) {
            categories.clear();    // a biometric is stored as a template: that word does not make it a setting
        } else if (when && !birth) {
            categories.retainAll(EnumSet.of(PiiCategory.HEALTH));
        }
        if (categories.isEmpty()) {
            reasons.clear();
        }
    }

    /** Where {@code phrase} starts in {@code words}; in a phrase, a plural matches its singular ({@code backup_codes}). */
    private static int indexOf(List<String> words, List<String> phrase) {
        outer:
        for (int i = 0; i + phrase.size() <= words.size(); i++) {
            for (int k = 0; k < phrase.size(); k++) {
                String w = words.get(i + k);
                // Plurals only inside phrases: a lone plural (prompt_tokens, interests aside) is usually a count.
                if (!w.equals(phrase.get(k)) && !(phrase.size() > 1 && singular(w).equals(phrase.get(k)))) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static String singular(String word) {
        return word.length() > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.substring(0, word.length() - 1) : word;
    }

    /** A card's expiry month, year or date, on a table of cards: part of the card data, whatever its type. */
    private static void cardExpiry(List<String> words, List<String> table, Set<PiiCategory> categories, Set<String> reasons) {
        boolean cardTable = table.stream().anyMatch(w -> w.equals("card") || w.equals("cards"));
        boolean expiry = words.stream().anyMatch(w -> w.equals("exp") || w.startsWith("expir"));
        if (cardTable && expiry && words.stream().noneMatch(w -> ABOUT_WORDS.contains(w) && !w.startsWith("exp"))) {
            categories.add(PiiCategory.PAYMENT_CARD);
            reasons.add("name:card_expiry");
        }
    }
}
