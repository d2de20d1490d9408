package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What sample values a catalog may hold: at most five distinct values per column, each at most
 * fifty characters, none for columns whose names look sensitive (run-together names included:
 * {@code passwordhash}) or whose type is binary; secrets, e-mails, IBANs, card numbers, national ids and
 * phone numbers are replaced by a placeholder, as a whole value or inside free text, so even a column nobody
 * tagged never stores one. The full PII classifier refines this later; this is the floor applied while
 * reading rows.
 */
public final class SamplePolicy {

    public static final int MAX_SAMPLES = 5;
    public static final int MAX_LENGTH = 50;

    private static final Set<String> SENSITIVE_WORDS = Set.of(
            "password", "passwd", "pwd", "passphrase", "secret", "ssn", "cvv", "cvc", "pin", "salt",
            "apikey", "passport", "iban", "otp", "totp", "mfa", "credential", "credentials", "pw", "psk", "jwt");
    private static final List<String> SENSITIVE_PHRASES = List.of(
            "api_key", "api_token", "id_token", "access_token", "refresh_token", "auth_token", "session_token", "bearer_token",
            "card_number", "cc_number", "credit_card", "card_no", "pan_number", "social_security",
            "national_id", "tax_id", "private_key", "secret_key", "security_code", "routing_number",
            "account_number", "driver_license", "drivers_license", "license_number");
    private static final List<String> BINARY_TYPES = List.of(
            "bytea", "blob", "binary", "varbinary", "image", "raw", "tsvector", "geometry", "geography");

    private SamplePolicy() {
    }

    /** Whether sample values of this column may be read at all. */
    public static boolean mayCollect(String columnName, String dataType) {
        String type = dataType == null ? "" : dataType.toLowerCase(Locale.ROOT);
        for (String binary : BINARY_TYPES) {
            if (type.startsWith(binary) || type.endsWith(binary)) {
                return false;
            }
        }
        return !looksSensitive(columnName);
    }

    /** A name such as {@code password_hash}, {@code api_key}, {@code cardNumber} or {@code passwordhash}. */
    public static boolean looksSensitive(String columnName) {
        List<String> words = IdentifierWords.english().splitPieces(columnName).stream().flatMap(List::stream).toList();
        for (String word : words) {
            if (SENSITIVE_WORDS.contains(word)) {
                return true;
            }
        }
        String snake = String.join("_", words);
        for (String phrase : SENSITIVE_PHRASES) {
            if (snake.contains(phrase)) {
                return true;
            }
        }
        return false;
    }

    /** Up to five distinct, redacted, truncated, non-blank values, in first-seen order. */
    public static List<String> pick(Iterable<String> rawValues) {
        List<String> all = new ArrayList<>();
        rawValues.forEach(all::add);
        return pick(null, all);
    }

    /**
     * As {@link #pick(Iterable)}, but a column whose values read together are government identifiers
     * ({@link GovernmentIds#column}: nine digits without dashes under {@code col7}) keeps only the placeholder, even
     * where no single value would be redacted; {@code columnName} (may be null) says when they are something else.
     */
    public static List<String> pick(String columnName, List<String> rawValues) {
        if (GovernmentIds.column(columnName, rawValues).isPresent()) {
            return List.of(ValueShape.NATIONAL_ID.placeholder());
        }
        return pickEach(rawValues);
    }

    private static List<String> pickEach(Iterable<String> rawValues) {
        Set<String> picked = new LinkedHashSet<>();
        for (String raw : rawValues) {
            if (raw == null || raw.isBlank()) {
                continue;
            }
            picked.add(redact(raw));
            if (picked.size() == MAX_SAMPLES) {
                break;
            }
        }
        return new ArrayList<>(picked);
    }

    /**
     * The value as it may be stored: a value that is a secret, e-mail, IBAN, card number, national id or phone
     * number becomes its placeholder; inside longer text each one is replaced where it stands ("Call Alice at
     * &lt;email&gt;"); then the value is cut to fifty characters. Replacing before cutting means a cut never
     * leaves half an identifier behind.
     */
    public static String redact(String raw) {
        return cut(redactText(raw));
    }

    /**
     * The redaction of {@link #redact} without the cut, for text served whole: a database comment is redacted as a
     * sample is, wherever it is stored, embedded, sent to a model or shown.
     */
    public static String redactText(String raw) {
        String value = raw.strip();
        for (ValueShape shape : REDACTED) {
            if (shape.test(value)) {
                return shape.placeholder();
            }
        }
        for (ValueShape shape : REDACTED) {
            value = shape.redactIn(value);
        }
        return value;
    }

    /**
     * At most fifty characters; placeholders the cut would drop are kept at the end instead of the text before
     * them, so the classifier still sees that a long note held an e-mail or a card number.
     */
    static String cut(String value) {
        if (value.length() <= MAX_LENGTH) {
            return value;
        }
        StringBuilder dropped = new StringBuilder();
        for (ValueShape shape : REDACTED) {
            if (value.indexOf(shape.placeholder(), MAX_LENGTH - shape.placeholder().length() + 1) >= 0
                    && dropped.length() + shape.placeholder().length() + 1 <= MAX_LENGTH / 2) {
                dropped.append(' ').append(shape.placeholder());
            }
        }
        return value.substring(0, MAX_LENGTH - dropped.length()) + dropped;
    }

    private static final List<ValueShape> REDACTED = ValueShape.REDACTION_ORDER;
}
