package dev.schemabrain.catalog;

import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Identifiers as people write them in tickets and notes, which only their context tells apart from any other number
 * or phrase: an SSN without dashes after its name ("SSN 123456789", never nine digits alone, and only an SSN that
 * could be issued), a passport number after the word passport in five languages, a date of birth after "DOB",
 * "born", "geboren am", "fecha de nacimiento"…, and an e-mail address written "name (at) domain (dot) com" (a bare
 * "at … dot …" only with a known top-level domain, so "at home dot later" stays). Only the value is replaced; the
 * words before it stay, so the text still reads.
 */
final class TextIdentifiers {

    /** A context (group 1, kept) and a value (group 2, replaced), and a check of the value. */
    record Contextual(Pattern pattern, Predicate<String> valid) {

        boolean findIn(String text) {
            Matcher m = pattern.matcher(text);
            while (m.find()) {
                if (valid.test(m.group(2))) {
                    return true;
                }
            }
            return false;
        }

        String replaceIn(String text, String placeholder) {
            Matcher m = pattern.matcher(text);
            StringBuilder out = new StringBuilder();
            int last = 0;
            while (m.find()) {
                if (valid.test(m.group(2))) {
                    out.append(text, last, m.start(2)).append(placeholder);
                    last = m.end(2);
                }
            }
            return out.append(text.substring(last)).toString();
        }
    }

    private static final String NUMBER_WORD = "(?:\\s*(?:number|num|no\\.?|nr\\.?|n[°º]\\.?|#|nummer|n[úu]mero|num[ée]ro))?";

    static final Contextual SSN = new Contextual(Pattern.compile(
            "((?i:\\b(?:ssn|ss#|social\\s+security|soc\\.?\\s*sec\\.?)" + NUMBER_WORD
                    + ")\\s*(?:[:#=]|is)?\\s*)(\\d{9}|\\d{3} \\d{2} \\d{4})(?![\\d-])"), TextIdentifiers::ssn);

    static final Contextual PASSPORT = new Contextual(Pattern.compile(
            "((?i:\\b(?:passport|passeport|pasaporte|passaporto|passaporte|reisepass)" + NUMBER_WORD
                    + ")\\s*(?:[:#=]|is)?\\s*)([A-Z0-9]{6,9})(?![\\p{L}0-9])"),
            v -> v.chars().filter(Character::isDigit).count() >= 2);

    private static final String MONTH = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
    private static final String DATE = "(?i:\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}[./-]\\d{1,2}[./-](?:\\d{4}|\\d{2})"
            + "|\\d{1,2}\\s+" + MONTH + "\\s+\\d{4}|" + MONTH + "\\s+\\d{1,2},?\\s+\\d{4})";

    static final Contextual BIRTH_DATE = new Contextual(Pattern.compile(
            "((?i:\\b(?:dob|d\\.o\\.b\\.?|date\\s+of\\s+birth|birth\\s*date|birthday|born(?:\\s+on)?|geboren(?:\\s+am)?"
                    + "|geb\\.|geburtsdatum|fecha\\s+de\\s+nacimiento|nacid[oa](?:\\s+el)?|n[ée]e?\\s+le"
                    + "|date\\s+de\\s+naissance|nat[oa]\\s+il|data\\s+di\\s+nascita|nascid[oa]\\s+em"
                    + "|data\\s+de\\s+nascimento)(?![\\p{L}]))\\s*[:=]?\\s*)(" + DATE + ")(?![\\d])"), v -> true);

    private static final String LOCAL = "[\\p{L}0-9._%+'-]+";
    private static final String LABEL = "[\\p{L}0-9-]+";
    private static final String AT_MARKED = "(?:\\s*[(\\[{<]\\s*(?i:at|@)\\s*[)\\]}>]\\s*|\\s+@\\s+)";
    private static final String DOT_MARKED = "(?:\\s*[(\\[{<]\\s*(?i:dot|\\.)\\s*[)\\]}>]\\s*|\\s+(?i:dot)\\s+)";
    private static final String TLDS = "(?i:com|org|net|edu|gov|io|info|biz|eu|de|es|fr|it|pt|br|uk|co|nl|be|ch|at"
            + "|se|no|dk|fi|pl|ie|us|ca|au|nz|in|jp|cn|mx|ar|cl)";
    /** "name (at) domain.com", "name [at] domain (dot) com", "name @ domain.com": the marks say it is an address. */
    private static final Pattern MARKED = Pattern.compile("(?<![\\p{L}0-9._%+'-])" + LOCAL + AT_MARKED + LABEL
            + "(?:(?:\\." + "|" + DOT_MARKED + ")" + LABEL + ")*(?:\\.|" + DOT_MARKED + ")\\p{L}{2,}(?![\\p{L}0-9])");
    /** "name at domain dot com": plain words, so only with a spelled-out dot and a known top-level domain. */
    private static final Pattern WORDS = Pattern.compile("(?<![\\p{L}0-9._%+'-])" + LOCAL + "\\s+(?i:at)\\s+" + LABEL
            + "(?:" + DOT_MARKED + LABEL + ")*" + DOT_MARKED + TLDS + "(?![\\p{L}0-9])");

    private TextIdentifiers() {
    }

    /** Whether the whole value is an obfuscated e-mail address. */
    static boolean obfuscatedEmail(String value) {
        return MARKED.matcher(value).matches() || WORDS.matcher(value).matches();
    }

    static boolean obfuscatedEmailIn(String text) {
        return MARKED.matcher(text).find() || WORDS.matcher(text).find();
    }

    static String redactObfuscatedEmails(String text, String placeholder) {
        String once = MARKED.matcher(text).replaceAll(Matcher.quoteReplacement(placeholder));
        return WORDS.matcher(once).replaceAll(Matcher.quoteReplacement(placeholder));
    }

    /** An SSN the Social Security Administration could have issued: no area 000, 666 or 9xx, group 00, serial 0000. */
    static boolean ssn(String value) {
        String d = value.replace(" ", "");
        int area = Integer.parseInt(d.substring(0, 3));
        return area != 0 && area != 666 && area < 900 && !d.startsWith("00", 3) && !d.endsWith("0000");
    }
}
