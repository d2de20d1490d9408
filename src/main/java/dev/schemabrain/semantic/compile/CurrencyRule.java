package dev.schemabrain.semantic.compile;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.semantic.AmountCurrency;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Amounts in different currencies never add up. A sum or average of a money measure whose rows carry a currency
 * ({@link AmountCurrency}) is answered only grouped by that currency or filtered to one; otherwise the call is
 * refused with the same call grouped by the currency as its retry (where the index read no value of the column, the
 * answer says it may mix currencies). A measure that converts (an expression reaching
 * another entity, a rate table) or names its currency ({@code label_cost_usd}) is exempt, as is a column known to
 * hold one currency.
 */
final class CurrencyRule {

    private CurrencyRule() {
    }

    /**
     * @param filters every filter the statement applies: the metric's, its segments' and the caller's
     * @return how the answer handles currency (for the answer's assumptions), empty when the measure has none
     */
    static Optional<String> check(Metric metric, MetricRequest request, List<Filter> filters, SemanticModel model,
                                  Catalog catalog) throws CompileException {
        Measure m = metric.measure();
        if (m == null || m.agg() != Aggregation.SUM && m.agg() != Aggregation.AVG) {
            return Optional.empty();
        }
        Optional<Table> table = model.entity(metric.entity()).map(Entity::table).flatMap(catalog::table);
        if (table.isEmpty() || !AmountCurrency.inRowCurrency(m, table.get())) {
            return Optional.empty();
        }
        Optional<AmountCurrency> currency = AmountCurrency.of(model, catalog::table, metric.entity());
        if (currency.isEmpty()) {
            return Optional.empty();
        }
        String ref = currency.get().reference();
        if (currency.get().only().isPresent()) {
            return Optional.of("all amounts are in " + currency.get().only().get() + " (the only value of " + ref + ")");
        }
        if (request.groupBy().stream().anyMatch(g -> same(g, ref))) {
            return Optional.of("amounts are added per currency (grouped by " + ref + ")");
        }
        for (Filter f : filters) {
            if (same(f.column(), ref) && !f.comparesColumns() && (f.op() == FilterOp.EQ
                    || f.op() == FilterOp.IN && f.value() instanceof List<?> list && list.size() == 1)) {
                Object value = f.value() instanceof List<?> list ? list.get(0) : f.value();
                return Optional.of("all amounts are in " + value + " (filtered on " + ref + ")");
            }
        }
        if (currency.get().known() == 0) {
            // The values were not read (indexed without samples): the answer says it may mix currencies.
            return Optional.of("amounts may be in several currencies (" + ref + " was not read at index time): group or"
                    + " filter by " + ref + " before adding them up");
        }
        List<String> groupBy = new ArrayList<>(request.groupBy());
        groupBy.add(ref);
        throw new CompileException(ErrorKind.INVALID_ARGUMENT, "Metric " + metric.name() + " would add amounts in different"
                + " currencies (each row's currency is " + ref + "); ask again grouped by " + ref + ", or filtered to one"
                + " currency (" + ref + " eq a code).", List.of(), Map.of("group_by", groupBy));
    }

    private static boolean same(String written, String reference) {
        return written != null && written.strip().toLowerCase(Locale.ROOT).equals(reference.toLowerCase(Locale.ROOT));
    }
}
