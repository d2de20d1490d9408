package dev.schemabrain.catalog;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Shapes of personal values: what sampling redacts to a placeholder and what the PII classifier's
 * content rules look for.
 */
public enum ValueShape {

    EMAIL("<email>") {
        @Override
        public boolean test(String v) {
            return EMAIL_PATTERN.matcher(v).matches();
        }
    },
    PAYMENT_CARD("<card number>") {
        @Override
        public boolean test(String v) {
            return CARD_PATTERN.matcher(v).matches() && card(v.replaceAll("[ -]", ""));
        }

        @Override
        public boolean occursIn(String text) {
            java.util.regex.Matcher m = CARD_IN_TEXT.matcher(text);
            while (m.find()) {
                if (card(m.group().replaceAll("[ -]", ""))) {
                    return true;
                }
            }
            return false;
        }
    },
    NATIONAL_ID("<national id>") {
        @Override
        public boolean test(String v) {
            return NATIONAL_ID_PATTERN.matcher(v.toUpperCase(Locale.ROOT)).matches();
        }
    },
    IP_ADDRESS(null) {
        @Override
        public boolean test(String v) {
            // Full IPv6 has seven colons and a compressed one "::"; a time of day has two.
            return ipv4(v) || IPV6_PATTERN.matcher(v).matches() && (v.contains("::") || v.chars().filter(c -> c == ':').count() == 7);
        }
    },
    MAC_ADDRESS(null) {
        @Override
        public boolean test(String v) {
            return MAC_PATTERN.matcher(v).matches();
        }
    },
    PHONE(null) {
        @Override
        public boolean test(String v) {
            if (!PHONE_PATTERN.matcher(v).matches() || DATE_PATTERN.matcher(v).find() || ipv4(v)
                    || NATIONAL_ID.test(v) || PAYMENT_CARD.test(v)) {
                return false;
            }
            long digits = v.chars().filter(Character::isDigit).count();
            // A bare run of digits is an id or an amount; a phone number has a + or separators.
            boolean formatted = v.startsWith("+") || v.matches(".*\\d[\\s().-]+\\d.*");
            // ISBNs and similar codes end in a single check digit; a phone number's last group is longer.
            boolean lastGroupLong = v.matches(".*\\d\\d(?:\\s*(?:x|ext\\.?)\\s*\\d{1,5})?$");
            return digits >= 9 && digits <= 15 && formatted && lastGroupLong;
        }
    };

    private static final Pattern EMAIL_PATTERN = Pattern.compile("[^\\s@]+@[^\\s@]+\\.\\p{L}{2,}");
    private static final Pattern CARD_PATTERN = Pattern.compile("\\d(?:[ -]?\\d){12,18}");
    /** US SSN, UK National Insurance number, Spanish DNI, French INSEE number with its separators. */
    private static final Pattern NATIONAL_ID_PATTERN = Pattern.compile(
            "\\d{3}-\\d{2}-\\d{4}|[A-CEGHJ-PR-TW-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]|\\d{8}-?[A-Z]|[12] \\d{2} \\d{2} \\d{2} \\d{3} \\d{3}(?: \\d{2})?");
    private static final Pattern CARD_IN_TEXT = Pattern.compile("(?<![\\d-])\\d(?:[ -]?\\d){12,18}(?![\\d-])");
    private static final Pattern SSN_IN_TEXT = Pattern.compile("(?<![\\d-])\\d{3}-\\d{2}-\\d{4}(?![\\d-])");
    private static final Pattern IPV6_PATTERN = Pattern.compile("[0-9A-Fa-f:]{2,39}(?:%\\w+)?");
    private static final Pattern MAC_PATTERN = Pattern.compile("[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}");
    private static final Pattern PHONE_PATTERN = Pattern.compile("\\+?[\\d\\s().-]{7,22}(?:\\s*(?:x|ext\\.?)\\s*\\d{1,5})?");
    private static final Pattern DATE_PATTERN = Pattern.compile("\\d{4}-\\d{2}-\\d{2}|\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}$");

    private final String placeholder;

    ValueShape(String placeholder) {
        this.placeholder = placeholder;
    }

    /** What sampling stores instead of such a value, or null when it keeps the value. */
    public String placeholder() {
        return placeholder;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a value of this shape occurs anywhere inside {@code text}; only card numbers and SSNs are looked for. */
    public boolean occursIn(String text) {
        return this == NATIONAL_ID && SSN_IN_TEXT.matcher(text).find();
    }

    /** Whether {@code value} (stripped) has this shape. */
    public abstract boolean test(String value);

    /** Whether {@code value} has this shape or is the placeholder sampling left for one. */
    public boolean matches(String value) {
        return value.equals(placeholder) || test(value);
    }

    static boolean ipv4(String v) {
        String[] parts = v.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    /**
     * Luhn-valid and of a length its issuer uses: an IMEI is 15 Luhn-valid digits too, but no card network
     * issues 15 digits outside American Express (34, 37).
     */
    static boolean card(String digits) {
        if (!luhn(digits)) {
            return false;
        }
        int n = digits.length();
        char first = digits.charAt(0);
        if (digits.startsWith("34") || digits.startsWith("37")) {
            return n == 15;
        }
        if (first == '4') {
            return n == 13 || n == 16 || n == 19;
        }
        return n >= 14 && n != 15 && (first == '2' || first == '3' || first == '5' || first == '6');
    }

    static boolean luhn(String digits) {
        if (digits.length() < 13 || digits.length() > 19 || !digits.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }
}
