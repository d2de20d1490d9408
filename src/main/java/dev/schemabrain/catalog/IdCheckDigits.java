package dev.schemabrain.catalog;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Set;

/**
 * The check digits and validity rules of government identifiers, one method per country's number. Each takes the
 * value without separators, upper case, of the right length and alphabet (the caller's pattern has checked that), and
 * answers whether the issuing authority could have issued it.
 */
final class IdCheckDigits {

    private IdCheckDigits() {
    }

    /** US SSN: no area 000, 666 or 900-999, no group 00, no serial 0000. */
    static boolean usSsn(String d) {
        return TextIdentifiers.ssn(d);
    }

    /** US ITIN: area 9xx and a group of 50-65, 70-88, 90-92 or 94-99 (the IRS's ranges). */
    static boolean usItin(String d) {
        int group = Integer.parseInt(d.substring(3, 5));
        return d.charAt(0) == '9' && (group >= 50 && group <= 65 || group >= 70 && group <= 88
                || group >= 90 && group <= 92 || group >= 94);
    }

    /** An ABA bank routing number (weights 3, 7, 1): a column of these is not a column of SSNs. */
    static boolean abaRouting(String d) {
        int sum = 0;
        for (int i = 0; i < 9; i++) {
            sum += (d.charAt(i) - '0') * new int[]{3, 7, 1}[i % 3];
        }
        return sum % 10 == 0;
    }

    /** Canadian SIN: Luhn over nine digits; no SIN starts with 0 or 8. */
    static boolean caSin(String d) {
        return d.charAt(0) != '0' && d.charAt(0) != '8' && ValueShape.luhnAnyLength(d);
    }

    /** Dutch BSN: the "11-test", weights 9..2 and -1 for the last digit. */
    static boolean nlBsn(String d) {
        int sum = 0;
        for (int i = 0; i < 8; i++) {
            sum += (d.charAt(i) - '0') * (9 - i);
        }
        sum -= d.charAt(8) - '0';
        return sum % 11 == 0 && !d.equals("000000000");
    }

    /** Brazilian CPF: two mod-11 check digits; eleven equal digits pass them and are never issued. */
    static boolean brCpf(String d) {
        if (d.chars().distinct().count() == 1) {
            return false;
        }
        for (int k = 9; k <= 10; k++) {
            int sum = 0;
            for (int i = 0; i < k; i++) {
                sum += (d.charAt(i) - '0') * (k + 1 - i);
            }
            if (sum * 10 % 11 % 10 != d.charAt(k) - '0') {
                return false;
            }
        }
        return true;
    }

    /**
     * German Steuer-ID: no leading 0; in the first ten digits one digit appears twice or three times and the others
     * at most once; the eleventh is the ISO 7064 MOD 11,10 check digit.
     */
    static boolean deSteuerId(String d) {
        if (d.charAt(0) == '0') {
            return false;
        }
        int[] counts = new int[10];
        for (int i = 0; i < 10; i++) {
            counts[d.charAt(i) - '0']++;
        }
        int repeated = 0;
        for (int c : counts) {
            if (c > 3) {
                return false;
            }
            repeated += c >= 2 ? 1 : 0;
        }
        if (repeated != 1) {
            return false;
        }
        int product = 10;
        for (int i = 0; i < 10; i++) {
            int sum = (d.charAt(i) - '0' + product) % 10;
            product = (sum == 0 ? 10 : sum) * 2 % 11;
        }
        int check = 11 - product;
        return (check == 10 ? 0 : check) == d.charAt(10) - '0';
    }

    /**
     * French NIR (INSEE number), 15 characters: sex 1-4, 7 or 8; a month 01-12 or 20-99 (unknown or special
     * months); Corsica's departments 2A and 2B; key = 97 - (first 13 digits mod 97).
     */
    static boolean frNir(String v) {
        char sex = v.charAt(0);
        int month = Integer.parseInt(v.substring(3, 5));
        if ("123478".indexOf(sex) < 0 || month == 0 || month > 12 && month < 20) {
            return false;
        }
        String digits = v.substring(0, 5) + v.substring(5, 7).replace("2A", "19").replace("2B", "18") + v.substring(7, 13);
        if (!digits.chars().allMatch(Character::isDigit)) {
            return false;
        }
        return 97 - Long.parseLong(digits) % 97 == Integer.parseInt(v.substring(13));
    }

    /** Chinese resident identity number: a real birth date and the ISO 7064 MOD 11-2 check character (0-9 or X). */
    static boolean cnResident(String v) {
        if (!birthDate(v.substring(6, 10), v.substring(10, 12), v.substring(12, 14))) {
            return false;
        }
        int[] w = {7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2};
        int sum = 0;
        for (int i = 0; i < 17; i++) {
            sum += (v.charAt(i) - '0') * w[i];
        }
        return "10X98765432".charAt(sum % 11) == v.charAt(17);
    }

    private static boolean birthDate(String year, String month, String day) {
        int y = Integer.parseInt(year);
        if (y < 1900 || y > LocalDate.now().getYear()) {
            return false;
        }
        try {
            LocalDate.of(y, Integer.parseInt(month), Integer.parseInt(day));
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    private static final int[] CF_ODD = {1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10,
            22, 25, 24, 23};

    /** Italian codice fiscale: the 16th character is the check letter of the first fifteen. */
    static boolean itCodiceFiscale(String v) {
        int sum = 0;
        for (int i = 0; i < 15; i++) {
            char c = v.charAt(i);
            int n = Character.isDigit(c) ? c - '0' : c - 'A';
            sum += i % 2 == 0 ? CF_ODD[n] : n;
        }
        return (char) ('A' + sum % 26) == v.charAt(15);
    }

    /** Spanish DNI (8 digits) and NIE (X, Y or Z for 0, 1, 2, then 7 digits): the letter of the number mod 23. */
    static boolean esDniNie(String v) {
        String number = v.substring(0, v.length() - 1);
        char first = number.charAt(0);
        if (first >= 'X' && first <= 'Z') {
            number = (first - 'X') + number.substring(1);
        }
        return "TRWAGMYFPDXBNJZSQVHLCKE".charAt(Integer.parseInt(number) % 23) == v.charAt(v.length() - 1);
    }

    private static final int[][] VERHOEFF_D = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5},
            {2, 3, 4, 0, 1, 7, 8, 9, 5, 6}, {3, 4, 0, 1, 2, 8, 9, 5, 6, 7}, {4, 0, 1, 2, 3, 9, 5, 6, 7, 8},
            {5, 9, 8, 7, 6, 0, 4, 3, 2, 1}, {6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3},
            {8, 7, 6, 5, 9, 3, 2, 1, 0, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}};
    private static final int[][] VERHOEFF_P = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4},
            {5, 8, 0, 3, 7, 9, 6, 1, 4, 2}, {8, 9, 1, 6, 0, 4, 3, 5, 2, 7}, {9, 4, 5, 3, 1, 2, 7, 8, 6, 0},
            {4, 2, 8, 6, 5, 7, 3, 9, 0, 1}, {2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8}};

    /** Indian Aadhaar: 12 digits, the first 2-9, the last a Verhoeff check digit. */
    static boolean inAadhaar(String d) {
        if (d.charAt(0) < '2') {
            return false;
        }
        int c = 0;
        for (int i = 0; i < d.length(); i++) {
            c = VERHOEFF_D[c][VERHOEFF_P[i % 8][d.charAt(d.length() - 1 - i) - '0']];
        }
        return c == 0;
    }

    /** UK National Insurance number prefixes never issued (besides D, F, I, Q, U, V anywhere and O second). */
    static boolean ukNino(String v) {
        String prefix = v.substring(0, 2);
        return !Set.of("BG", "GB", "NK", "KN", "TN", "NT", "ZZ").contains(prefix)
                && "DFIQUV".indexOf(v.charAt(0)) < 0 && "DFIQUVO".indexOf(v.charAt(1)) < 0;
    }

    /**
     * Florida driver's licence (a letter and 12 digits): digits 9-11 (after the letter) code the birth month and day as
     * (month - 1) * 40 + day, plus 500 for women.
     */
    static boolean usFloridaLicence(String v) {
        int code = Integer.parseInt(v.substring(9, 12)) % 500;
        int month = (code - 1) / 40 + 1;
        int day = (code - 1) % 40 + 1;
        return code >= 1 && month <= 12 && day <= 31;
    }
}
