package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Whether a column's values, taken together, are government identifiers, whatever the column is called and however
 * the values are punctuated ({@code 123-45-6789}, {@code 123456789}, {@code 123 45 6789} alike). One value of nine
 * digits proves nothing; a column of them can: the check digits and validity rules of each format
 * ({@link IdCheckDigits}) are weighed against how many of the column's distinct values pass them, so that a column
 * of order numbers, tickets or phone numbers is not taken for a column of SSNs.
 *
 * <p>Three strengths, by the chance that a random value of the right shape passes:
 * <ul>
 *   <li>{@code STRONG}, a check of 1 in 23 or less, or letters in a fixed place: two values and 60% of the column;</li>
 *   <li>{@code CHECKED}, a check digit a random number passes 1 time in 10 or 11: three values, 80% of the column,
 *       and values spread over several leading digits (consecutive numbers share them);</li>
 *   <li>{@code WEAK}, validity rules only (an SSN's area, group and serial, which nine random digits pass nine times
 *       in ten, SSN or ITIN): as {@code CHECKED}, and besides no value of the shape may fail the rules (one in a
 *       hundred may: a typing error), the column's name must not say it is something else ({@code ticket_no},
 *       {@code order_ref}), and a column whose values are all bank routing numbers is not one of SSNs. Five random
 *       nine-digit numbers pass about two times in three (nothing tells them from SSNs; tagging them only withholds
 *       them); a hundred, as sampling reads them, fewer than one time in a hundred.</li>
 * </ul>
 * Left out on purpose: a US EIN names a business; a UK UTR (ten digits) and a US state's licence of seven to nine
 * digits are no different from any other number of that length, so only their column names tag them.
 */
public final class GovernmentIds {

    enum Strength {
        STRONG(2, 0.6), CHECKED(3, 0.8), WEAK(3, 0.8);

        final int minimum;
        final double share;

        Strength(int minimum, double share) {
            this.minimum = minimum;
            this.share = share;
        }
    }

    /** A format: its name, its shape without separators, its check, and what a column of it must also show. */
    private record Format(String name, Pattern shape, Predicate<String> valid, Strength strength,
                          Predicate<List<String>> column) {
    }

    private static final List<Format> FORMATS = List.of(
            new Format("br_cpf", Pattern.compile("\\d{11}"), IdCheckDigits::brCpf, Strength.STRONG, c -> true),
            new Format("de_steuer_id", Pattern.compile("[1-9]\\d{10}"), IdCheckDigits::deSteuerId, Strength.STRONG, c -> true),
            new Format("fr_nir", Pattern.compile("[1-478]\\d{4}(?:\\d{2}|2A|2B)\\d{8}"), IdCheckDigits::frNir,
                    Strength.STRONG, c -> true),
            new Format("cn_resident_id", Pattern.compile("\\d{17}[\\dX]"), IdCheckDigits::cnResident, Strength.STRONG, c -> true),
            new Format("it_codice_fiscale", Pattern.compile("[A-Z]{6}\\d{2}[ABCDEHLMPRST]\\d{2}[A-Z]\\d{3}[A-Z]"),
                    IdCheckDigits::itCodiceFiscale, Strength.STRONG, c -> true),
            new Format("es_dni_nie", Pattern.compile("\\d{8}[A-Z]|[XYZ]\\d{7}[A-Z]"), IdCheckDigits::esDniNie,
                    Strength.STRONG, c -> true),
            new Format("in_pan", Pattern.compile("[A-Z]{3}[ABCFGHJLPT][A-Z]\\d{4}[A-Z]"), v -> true, Strength.STRONG, c -> true),
            new Format("uk_nino", Pattern.compile("[A-Z]{2}\\d{6}[A-D]"), IdCheckDigits::ukNino, Strength.STRONG, c -> true),
            new Format("uk_driving_licence", Pattern.compile("[A-Z9]{5}\\d[0156]\\d{4}[A-Z9]{2}\\d[A-Z]{2}"), v -> true,
                    Strength.STRONG, c -> true),
            new Format("in_aadhaar", Pattern.compile("\\d{12}"), IdCheckDigits::inAadhaar, Strength.CHECKED, c -> true),
            new Format("ca_sin", Pattern.compile("\\d{9}"), IdCheckDigits::caSin, Strength.CHECKED, c -> true),
            new Format("nl_bsn", Pattern.compile("\\d{9}"), IdCheckDigits::nlBsn, Strength.CHECKED, c -> true),
            new Format("us_fl_driver_licence", Pattern.compile("[A-Z]\\d{12}"), IdCheckDigits::usFloridaLicence,
                    Strength.CHECKED, c -> true),
            // An integer column drops an SSN's leading zeros: seven or eight digits, most of the column still nine.
            new Format("us_ssn_itin", Pattern.compile("\\d{7,9}"), v -> ssnOrItin(nine(v)), Strength.WEAK,
                    c -> c.stream().filter(v -> v.length() == 9).count() * 10 >= c.size() * 6L
                            && !c.stream().allMatch(v -> v.length() == 9 && IdCheckDigits.abaRouting(v))),
            // California: a letter and seven digits; product codes share their letter, people's licences do not.
            new Format("us_ca_driver_licence", Pattern.compile("[A-Z]\\d{7}"), v -> true, Strength.WEAK,
                    c -> c.stream().map(v -> v.charAt(0)).distinct().count() >= 2));

    /** Separators people write identifiers with. */
    private static final Pattern WRITTEN = Pattern.compile("[A-Z0-9]+(?:[ ./-][A-Z0-9]+){0,6}");
    private static final Pattern SEPARATORS = Pattern.compile("[ ./-]");
    /** A US employer identification number as written (two digits, a dash, seven): a business's, kept as written. */
    private static final Pattern EIN = Pattern.compile("\\d{2}-\\d{7}");
    /** Words in a column's name that say its numbers are something else than a person's identifier. */
    private static final Set<String> SOMETHING_ELSE = Set.of("order", "orders", "ticket", "tickets", "invoice",
            "invoices", "pallet", "serial", "tracking", "track", "booking", "receipt", "transaction", "txn", "sku",
            "isbn", "ean", "upc", "gtin", "barcode", "routing", "aba", "account", "acct", "phone", "tel", "mobile",
            "fax", "zip", "postcode", "batch", "lot", "shipment", "parcel", "container", "awb", "waybill",
            "confirmation", "product", "part", "item", "model", "amount", "price", "qty", "quantity", "count", "total",
            "seq", "sequence", "epoch", "timestamp", "ts", "version", "build", "move", "movement", "policy", "claim",
            "case", "contract", "meter", "device", "imei", "msisdn", "vin", "plate", "route", "flight", "room", "page",
            "stock", "warehouse", "ein", "fein", "vat", "duns");

    private GovernmentIds() {
    }

    /**
     * The name of the government identifier format a column of these values is written in, if any: see the class
     * comment. {@code columnName} may be null (nothing then says the values are something else).
     */
    public static Optional<String> column(String columnName, Collection<String> rawValues) {
        List<String> values = normalized(rawValues);
        if (values.size() < Strength.STRONG.minimum) {
            return Optional.empty();
        }
        boolean named = columnName != null && namesSomethingElse(columnName);
        for (Format f : FORMATS) {
            if (f.strength() == Strength.WEAK && named) {
                continue;
            }
            List<String> shaped = values.stream().filter(v -> f.shape().matcher(v).matches()).toList();
            List<String> passing = shaped.stream().filter(f.valid()).toList();
            if (passing.size() < f.strength().minimum || passing.size() < f.strength().share * values.size()) {
                continue;
            }
            if (f.strength() != Strength.STRONG && !spread(passing)) {
                continue;
            }
            if (f.strength() == Strength.WEAK && shaped.size() - passing.size() > values.size() / 100) {
                continue;
            }
            if (f.column().test(passing)) {
                return Optional.of(f.name());
            }
        }
        return Optional.empty();
    }

    /**
     * Distinct values, upper case, separators removed; blank values and fillers of one repeated character
     * ({@code 000000000}, {@code 999-99-9999}: "unknown") left out; values that are not written as an identifier
     * is (letters and digits in up to seven groups) kept as they are, so they count against the share.
     */
    private static List<String> normalized(Collection<String> rawValues) {
        Set<String> out = new LinkedHashSet<>();
        for (String raw : rawValues) {
            if (raw == null || raw.isBlank()) {
                continue;
            }
            String v = raw.strip().toUpperCase(Locale.ROOT);
            if (WRITTEN.matcher(v).matches() && !EIN.matcher(v).matches()) {
                v = SEPARATORS.matcher(v).replaceAll("");
            }
            if (v.chars().distinct().count() > 1) {
                out.add(v);
            }
        }
        return new ArrayList<>(out);
    }

    /** Not consecutive numbers: their first three characters differ (two of three values, three of more). */
    private static boolean spread(List<String> passing) {
        long prefixes = passing.stream().map(v -> v.substring(0, 3)).distinct().count();
        return prefixes >= Math.min(3, passing.size() - 1);
    }

    private static boolean namesSomethingElse(String columnName) {
        for (String w : columnName.split("[^\\p{L}]+|(?<=\\p{Ll})(?=\\p{Lu})")) {
            if (SOMETHING_ELSE.contains(w.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    private static String nine(String digits) {
        return "0".repeat(9 - digits.length()) + digits;
    }

    private static boolean ssnOrItin(String d) {
        return IdCheckDigits.usSsn(d) || IdCheckDigits.usItin(d);
    }
}
