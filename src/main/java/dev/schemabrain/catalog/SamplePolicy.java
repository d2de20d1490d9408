package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What sample values a catalog may hold: at most five distinct values per column, each at most
 * fifty characters, none for columns whose names look sensitive or whose type is binary, and
 * values shaped like e-mails, card numbers or national ids replaced by a placeholder.
 * The full PII classifier refines this later; this is the floor applied while reading rows.
 */
public final class SamplePolicy {

    public static final int MAX_SAMPLES = 5;
    public static final int MAX_LENGTH = 50;

    private static final Set<String> SENSITIVE_WORDS = Set.of(
            "password", "passwd", "pwd", "passphrase", "secret", "ssn", "cvv", "cvc", "pin", "salt",
            "apikey", "passport", "iban", "otp", "totp", "mfa", "credential", "credentials");
    private static final List<String> SENSITIVE_PHRASES = List.of(
            "api_key", "access_token", "refresh_token", "auth_token", "session_token", "bearer_token",
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

    /** A name such as {@code password_hash}, {@code api_key} or {@code cardNumber}. */
    public static boolean looksSensitive(String columnName) {
        String snake = Identifiers.toSnakeCase(columnName);
        for (String word : snake.split("_")) {
            if (SENSITIVE_WORDS.contains(word)) {
                return true;
            }
        }
        for (String phrase : SENSITIVE_PHRASES) {
            if (snake.contains(phrase)) {
                return true;
            }
        }
        return false;
    }

    /** Up to five distinct, redacted, truncated, non-blank values, in first-seen order. */
    public static List<String> pick(Iterable<String> rawValues) {
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

    /** The value as it may be stored: e-mails, card numbers and national ids replaced, then cut to fifty characters. */
    public static String redact(String raw) {
        String value = raw.strip();
        for (ValueShape shape : List.of(ValueShape.EMAIL, ValueShape.NATIONAL_ID, ValueShape.PAYMENT_CARD)) {
            if (shape.test(value)) {
                return shape.placeholder();
            }
        }
        return value.length() <= MAX_LENGTH ? value : value.substring(0, MAX_LENGTH);
    }
}
