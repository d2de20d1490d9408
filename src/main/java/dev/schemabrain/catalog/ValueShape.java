package dev.schemabrain.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shapes of personal and secret values: what sampling redacts to a placeholder (as a whole value or inside free
 * text) and what the PII classifier's content rules look for.
 */
public enum ValueShape {

    /** A password hash, JWT, prefixed API key or random token; inside text also a secret assigned to its name. */
    SECRET("<secret>") {
        @Override
        public boolean test(String v) {
            return SecretShapes.isSecret(v);
        }

        @Override
        boolean findIn(String text) {
            return SecretShapes.occursIn(text);
        }

        @Override
        String replaceIn(String text) {
            return SecretShapes.redactIn(text, placeholder());
        }
    },
    EMAIL("<email>") {
        @Override
        public boolean test(String v) {
            return EMAIL_PATTERN.matcher(v).matches() || TextIdentifiers.obfuscatedEmail(v);
        }

        @Override
        Pattern finder() {
            return EMAIL_IN_TEXT;
        }

        @Override
        boolean findIn(String text) {
            return super.findIn(text) || TextIdentifiers.obfuscatedEmailIn(text);
        }

        @Override
        String replaceIn(String text) {
            return TextIdentifiers.redactObfuscatedEmails(super.replaceIn(text), placeholder());
        }
    },
    IBAN("<iban>") {
        @Override
        public boolean test(String v) {
            return IBAN_PATTERN.matcher(v).matches() && iban(v);
        }

        @Override
        Pattern finder() {
            return IBAN_IN_TEXT;
        }
    },
    PAYMENT_CARD("<card number>") {
        @Override
        public boolean test(String v) {
            String digits = v.replaceAll("[ .-]", "");
            // Some Chinese resident ids pass Luhn with a card's prefix; their own check and birth date say what they are.
            return CARD_PATTERN.matcher(v).matches() && card(digits)
                    && !(digits.length() == 18 && IdCheckDigits.cnResident(digits));
        }

        @Override
        Pattern finder() {
            return CARD_IN_TEXT;
        }
    },
    NATIONAL_ID("<national id>") {
        @Override
        public boolean test(String v) {
            return NationalIds.test(v);
        }

        /** Also an SSN without dashes or a passport number after its words ({@link TextIdentifiers}). */
        @Override
        boolean findIn(String text) {
            return super.findIn(text) || TextIdentifiers.SSN.findIn(text) || TextIdentifiers.PASSPORT.findIn(text);
        }

        @Override
        String replaceIn(String text) {
            String out = TextIdentifiers.SSN.replaceIn(super.replaceIn(text), placeholder());
            return TextIdentifiers.PASSPORT.replaceIn(out, placeholder());
        }
    },
    /** A date after words that say it is someone's birth ("DOB", "born", "geboren am"); a bare date is not one. */
    BIRTH_DATE("<birth date>") {
        @Override
        public boolean test(String v) {
            return false;
        }

        @Override
        boolean findIn(String text) {
            return TextIdentifiers.BIRTH_DATE.findIn(text);
        }

        @Override
        String replaceIn(String text) {
            return TextIdentifiers.BIRTH_DATE.replaceIn(text, placeholder());
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
    PHONE("<phone>") {
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
            return digits >= 9 && digits <= 15 && formatted && lastGroupLong && groupsLikeAPhone(v);
        }

        @Override
        Pattern finder() {
            return PHONE_IN_TEXT;
        }
    };

    /**
     * The order redaction replaces shapes in: secrets first (a key may contain digits a phone finder would take),
     * phone numbers last (the loosest shape, which would otherwise take the first groups of a card number).
     */
    public static final List<ValueShape> REDACTION_ORDER = List.of(SECRET, EMAIL, IBAN, PAYMENT_CARD, NATIONAL_ID,
            BIRTH_DATE, PHONE);

    private static final Pattern EMAIL_PATTERN = Pattern.compile("[^\\s@]+@[^\\s@]+\\.\\p{L}{2,}");
    private static final Pattern EMAIL_IN_TEXT = Pattern.compile("[\\p{L}0-9._%+'-]+@[\\p{L}0-9-]+(?:\\.[\\p{L}0-9-]+)*\\.\\p{L}{2,}");
    private static final Pattern CARD_PATTERN = Pattern.compile("\\d(?:[ .-]?\\d){12,18}");
    private static final Pattern CARD_IN_TEXT = Pattern.compile("(?<![\\d.-])\\d(?:[ .-]?\\d){12,18}(?![\\d-]|\\.\\d)");
    private static final Pattern IBAN_PATTERN = Pattern.compile("[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?");
    private static final Pattern IBAN_IN_TEXT = Pattern.compile("(?<![A-Z0-9])[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Z0-9])");
    private static final Pattern IPV6_PATTERN = Pattern.compile("[0-9A-Fa-f:]{2,39}(?:%\\w+)?");
    private static final Pattern MAC_PATTERN = Pattern.compile("[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}");
    private static final Pattern PHONE_PATTERN = Pattern.compile("\\+?[\\d\\s().-]{7,22}(?:\\s*(?:x|ext\\.?)\\s*\\d{1,5})?");
    /** A phone number in text: starts with + or a digit or "(", ends with a digit, nothing word-like around it. */
    private static final Pattern PHONE_IN_TEXT = Pattern.compile("(?<![\\w.+/:-])(?:\\+|\\()?\\d[\\d ().-]{6,20}\\d(?![\\w/:-]|\\.\\d)");
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

    /** Whether {@code value} (stripped) has this shape. */
    public abstract boolean test(String value);

    /** Whether {@code value} has this shape or is the placeholder sampling left for one. */
    public boolean matches(String value) {
        return value.equals(placeholder) || test(value);
    }

    /**
     * Whether a value of this shape, or the placeholder redaction left for one, occurs anywhere inside {@code text}.
     * IP and MAC addresses are not looked for in text (version strings and times look alike).
     */
    public boolean occursIn(String text) {
        return placeholder != null && (text.contains(placeholder) || findIn(text));
    }

    /** {@code text} with every value of this shape inside it replaced by the placeholder. */
    public String redactIn(String text) {
        return placeholder == null ? text : replaceIn(text);
    }

    boolean findIn(String text) {
        Matcher m = matcherIn(text);
        while (m.find()) {
            if (validLength(m.group()) > 0) {
                return true;
            }
        }
        return false;
    }

    String replaceIn(String text) {
        Matcher m = matcherIn(text);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            int length = validLength(m.group());
            if (length > 0) {
                out.append(text, last, m.start()).append(placeholder);
                last = m.start() + length;
            }
        }
        return out.append(text.substring(last)).toString();
    }

    /**
     * The length of the longest start of a candidate that has this shape, or 0. A finder is greedy: in
     * "+1 (646) 555-0142 - 8 years" it takes "+1 (646) 555-0142 - 8", and the phone number is its start.
     */
    private int validLength(String candidate) {
        for (int end = candidate.length(); end > 0; end--) {
            if (Character.isLetterOrDigit(candidate.charAt(end - 1))
                    && (end == candidate.length() || !Character.isLetterOrDigit(candidate.charAt(end)))
                    && test(candidate.substring(0, end).strip())) {
                return end;
            }
        }
        return 0;
    }

    private Matcher matcherIn(String text) {
        return this == NATIONAL_ID ? NationalIds.inText(text) : finder().matcher(text);
    }

    Pattern finder() {
        throw new UnsupportedOperationException(name() + " is not looked for inside text");
    }

    /**
     * Codes written with dashes (drug codes 0002-3227-30, air waybills 176-12345675, account numbers) look like
     * phone numbers; their groups do not: a phone number ends in a two-digit group only when it is written in pairs
     * (06 12 34 56 78), and a group of seven or more digits follows a country or area code.
     */
    static boolean groupsLikeAPhone(String v) {
        String[] groups = v.replaceAll("(?:\\s*(?:x|ext\\.?)\\s*\\d{1,5})$", "").split("\\D+");
        List<String> g = Arrays.stream(groups).filter(s -> !s.isEmpty()).toList();
        if (g.size() >= 2 && g.get(g.size() - 1).length() == 2 && g.size() < 4) {
            return false;
        }
        boolean coded = v.startsWith("+") || v.startsWith("(");
        return coded || g.stream().noneMatch(s -> s.length() >= 7) || g.size() == 1;
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

    /** An IBAN's mod-97 check: the country and check digits moved to the end, letters as numbers. */
    static boolean iban(String value) {
        String v = value.replace(" ", "");
        if (v.length() < 15 || v.length() > 34) {
            return false;
        }
        String moved = v.substring(4) + v.substring(0, 4);
        int remainder = 0;
        for (char c : moved.toCharArray()) {
            int n = Character.isDigit(c) ? c - '0' : c - 'A' + 10;
            remainder = (n > 9 ? remainder * 100 + n : remainder * 10 + n) % 97;
        }
        return remainder == 1;
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
        return digits.length() >= 13 && digits.length() <= 19 && luhnAnyLength(digits);
    }

    static boolean luhnAnyLength(String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
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
