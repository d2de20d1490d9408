package dev.schemabrain.catalog;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * National identity numbers by their written form, with the check digit where the format has one, so a run of
 * digits that merely has the right length is not taken for one. Formats: US SSN, UK National Insurance number,
 * Spanish DNI and NIE, French INSEE number, Italian codice fiscale, Brazilian CPF, Nordic personal numbers
 * (Swedish personnummer with its Luhn digit, Danish CPR, Finnish HETU with its check character), Singapore NRIC/FIN,
 * Indian Aadhaar (grouped) and PAN, Mexican CURP, UK driving licence, Australian TFN (grouped, with its check),
 * Polish PESEL, French NIR without spaces (with its key), Chinese resident id and Florida driver's licence (dashed).
 * Numbers that only a column of them shows to be identifiers (nine digits) are {@link GovernmentIds}'.
 */
final class NationalIds {

    private record Format(Pattern pattern, Predicate<String> valid) {
    }

    /** Formats distinctive enough to be looked for inside free text: separators or letters fix their shape. */
    private static final List<Format> DISTINCT = List.of(
            new Format(Pattern.compile("\\d{3}-\\d{2}-\\d{4}"), v -> true),
            new Format(Pattern.compile("[A-CEGHJ-PR-TW-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]"), v -> true),
            new Format(Pattern.compile("[XYZ]-?\\d{7}-?[A-Z]"), v -> true),
            new Format(Pattern.compile("[12] \\d{2} \\d{2} \\d{2} \\d{3} \\d{3}(?: \\d{2})?"), v -> true),
            new Format(Pattern.compile("[A-Z]{6}\\d{2}[ABCDEHLMPRST]\\d{2}[A-Z]\\d{3}[A-Z]"), v -> true),
            new Format(Pattern.compile("\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}"), NationalIds::cpf),
            new Format(Pattern.compile("(?:19|20)?\\d{6}[-+]\\d{4}"), NationalIds::nordicDigits),
            new Format(Pattern.compile("\\d{6}[-+A-FU-Y]\\d{3}[0-9A-Y]"), NationalIds::hetu),
            new Format(Pattern.compile("[STFGM]\\d{7}[A-Z]"), v -> true),
            new Format(Pattern.compile("[2-9]\\d{3} \\d{4} \\d{4}"), v -> true),
            new Format(Pattern.compile("[A-Z]{3}[ABCFGHLJPT][A-Z]\\d{4}[A-Z]"), v -> true),
            new Format(Pattern.compile("[A-Z]{4}\\d{6}[HMX][A-Z]{5}[0-9A-Z]\\d"), v -> true),
            new Format(Pattern.compile("[A-Z9]{5}\\d[0156]\\d{4}[A-Z9]{2}\\d[A-Z]{2}"), v -> true),
            new Format(Pattern.compile("\\d{3} \\d{3} \\d{3}"), NationalIds::tfn),
            // Florida driver's licence as the state prints it: a letter, then 3-3-2-3-1 digits.
            new Format(Pattern.compile("[A-Z]\\d{3}-\\d{3}-\\d{2}-\\d{3}-\\d"),
                    v -> IdCheckDigits.usFloridaLicence(v.replace("-", ""))));
    /** Formats only recognised as a whole value: in text, a run of digits is too often something else. */
    private static final List<Format> WHOLE_ONLY = List.of(
            new Format(Pattern.compile("\\d{8}-?[A-Z]"), v -> true),
            new Format(Pattern.compile("\\d{11}"), NationalIds::pesel),
            // Long enough, and checked enough, to be one alone: a French NIR with its key, a Chinese resident id.
            new Format(Pattern.compile("[12]\\d{4}(?:\\d{2}|2A|2B)\\d{8}"), IdCheckDigits::frNir),
            new Format(Pattern.compile("\\d{17}[\\dX]"), IdCheckDigits::cnResident));
    private static final Pattern IN_TEXT;

    static {
        StringBuilder any = new StringBuilder("(?<![\\w.-])(?<!\\d[ .])(?:");
        for (int i = 0; i < DISTINCT.size(); i++) {
            any.append(i == 0 ? "" : "|").append(DISTINCT.get(i).pattern().pattern());
        }
        IN_TEXT = Pattern.compile(any.append(")(?![\\w-]|[. ]\\d)").toString());
    }

    private NationalIds() {
    }

    static boolean test(String value) {
        String v = value.toUpperCase(Locale.ROOT);
        for (List<Format> formats : List.of(DISTINCT, WHOLE_ONLY)) {
            for (Format f : formats) {
                if (f.pattern().matcher(v).matches() && f.valid().test(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Candidates for national ids of a distinctive format in {@code text}; {@link #test} decides which are. */
    static Matcher inText(String text) {
        return IN_TEXT.matcher(text);
    }

    private static boolean cpf(String v) {
        return IdCheckDigits.brCpf(v.replaceAll("\\D", ""));
    }

    /** Swedish personnummer (Luhn over ten digits) or Danish CPR (a valid day and month first). */
    private static boolean nordicDigits(String v) {
        String d = v.replaceAll("\\D", "");
        String ten = d.substring(d.length() - 10);
        if (ValueShape.luhnAnyLength(ten)) {
            return true;
        }
        int day = Integer.parseInt(ten.substring(0, 2));
        int month = Integer.parseInt(ten.substring(2, 4));
        return day >= 1 && day <= 31 && month >= 1 && month <= 12;
    }

    private static boolean hetu(String v) {
        String digits = v.substring(0, 6) + v.substring(7, 10);
        return "0123456789ABCDEFHJKLMNPRSTUVWXY".charAt((int) (Long.parseLong(digits) % 31)) == v.charAt(10);
    }

    private static boolean tfn(String v) {
        int[] w = {1, 4, 3, 7, 5, 8, 6, 9, 10};
        String d = v.replace(" ", "");
        int sum = 0;
        for (int i = 0; i < 9; i++) {
            sum += (d.charAt(i) - '0') * w[i];
        }
        return sum % 11 == 0;
    }

    private static boolean pesel(String v) {
        int[] w = {1, 3, 7, 9, 1, 3, 7, 9, 1, 3};
        int sum = 0;
        for (int i = 0; i < 10; i++) {
            sum += (v.charAt(i) - '0') * w[i];
        }
        int month = Integer.parseInt(v.substring(2, 4)) % 20;
        int day = Integer.parseInt(v.substring(4, 6));
        return (10 - sum % 10) % 10 == v.charAt(10) - '0' && month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }
}
