package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Flags;
import dev.schemabrain.mining.StatementAnalysis.ColumnRef;
import dev.schemabrain.pii.ChannelPolicy;
import dev.schemabrain.pii.FreeText;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which literals of a logged statement may stay in its stored example, so that it runs as it is: a GROUP BY or
 * ORDER BY ordinal, a constant argument that is syntax rather than data (date_trunc's unit, a date format), and a
 * value compared with a column that is not PII, not free text and has few values, when the catalog already
 * serves that value for it (a status ENUM's label, one of its indexed values), and a yes/no literal compared with a
 * yes/no column ({@code deleted = 0}: two values are no one's data, {@link Flags}). Everything else stays a
 * placeholder: a value the catalog does not already show cannot be learned from an example.
 */
final class KeptLiterals {

    /** At most this many distinct indexed values: a status or a type, not names or titles. */
    static final int FEW_VALUES = 20;

    private static final Set<String> UNITS = Set.of("microseconds", "milliseconds", "second", "minute", "hour", "day",
            "week", "month", "quarter", "year", "decade", "century", "millennium", "dow", "doy", "isodow", "isoyear", "epoch");
    /** PostgreSQL to_char patterns: its template fields and separators only. */
    private static final Pattern PG_FORMAT = Pattern.compile(
            "(YYYY|YYY|YY|Y|IYYY|MM|DD|DDD|HH24|HH12|HH|MI|SS|MS|US|AM|PM|Mon|MON|Month|MONTH|Dy|DY|Day|DAY|Q|WW|IW|W|D|ID|TZ|FM|[-/:., T])+");
    /** MySQL DATE_FORMAT / SQLite strftime patterns: % specifiers and separators only. */
    private static final Pattern PERCENT_FORMAT = Pattern.compile("(%[A-Za-z%]|[-/:., T])+");

    /** Function (lower case) to the argument position (0-based) that is syntax, with the values it may take. */
    private static final Map<String, Map<Integer, Pattern>> SYNTAX_ARGUMENTS = Map.of(
            "date_trunc", Map.of(0, unitPattern()),
            "date_part", Map.of(0, unitPattern()),
            "to_char", Map.of(1, PG_FORMAT),
            "date_format", Map.of(1, PERCENT_FORMAT),
            "str_to_date", Map.of(1, PERCENT_FORMAT),
            "strftime", Map.of(0, PERCENT_FORMAT));

    private final List<String> literals;
    private final CatalogNames served;
    private final PiiTags pii;

    /**
     * @param literals the statement's literals as written, from 1 ({@link SqlNormalizer.Template}); null ones never stay
     * @param served   the catalog as the server shows it (tagged columns without values, free text withheld)
     */
    KeptLiterals(List<String> literals, CatalogNames served, PiiTags pii) {
        this.literals = literals;
        this.served = served;
        this.pii = pii;
    }

    /** The catalog's names with only the values the server would show of each column. */
    static CatalogNames served(Catalog catalog, PiiTags pii) {
        return new CatalogNames(ChannelPolicy.apply(pii.withoutTaggedSamples(catalog), pii));
    }

    /** A whole GROUP BY / ORDER BY item that is an integer naming one of the {@code selectItems} output columns. */
    boolean ordinal(int k, int selectItems) {
        String text = literal(k);
        if (text == null || !text.matches("[1-9][0-9]{0,2}")) {
            return false;
        }
        return Integer.parseInt(text) <= selectItems;
    }

    /** The {@code position}-th argument of {@code function}, when that argument is syntax and the literal fits it. */
    boolean syntax(String function, int position, int k) {
        Pattern allowed = SYNTAX_ARGUMENTS.getOrDefault(function.toLowerCase(Locale.ROOT), Map.of()).get(position);
        String value = string(k);
        return allowed != null && value != null && allowed.matcher(value).matches();
    }

    /** A value compared with {@code column}, when the server already shows that value for it. */
    boolean known(ColumnRef column, int k) {
        String value = string(k);
        if (value == null) {
            return false;
        }
        PiiTag tag = pii.tag(column.table(), column.column());
        if (tag.tagged() || tag.sensitivity().compareTo(Sensitivity.INTERNAL) > 0) {
            return false;
        }
        return served.columnOf(column.table(), column.column()).filter(c -> !FreeText.is(c))
                .map(c -> knownValues(c).contains(value)).orElse(false);
    }

    /** The catalog's yes/no column, when {@code column} is one ({@link Flags#is}). */
    Optional<Column> flag(ColumnRef column) {
        return served.columnOf(column.table(), column.column()).filter(Flags::is);
    }

    /** What the literal (its text as written) says to a yes/no column; empty when either is not yes/no. */
    Optional<Boolean> truth(ColumnRef column, String literal) {
        return flag(column).isEmpty() ? Optional.empty() : Flags.truth(literal);
    }

    private static Set<String> knownValues(Column c) {
        Set<String> out = new HashSet<>();
        if (c.domain() != null && c.domain().listed()) {
            out.addAll(c.domain().values());
        } else if (!c.values().isEmpty() && c.values().size() <= FEW_VALUES) {
            out.addAll(c.values());
        }
        return out;
    }

    /** A plain single-quoted string's content; null for a number, a prefixed string or no such literal. */
    private String string(int k) {
        String text = literal(k);
        if (text == null || text.length() < 2 || text.charAt(0) != '\'' || text.indexOf('\\') >= 0) {
            return null;
        }
        return text.substring(1, text.length() - 1).replace("''", "'");
    }

    /** The k-th literal as written. */
    String text(int k) {
        return literal(k);
    }

    private String literal(int k) {
        return k >= 1 && k <= literals.size() ? literals.get(k - 1) : null;
    }

    private static Pattern unitPattern() {
        return Pattern.compile("(?i)" + String.join("|", UNITS));
    }
}
