package dev.schemabrain.security;

import dev.schemabrain.catalog.SamplePolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Sampling is the floor under the classifier: whatever a column is called and however it is tagged, an identifier or
 * a secret inside a sampled value is replaced before the value is kept, so it can reach neither the store, nor a
 * description, nor the BM25 text, nor an embedding.
 */
class SampleRedactionTest {

    /** A value with an identifier inside it, and the identifier itself. */
    static final Map<String, String> INSIDE_TEXT = Map.ofEntries(
            Map.entry("Call Alice at alice@example.com after 5pm", "alice@example.com"),
            Map.entry("Prefers phone: +1 415 555 0132, mornings", "415 555 0132"),
            Map.entry("Left voicemail on 020 7946 0958 today", "7946 0958"),
            Map.entry("card 4111.1111.1111.1111 declined", "4111.1111.1111.1111"),
            Map.entry("card 5500 0000 0000 0004 declined", "5500 0000 0000 0004"),
            Map.entry("amex 3782-822463-10005 on file", "3782-822463-10005"),
            Map.entry("ssn 078-05-1120 verified", "078-05-1120"),
            Map.entry("codice fiscale RSSMRA85T10A562S allegato", "RSSMRA85T10A562S"),
            Map.entry("CPF 529.982.247-25 confirmado", "529.982.247-25"),
            Map.entry("pay to DE89 3704 0044 0532 0130 00 now", "DE89 3704 0044 0532 0130 00"),
            Map.entry("export GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a", "ghp_16C7e42F"),
            Map.entry("key AKIAIOSFODNN7EXAMPLE rotated", "AKIAIOSFODNN7EXAMPLE"),
            Map.entry("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2ln", "eyJhbGciOiJIUzI1NiJ9"),
            Map.entry("hash $2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW", "$2b$12$R9h/"),
            Map.entry("db password=hunter2! in config", "hunter2!"),
            Map.entry("{\"api_key\": \"sk_live_4eC39HqLyjWDarjtT1zdp7dc\"}", "sk_live_4eC39"));
    /** Whole values that are identifiers or secrets. */
    static final List<String> WHOLE = List.of("alice@example.com", "4111 1111 1111 1111", "078-05-1120", "+44 7700 900123",
            "GB82 WEST 1234 5698 7654 32", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "q8Vz3Kf9LmN2xR7tYb4WcJ6hPd1sGe5A",
            "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG");
    /** Values that look a little like identifiers and must be kept as they are (they are what describes a column). */
    static final List<String> KEPT = List.of("Fixed crash on 2024-05-02, build 4.2.1", "Order INV-2024-000123 shipped",
            "Total 1,234.50 EUR", "invalid token: expired", "checkout.button.pay", "SKU-1029-XL", "AC/DC",
            "550e8400-e29b-41d4-a716-446655440000");

    @ParameterizedTest(name = "{0}")
    @MethodSource("insideText")
    void anIdentifierInsideTextNeverSurvivesSampling(String value, String identifier) {
        String kept = SamplePolicy.redact(value);
        assertTrue(!kept.contains(identifier) && kept.contains("<"), value + " → " + kept);
    }

    static Stream<Arguments> insideText() {
        return INSIDE_TEXT.entrySet().stream().map(e -> arguments(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("WHOLE")
    void aWholeIdentifierNeverSurvivesSampling(String whole) {
        String kept = SamplePolicy.redact(whole);
        assertTrue(kept.startsWith("<") && !kept.contains(whole), whole + " → " + kept);
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("KEPT")
    void aLookAlikeIsKept(String v) {
        assertEquals(v, SamplePolicy.redact(v), "not an identifier");
    }

    /** The figures for the report; each case is asserted on its own above. */
    @AfterAll
    static void figures() throws Exception {
        long leaked = INSIDE_TEXT.entrySet().stream().filter(e -> {
            String kept = SamplePolicy.redact(e.getKey());
            return kept.contains(e.getValue()) || !kept.contains("<");
        }).count() + WHOLE.stream().filter(w -> {
            String kept = SamplePolicy.redact(w);
            return !kept.startsWith("<") || kept.contains(w);
        }).count();
        int total = INSIDE_TEXT.size() + WHOLE.size();
        Files.createDirectories(Path.of("target", "security"));
        Files.writeString(Path.of("target", "security", "classifier-redaction.txt"), String.format(
                "sample redaction: identifiers and secrets replaced %d / %d (%d inside free text), look-alikes kept %d / %d%n",
                total - leaked, total, INSIDE_TEXT.size(),
                KEPT.stream().filter(v -> SamplePolicy.redact(v).equals(v)).count(), KEPT.size()));
    }

    @Test
    void placeholdersSurviveTheCutSoTheClassifierStillSeesThem() {
        String kept = SamplePolicy.redact("Agent: can I take the card number? Caller: yes it is 4923 3560 0500 8653 expiry 09/28");
        assertTrue(kept.length() <= SamplePolicy.MAX_LENGTH, kept);
        assertTrue(kept.endsWith("<card number>"), kept);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"passwordhash", "accesstoken", "userPassword", "pw", "wifi_psk", "apitoken"})
    void runTogetherSecretNamesAreNotSampledAtAll(String name) {
        assertFalse(SamplePolicy.mayCollect(name, "text"), name);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"notes", "product_name", "description", "pinyin"})
    void ordinaryNamesAreSampled(String name) {
        assertTrue(SamplePolicy.mayCollect(name, "text"), name);
    }
}
