package dev.schemabrain.console;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.policy.PiiPolicyStore;
import dev.schemabrain.policy.RoleReach;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import static dev.schemabrain.console.Html.esc;

/**
 * The roles page: for each role of the access policy, what a caller holding it reaches, computed by
 * {@link RoleReach} as {@code schemabrain policy explain} computes it. A role's row filters are shown with the claim
 * they bind, never a caller's value.
 */
final class RolesPage {

    private RolesPage() {
    }

    /** The page without an access policy: one sentence. */
    static String unrestricted() {
        return Html.page("Roles", true, "<p>Without an access policy every caller sees every table, metric and row the"
                + " PII rules allow; to limit them, write an access policy file (see docs/access.md) and start serve and the"
                + " console with <code>--access-policy FILE</code>.</p>");
    }

    /** The page when the policy file cannot be read: its one sentence. */
    static String unreadable(Path file, String sentence) {
        return Html.page("Roles", true, "<p class=\"refused\" role=\"alert\">" + esc(sentence) + "</p><p>The access policy is "
                + "<code>" + esc(file) + "</code>.</p>");
    }

    static String render(Path file, AccessPolicy policy, Optional<PiiPolicyStore.Stored> stored) {
        StringBuilder b = new StringBuilder("<p>What a caller holding each role of <code>").append(esc(file))
                .append("</code> reaches, as <code>schemabrain policy explain --role ROLE</code> prints it. A credential that"
                        + " names no role gets ")
                .append(policy.defaultRole().map(d -> "the role " + esc(d)).orElse("nothing (default_role none)")).append(".</p>");
        if (policy.roles().isEmpty()) {
            b.append("<p>The policy has no roles: every caller is refused.</p>");
        }
        b.append("<nav aria-label=\"Roles\"><ul>");
        policy.roles().keySet().forEach(r -> b.append("<li><a href=\"#role-").append(esc(r)).append("\">").append(esc(r))
                .append("</a></li>"));
        b.append("</ul></nav>");
        for (String name : policy.roles().keySet()) {
            RoleReach reach = RoleReach.of(policy, new Caller("console", Optional.of(name), Map.of()), stored);
            role(b, policy.roles().get(name), reach);
        }
        return Html.page("Roles", true, b.toString());
    }

    private static void role(StringBuilder b, Role r, RoleReach reach) {
        b.append("<section aria-labelledby=\"role-").append(esc(r.name())).append("\"><h2 id=\"role-").append(esc(r.name()))
                .append("\">").append(esc(r.name())).append("</h2><dl>");
        item(b, "Table patterns allowed", r.allow().stream().map(Object::toString).toList());
        if (reach.tables().isPresent()) {
            item(b, "Tables (" + reach.tables().get().size() + " of " + reach.tableCount() + ")", reach.tables().get());
            item(b, "Metrics (" + reach.metrics().orElseThrow().size() + " of " + reach.metricCount()
                    + ", by their entity's table; a metric that joins another table needs it allowed too)", reach.metrics().get());
        } else {
            item(b, "Tables", List.of("the store is not there yet, so only the patterns above are known"));
        }
        r.metrics().ifPresent(m -> item(b, "Metrics listed by the role", List.copyOf(new TreeSet<>(m))));
        item(b, "Row filters", r.rowFilters().stream().map(RolesPage::filter).toList());
        item(b, "PII clearance", r.piiClearance().isEmpty() ? List.of("none (the server's block list applies)")
                : List.copyOf(new TreeSet<>(r.piiClearance())));
        item(b, "Smallest group shown", List.of(r.minGroupSize().isPresent()
                ? r.minGroupSize().getAsInt() + " (never below the server's --min-group-size)" : "the server's --min-group-size"));
        item(b, "get_metric rate", List.of(r.metricRate().orElse("the server's --metric-rate-limit")));
        item(b, "Reviews in the console", List.of(r.reviewer() ? "yes (reviewer: true): signs in to serve --console"
                : "no: serve --console answers 403"));
        b.append("</dl></section>");
    }

    /** The filter as the role states it: the value comes from each caller's own claim. */
    private static String filter(RowFilter f) {
        return f.entity() + " rows where " + f.column() + (f.op() == RowFilter.Op.EQ ? " equals" : " is one of")
                + " the caller's claim " + f.claim() + "; a caller without that claim is refused on " + f.entity();
    }

    private static void item(StringBuilder b, String term, List<String> values) {
        b.append("<dt>").append(esc(term)).append("</dt>");
        if (values.isEmpty()) {
            b.append("<dd>none</dd>");
        }
        values.forEach(v -> b.append("<dd>").append(esc(v)).append("</dd>"));
    }
}
