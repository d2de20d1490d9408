package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a numeric column means to an analyst, read from its name: an amount, quantity or total adds up across
 * rows ({@link #ADDITIVE}); a price, rate, percentage, score, age, ratio or duration is averaged, never summed
 * ({@link #AVERAGED}), and so is an amount per unit or a face value (unit_amount, list_amount, amount_off); a level
 * at a moment (balance, MRR, stock on hand, seats remaining) is a {@link #SNAPSHOT}; keys, codes, years, flags,
 * minor units, exponents, sort orders and anything unrecognised are not aggregated ({@link #NONE}): a metric nobody
 * asked for is worse than one missing.
 */
public enum MeasureMeaning {
    ADDITIVE, AVERAGED,
    /** Adds up across things at one moment (stock of all products) but not across moments: summed only when undated. */
    SNAPSHOT,
    NONE;

    /** An explicit total wins over what it totals: total_price, discount_amount add up. */
    private static final Pattern TOTAL = Pattern.compile("(^|_)(amount|amt|total|totals|subtotal|sum)(_|$)");
    /** Levels, not flows: summing them over days multiplies them. Checked before TOTAL (balance_amount). */
    private static final Pattern SNAPSHOT_WORD = Pattern.compile(
            "(^|_)(balance|balances|mrr|arr|remaining|outstanding|available|stock|backlog)(_|$)|(^|_)on_(hand|order)(_|$)");
    /** An amount per unit, per period or on the face of a coupon: a price by another name. Checked before TOTAL. */
    private static final Pattern PER_UNIT_AMOUNT = Pattern.compile(
            "(^|_)(unit|list|per|each|face|nominal|base|standard|default|recurring)_(amount|amt|total|value|fee|cost)(_|$)"
                    + "|(^|_)(amount|amt|value|percent|pct)_off(_|$)|(^|_)(face_value|denomination)(_|$)");
    /** A bound, not a measurement: max_amount, credit_limit. Checked before TOTAL. */
    private static final Pattern LIMIT = Pattern.compile("(^|_)(min|max|minimum|maximum|limit|threshold|cap)(_|$)");
    private static final Pattern PER_UNIT_COST = Pattern.compile("(^|_)(unit|replacement|list|standard|average|avg)_cost(_|$)");
    private static final Pattern AVERAGED_WORD = Pattern.compile(
            "(^|_)(price|prices|rate|rates|pct|percent|percentage|ratio|score|rating|age|discount|margin|avg|average|mean"
                    + "|duration|length|seconds|secs|ms|milliseconds|minutes|mins|hours|days|weight|height|width|depth"
                    + "|latency|temperature)(_|$)");
    private static final Pattern ADDITIVE_WORD = Pattern.compile(
            "(^|_)(revenue|sales|cost|costs|fee|fees|charge|charges|payment|payments|paid|freight|balance|value|spend|tax"
                    + "|taxes|cents|due|profit|income|refund|refunded|quantity|qty|units|seats|volume|tip|tips|gratuity"
                    + "|rent|rents)(_|$)");
    /** Identifiers, codes, years, positions, limits and flags: numbers that are not measurements. */
    private static final Pattern NOT_A_MEASURE = Pattern.compile(
            "(^|_)(id|ids|code|no|num|number|year|yr|zip|postal|phone|ext|extension|version|seq|sequence|ordinal|position"
                    + "|rank|sort|level|limit|max|min|threshold|lat|latitude|lon|lng|longitude|flag|active|enabled"
                    + "|disabled|deleted|discontinued|public|visible|hidden|minor|exponent|decimals|precision|scale|digits|priority"
                    + "|display|ordering|idx|index|multiplier)(_|$)|^(is|has|can|should|was)_");
    private static final Set<String> FLAG_VALUES = Set.of("0", "1", "true", "false", "t", "f");

    public static MeasureMeaning of(Table t, Column c) {
        MeasureMeaning byName = byName(t, c);
        // A price list's amounts are prices (Stripe's prices.unit_amount, a plan's amount, a coupon's value): averaged.
        boolean priceList = PRICE_LIST.matcher(Identifiers.toSnakeCase(t.name().table()).toLowerCase(Locale.ROOT)).find();
        return byName == ADDITIVE && priceList && isMoney(c) ? AVERAGED : byName;
    }

    /** Tables that define what things cost rather than record what happened. */
    private static final Pattern PRICE_LIST = Pattern.compile("(^|_)(price|prices|pricing|pricings|tariff|tariffs|plan|plans"
            + "|rate_card|rate_cards|fare|fares|coupon|coupons|promo|promos|promotion|promotions|voucher|vouchers)(_|$)");

    private static MeasureMeaning byName(Table t, Column c) {
        if (TypeClass.of(c) != TypeClass.NUMBER || t.isPrimaryKey(c.name())
                || t.foreignKeys().stream().anyMatch(fk -> fk.columns().contains(c.name()))) {
            return NONE;
        }
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        if (isFlag(c)) {
            return NONE;
        }
        if (SNAPSHOT_WORD.matcher(name).find()) {
            return SNAPSHOT;
        }
        if (LIMIT.matcher(name).find()) {
            return NONE;
        }
        if (PER_UNIT_AMOUNT.matcher(name).find()) {
            return AVERAGED;
        }
        if (TOTAL.matcher(name).find()) {
            return ADDITIVE;
        }
        if (NOT_A_MEASURE.matcher(name).find()) {
            return NONE;
        }
        if (PER_UNIT_COST.matcher(name).find() || AVERAGED_WORD.matcher(name).find()) {
            return AVERAGED;
        }
        return ADDITIVE_WORD.matcher(name).find() ? ADDITIVE : NONE;
    }

    /** A number that only ever held 0 and 1 in the sample is a yes/no. */
    private static boolean isFlag(Column c) {
        return c.samples().size() >= 2 && c.samples().stream().allMatch(v -> FLAG_VALUES.contains(v.strip().toLowerCase(Locale.ROOT)));
    }

    /** Money rather than a count of things: the amounts whose average is also worth a metric (average order value). */
    public static boolean isMoneyTotal(Column c) {
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        // Rent and salary are money totals too: an average rent per lease, an average salary per employee.
        return Pattern.compile("(^|_)(amount|amt|total|subtotal|rent|rents|salary)(_|$)").matcher(name).find()
                && !Pattern.compile("(^|_)(due|tax|taxes|qty|quantity|units)(_|$)").matcher(name).find();
    }

    private static final Pattern MONEY = Pattern.compile(
            "(^|_)(amount|amt|total|subtotal|revenue|sales|cost|costs|fee|fees|charge|charges|payment|payments|paid|freight"
                    + "|balance|value|spend|tax|taxes|cents|due|profit|income|refund|refunded|price|prices|fare|fares|wage|wages"
                    + "|salary|mrr|arr|gross|net|rate|rates|cash|principal|deposit|deposits|tip|tips|gratuity|rent|rents)(_|$)");
    private static final Pattern NOT_MONEY = Pattern.compile(
            "(^|_)(qty|quantity|units|seats|volume|pct|percent|percentage|ratio|count|days|hours|minutes|seconds)(_|$)"
                    + "|(^|_)(tax|discount|interest|conversion|churn|growth|error|success|failure|bounce|retention)_rates?(_|$)");

    /** A sum of money or a price, in some currency: what must never add two currencies (a rate per unit too). */
    public static boolean isMoney(Column c) {
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        return MONEY.matcher(name).find() && !NOT_MONEY.matcher(name).find();
    }

    /**
     * A physical or working-time extent (weight, distance, hours): averaged on a thing (a parcel's weight), but on a dated
     * fact it also adds up (the weight shipped in a month, the hours driven).
     */
    public static boolean isExtent(Column c) {
        return EXTENT.matcher(Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT)).find();
    }

    private static final Pattern EXTENT = Pattern.compile(
            "(^|_)(weight|kg|kilograms|lbs|pounds|tons|tonnes|distance|km|miles|mileage|hours)(_|$)");

    /** What is still owed rather than what was paid: a settled-status filter would make it zero. */
    public static boolean isReceivable(Column c) {
        return Pattern.compile("(^|_)(due|owed|owing|outstanding|unpaid|remaining|receivable)(_|$)")
                .matcher(Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT)).find();
    }

    /** The number of things a line records (quantity, qty): what a price is multiplied by to make revenue. */
    public static boolean isQuantity(Column c) {
        return Pattern.compile("(^|_)(quantity|qty)(_|$)").matcher(Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT)).find();
    }

    /** A price per unit (unit_price, price). */
    public static boolean isPrice(Column c) {
        return Pattern.compile("(^|_)price(_|$)").matcher(Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT)).find();
    }

    /** A discount given as a fraction (0.05), which revenue multiplies by (1 - discount). */
    public static boolean isDiscountRate(Column c) {
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        return Pattern.compile("(^|_)discount(_|$)").matcher(name).find() && !TOTAL.matcher(name).find()
                && c.samples().stream().allMatch(v -> {
                    try {
                        double d = Double.parseDouble(v.strip());
                        return d >= 0 && d <= 1;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                });
    }
}
