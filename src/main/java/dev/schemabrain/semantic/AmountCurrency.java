package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The currency an entity's amounts are in: a currency column of its own table ({@code invoice.currency}), else of a
 * row it cannot exist without ({@code credit_note} → {@code invoice.currency}). Amounts in different currencies
 * never add up; the compiler refuses a sum or an average that would add them ({@code semantic.compile}).
 *
 * @param reference {@code entity.column} of the currency
 * @param values    the currencies the catalog knows the column holds (none when its values were not read)
 */
public record AmountCurrency(String reference, List<String> values) {

    public AmountCurrency {
        values = List.copyOf(values);
    }

    /** The one currency the column holds, when the catalog knows it holds exactly one. */
    public Optional<String> only() {
        return values.size() == 1 ? Optional.of(values.get(0)) : Optional.empty();
    }

    /** How many currencies the catalog knows the column holds (0 when its values were not read). */
    public int known() {
        return values.size();
    }

    /** Codes a column name states its currency by ({@code label_cost_usd}): that amount has one currency whatever the row's. */
    private static final Set<String> CODES = Set.of("usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "nzd", "cny", "hkd",
            "sgd", "sek", "nok", "dkk", "pln", "czk", "huf", "inr", "brl", "mxn", "zar", "krw", "ils", "aed", "sar", "ron");

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private static final Set<String> RATE_WORDS = Set.of("rate", "rates", "fx", "per", "to", "from");

    /** The currency of {@code entity}'s amounts, if a currency column says it. */
    public static Optional<AmountCurrency> of(SemanticModel model, Function<QualifiedName, Optional<Table>> tables, String entity) {
        Optional<Table> table = model.entity(entity).map(Entity::table).flatMap(tables);
        if (table.isEmpty()) {
            return Optional.empty();
        }
        RowSignals own = RowSignals.of(entity, table.get());
        if (own.currency().isPresent()) {
            return Optional.of(new AmountCurrency(own.currency().get(), own.currencies()));
        }
        return ofParent(model, tables, entity);
    }

    /** The currency of the nearest row {@code entity}'s rows cannot exist without (a refund is in its payment's currency). */
    static Optional<AmountCurrency> ofParent(SemanticModel model, Function<QualifiedName, Optional<Table>> tables, String entity) {
        for (Parents.Reached r : Parents.of(model, entity)) {
            if (r.distance() != 1 || r.ambiguous() || !Parents.required(model, tables, entity, r.joins())) {
                continue;
            }
            Optional<Table> parent = model.entity(r.entity()).map(Entity::table).flatMap(tables);
            if (parent.isPresent()) {
                RowSignals s = RowSignals.of(r.entity(), parent.get());
                if (s.currency().isPresent()) {
                    return Optional.of(new AmountCurrency(s.currency().get(), s.currencies()));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code m} measures money in its row's currency: not one that converts or names its own currency. */
    public static boolean inRowCurrency(Measure m, Table table) {
        if (m.column() != null) {
            return table.column(m.column()).map(c -> MeasureMeaning.isMoney(c) && !namesItsCurrency(c)).orElse(false);
        }
        if (m.expression() == null || m.expression().contains(".")) {
            return false;   // a column of another entity: a rate the expression converts by
        }
        var words = IDENTIFIER.matcher(m.expression());
        boolean money = false;
        while (words.find()) {
            Optional<Column> c = table.column(words.group());
            if (c.isPresent() && namesItsCurrency(c.get())) {
                return false;
            }
            money |= c.map(MeasureMeaning::isMoney).orElse(false);
        }
        return money;
    }

    /** Whether the column's name states the currency its amounts are in ({@code amount_usd}). */
    public static boolean namesItsCurrency(Column c) {
        return named(c).isPresent();
    }

    /**
     * The currency the column's name states, upper case ({@code label_cost_usd} → USD); none for a rate, whose name
     * states one side of a conversion ({@code rate_to_eur} is EUR per unit of the row's currency).
     */
    public static Optional<String> named(Column c) {
        List<String> words = Identifiers.words(c.name());
        if (words.stream().anyMatch(RATE_WORDS::contains)) {
            return Optional.empty();
        }
        return words.stream().map(w -> w.toLowerCase(Locale.ROOT)).filter(CODES::contains)
                .findFirst().map(w -> w.toUpperCase(Locale.ROOT));
    }
}
