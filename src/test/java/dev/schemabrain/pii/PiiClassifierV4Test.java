package dev.schemabrain.pii;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rules version 4 added, each with the look-alike it must leave alone. */
class PiiClassifierV4Test {

    private static Set<PiiCategory> tag(String table, String column, String type, String... samples) {
        return PiiClassifier.classify(column, type, List.of(samples), table, null).categories();
    }

    @Test
    void runTogetherNamesAreSplitLikeTheDescriberSplitsThem() {
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("users", "passwordhash", "text"));
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("users", "accesstoken", "text"));
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("ldap", "userpassword", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("crm", "homeaddress", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("crm", "phonenumber", "text"));
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("drivers", "licence_no", "text"));
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("crm", "dateofbirth", "date"));
        assertEquals(Set.of(), tag("crm", "companyname", "text"), "a company's name is not a person's");
        assertEquals(Set.of(PiiCategory.ONLINE_IDENTIFIER), tag("users", "username", "text"), "a login, not a person's name");
        assertEquals(Set.of(), tag("styles", "pinstripe", "text"), "a three-letter word inside a compound fires nothing");
    }

    @Test
    void shortFormsDependOnContext() {
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("accounts", "pw", "text", "hunter2", "letmein99"));
        assertEquals(Set.of(PiiCategory.PAYMENT_CARD), tag("orders", "cc", "text", "4111.1111.1111.1111", "5500 0000 0000 0004"));
        assertEquals(Set.of(PiiCategory.PAYMENT_CARD), tag("orders", "cc", "text"), "no samples: the name decides");
        assertEquals(Set.of(PiiCategory.CONTACT), tag("emails", "cc", "text", "ann@example.com", "bob@example.org"), "carbon copy");
        assertEquals(Set.of(), tag("motorbikes", "engine_cc", "integer", "125", "650"), "cubic centimetres");
        assertEquals(Set.of(PiiCategory.FINANCIAL), tag("charges", "cc_last_four", "text", "4242", "0004"));
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("payroll", "pan_card", "text", "ABCPE1234F", "BNZPM2501F"),
                "an Indian PAN card is a tax id, not a primary account number");
    }

    @Test
    void secretsAreRecognisedByTheirShape() {
        for (String secret : List.of("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
                "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
                "pbkdf2_sha256$600000$abcdefghijklmnopqrstuv$dGhpcyBpcyBub3QgYSByZWFsIGhhc2g=",
                "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g5hrs3", "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
                "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "AKIAIOSFODNN7EXAMPLE", "xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx",
                "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI", "glpat-xxxxxxxxxxxxxxxxxxxx",
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "q8Vz3Kf9LmN2xR7tYb4WcJ6hPd1sGe5A")) {
            assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("t", "value", "text", secret, secret + "x"), secret);
        }
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("builds", "log", "text", "+ export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a", "ok"));
        assertEquals(Set.of(PiiCategory.CREDENTIAL), tag("devices", "conn", "text", "HostName=h.example.net;SharedAccessKey=abc123XYZ+/="));
    }

    @Test
    void dataFingerprintsAndNamesOfSecretsAreNotSecrets() {
        assertEquals(Set.of(), tag("commits", "sha", "text", "9fceb02d0ae598e95dc970b74767f19372d61af8", "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"));
        assertEquals(Set.of(), tag("files", "sha256", "text", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"));
        assertEquals(Set.of(), tag("ci_secrets", "name", "text", "NPM_TOKEN", "AWS_ACCESS_KEY_ID", "DOCKERHUB_PASSWORD"));
        assertEquals(Set.of(), tag("deploy_keys", "public_key", "text", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8Vz3Kf9LmN2xR7tYb4W deploy@ci"));
        assertEquals(Set.of(), tag("errors", "message", "text", "invalid token: expired", "password reset requested"));
        assertEquals(Set.of(), tag("uploads", "id", "text", "550e8400-e29b-41d4-a716-446655440000", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
    }

    @Test
    void identifiersInsideFreeTextTagTheColumn() {
        assertEquals(Set.of(PiiCategory.CONTACT), tag("person", "notes", "text", "Call Alice at alice@example.com after 5pm", "Met at a conference"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("crm", "remarks", "text", "Left voicemail on 020 7946 0958", "VIP"));
        assertEquals(Set.of(PiiCategory.PAYMENT_CARD), tag("tickets", "body", "text", "My card 4111-1111-1111-1111 was charged twice", "Thanks"));
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("chat", "text", "text", "mi codice fiscale è RSSMRA85T10A562S", "grazie"));
        assertEquals(Set.of(PiiCategory.FINANCIAL), tag("mails", "body", "text", "Please pay to DE89 3704 0044 0532 0130 00 by Friday", "ok"));
        assertEquals(Set.of(), tag("releases", "notes", "text", "Fixed crash on 2024-05-02, see build 4.2.1", "timeout after 30000 ms"));
        assertEquals(Set.of(), tag("drugs", "ndc", "text", "0002-3227-30", "0093-7146-56"), "a drug code written with dashes is not a phone number");
    }

    @Test
    void nationalIdsOfSeveralCountriesByTheirValues() {
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("t", "c1", "text", "529.982.247-25", "111.444.777-35"), "CPF");
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("t", "c1", "text", "811228-9874", "670919-9530"), "personnummer");
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("t", "c1", "text", "131052-308T", "010594Y9032"), "HETU");
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("t", "c1", "text", "44051401359", "02070803628"), "PESEL");
        assertEquals(Set.of(PiiCategory.GOVERNMENT_ID), tag("t", "c1", "text", "S1234567D", "T0123456G"), "NRIC");
        assertEquals(Set.of(), tag("t", "c1", "text", "44051401358", "02070803627"), "eleven digits with a wrong check digit");
    }

    @Test
    void namesOfThingsAndAnimalsAreNotPeople() {
        assertEquals(Set.of(), tag("artist", "name", "text", "AC/DC", "Aerosmith"));
        assertEquals(Set.of(), tag("bands", "name", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("customer", "name", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("agents", "name", "text"));
        assertEquals(Set.of(), tag("pets", "date_of_birth", "date"));
        assertEquals(Set.of(), tag("pets", "sex", "text", "male neutered", "female spayed"));
        assertEquals(Set.of(), tag("pet_visits", "diagnosis", "text"));
        assertEquals(Set.of(PiiCategory.CONTACT), tag("pet_owners", "email", "text"));
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("pet_owners", "date_of_birth", "date"));
    }

    @Test
    void theStatusOfATraitStatesIt() {
        assertEquals(Set.of(PiiCategory.DEMOGRAPHIC_PROTECTED), tag("candidates", "disability_status", "text"));
        assertEquals(Set.of(PiiCategory.HEALTH), tag("profiles", "hiv_status", "text"));
        assertEquals(Set.of(), tag("users", "email_status", "text"));
        assertEquals(Set.of(), tag("users", "password_status", "text"));
    }
}
