package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.policy.PiiPolicyStore;
import dev.schemabrain.policy.RoleReach;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** {@code schemabrain policy show|apply|tag|tags}: the operator's PII policy. */
@Command(name = "policy", mixinStandardHelpOptions = true,
        description = "The PII policy: the categories the server blocks and the operator's column tags, which win over"
                + " the classifier's and survive re-indexing; and 'policy explain', what a role of the access policy reaches.")
final class PolicyCommand extends CommandGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print the policy in force in the store, in the shape of pii_policy.yaml.")
    int show() throws SchemaBrainException {
        PiiPolicyStore.Stored s = PiiPolicyStore.read(main.store());
        List<PiiPolicy.ColumnOverride> columns = s.overrides().stream()
                .map(e -> new PiiPolicy.ColumnOverride(e.qualifiedColumn(), e.tag(), s.tags().allowances(e.table(), e.column())))
                .toList();
        PrintWriter out = main.out();
        out.println("# block list in force: " + String.join(", ", s.block().orElse(BlockList.FLOOR).names())
                + (s.block().isEmpty() ? " (the catastrophic floor; no policy applied)" : "")
                + "; " + s.tags().tagged().size() + " columns tagged (policy tags lists them)");
        out.print(new PiiPolicy(s.block(), columns, s.subjects()).toYaml());
        // Every entity's data-subject class, drafted or the operator's, as comments: the file keeps only overrides.
        List<SubjectClasses.Assigned> classes = s.subjectClasses();
        out.println("# data subjects in force (" + classes.size() + " entities; override with subjects: in the policy):");
        for (SubjectClasses.Assigned a : classes) {
            out.printf("#   %-32s %-13s %-9s %s%n", a.entity(), a.subjectClass().wireName(), a.origin(), a.evidence());
        }
        return 0;
    }

    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = "Load FILE into the store: its block list and column overrides replace the applied ones."
                    + " Every column is checked against the index first; nothing is written unless all resolve.")
    int apply(@Parameters(arity = "0..1", paramLabel = "FILE", defaultValue = "schemabrain/pii_policy.yaml",
            description = "The policy file (default: ${DEFAULT-VALUE}).") Path file,
              @Option(names = "--force-pii-floor", description = "Allow overrides that take credential, payment_card or"
                      + " government_id off a column the classifier tagged with it.") boolean forceFloor) throws SchemaBrainException {
        if (!file.toFile().isFile()) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "There is no policy file at " + file + "; write one (see README) or tag a column with"
                    + " 'schemabrain policy tag schema.table.column CATEGORY'.");
        }
        PiiPolicy policy = PiiPolicy.read(file);
        int n = PiiPolicyStore.apply(main.store(), policy, forceFloor, "policy apply " + file);
        main.out().printf("Applied %s: block list %s, %d column overrides%n", file,
                String.join(", ", policy.block().orElse(BlockList.FLOOR).names()), n);
        return 0;
    }

    @Command(name = "tag", mixinStandardHelpOptions = true,
            description = "Tag one column in the policy file and apply the file: CATEGORY... replaces the column's"
                    + " categories; --none marks it as not PII (hiding a false positive).")
    int tag(@Parameters(index = "0", paramLabel = "COLUMN", description = "schema.table.column") String column,
            @Parameters(index = "1..*", arity = "0..*", paramLabel = "CATEGORY",
                    description = "contact, financial, payment_card, health, genetic, biometric, behavioral,"
                            + " online_identifier, credential, government_id, location, demographic_protected") List<String> categories,
            @Option(names = "--none", description = "The column holds no PII.") boolean none,
            @Option(names = "--sensitivity", paramLabel = "LEVEL",
                    description = "public, internal, confidential or pii (default: from the categories).") String sensitivity,
            @Option(names = "--file", paramLabel = "FILE", defaultValue = "schemabrain/pii_policy.yaml",
                    description = "The policy file to update (default: ${DEFAULT-VALUE}).") Path file,
            @Option(names = "--force-pii-floor", description = "Allow taking credential, payment_card or government_id off a"
                    + " column tagged with it (the server then serves that column like any other).") boolean forceFloor)
            throws SchemaBrainException {
        List<String> named = categories == null ? List.of() : categories;
        if (named.isEmpty() == !none) {
            throw new UserError("Give the column's categories (e.g. 'policy tag public.customer.email contact') or --none, not both"
                    + " and not neither.");
        }
        EnumSet<PiiCategory> set = EnumSet.noneOf(PiiCategory.class);
        Sensitivity level;
        try {
            named.forEach(c -> set.add(PiiCategory.fromWireName(c.toLowerCase(Locale.ROOT))));
            level = sensitivity == null ? Sensitivity.of(set) : Sensitivity.fromWireName(sensitivity.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError(capitalized(e.getMessage()) + ".");
        }
        PiiTags.Entry resolved = PiiPolicyStore.tag(main.store(), file, column, new PiiTag(level, set, List.of("operator")),
                forceFloor, Optional.of("policy tag"));
        PiiTag tag = resolved.tag();
        main.out().printf("Tagged %s: %s %s (in %s, applied)%n", resolved.qualifiedColumn(), tag.sensitivity().wireName(),
                tag.tagged() ? tag.categoryNames() : "no PII", file);
        return 0;
    }

    @Command(name = "tags", mixinStandardHelpOptions = true,
            description = "List every tagged column: sensitivity, categories and origin (heuristic or operator).")
    int tags(@Option(names = "--json", description = "[{column, sensitivity, categories, origin}]") boolean json)
            throws SchemaBrainException {
        List<PiiTags.Entry> tagged = PiiPolicyStore.read(main.store()).tags().tagged();
        if (json) {
            ArrayNode array = JSON.createArrayNode();
            for (PiiTags.Entry e : tagged) {
                ArrayNode cats = array.addObject().put("column", e.qualifiedColumn())
                        .put("sensitivity", e.tag().sensitivity().wireName())
                        .putArray("categories");
                e.tag().categoryNames().forEach(cats::add);
                ((ObjectNode) array.get(array.size() - 1)).put("origin", e.origin().wireName());
            }
            main.out().println(array);
            return 0;
        }
        if (tagged.isEmpty()) {
            main.out().println("No column is tagged: nothing looked like PII when the store was indexed.");
            return 0;
        }
        for (PiiTags.Entry e : tagged) {
            main.out().printf("%-56s %-13s %-40s %s%n", e.qualifiedColumn(), e.tag().sensitivity().wireName(),
                    String.join(",", e.tag().categoryNames()), e.origin().wireName());
        }
        return 0;
    }

    /** Resolved as the console's roles page resolves it ({@link RoleReach}). */
    @Command(name = "explain", mixinStandardHelpOptions = true,
            description = "Print what a caller with ROLE and these claims can reach under the access policy: tables,"
                    + " metrics, row filters with their bound values, PII clearance and limits; for review before rollout.")
    int explain(@Option(names = "--access-policy", required = true, paramLabel = "FILE",
                        description = "The access policy file serve --access-policy reads.") Path policyFile,
                @Option(names = "--role", paramLabel = "ROLE",
                        description = "The caller's role, as its credential carries it; without it the policy's default_role.")
                String role,
                @Option(names = "--claim", paramLabel = "NAME=VALUE", description = "A claim of the caller's credential"
                        + " (repeatable), as token create --claim or the JWT gives it.") Map<String, String> claims)
            throws SchemaBrainException {
        AccessPolicy policy = AccessPolicyFile.read(policyFile);
        Caller caller = new Caller("explain", Optional.ofNullable(role), claims == null ? Map.of() : claims);
        Optional<PiiPolicyStore.Stored> stored = Stores.exists(main.store()) ? Optional.of(PiiPolicyStore.read(main.store()))
                : Optional.empty();
        RoleReach reach = RoleReach.of(policy, caller, stored);
        PrintWriter out = main.out();
        out.println("# access policy " + policyFile + "; caller with role " + role(role, policy)
                + (caller.claims().isEmpty() ? "" : " and claims " + new TreeMap<>(caller.claims())));
        if (reach.denial().isPresent()) {
            out.println("reaches nothing: " + reach.denial().get() + ".");
            return 0;
        }
        Role r = reach.role().orElseThrow();
        out.println("role: " + r.name());
        out.println("allow: " + r.allow().stream().map(Object::toString).toList());
        if (reach.tables().isEmpty()) {
            out.println("tables: (no store at " + main.store() + "; pass --store to list the tables and metrics the patterns reach)");
        } else {
            out.println("tables (" + reach.tables().get().size() + " of " + reach.tableCount() + "): " + reach.tables().get());
            out.println("metrics (" + reach.metrics().orElseThrow().size() + " of " + reach.metricCount() + ", by their entity's table;"
                    + " a metric that joins another table needs it allowed too): " + reach.metrics().get());
        }
        r.metrics().ifPresent(m -> out.println("metrics listed by the role: " + new TreeSet<>(m)));
        if (r.rowFilters().isEmpty()) {
            out.println("row filters: none");
        }
        for (BoundRowFilter f : reach.rowFilters()) {
            out.println("row filter: " + f.filter().entity() + " where " + f.filter().column()
                    + (f.filter().op() == RowFilter.Op.EQ ? " = " + f.values().get(0) : " in " + f.values())
                    + " (claim " + f.filter().claim() + ")");
        }
        for (RowFilter f : reach.missingClaims()) {
            out.println("row filter: " + f.entity() + " where " + f.column() + " needs the claim " + f.claim()
                    + ", which this caller lacks: every call reaching " + f.entity() + " is refused.");
        }
        out.println("pii_clearance: " + (r.piiClearance().isEmpty() ? "none (the server's block list applies)"
                : new TreeSet<>(r.piiClearance())));
        out.println("min_group_size: " + (r.minGroupSize().isPresent() ? r.minGroupSize().getAsInt()
                + " (never below the server's --min-group-size)" : "the server's --min-group-size"));
        out.println("metric_rate: " + r.metricRate().orElse("the server's --metric-rate-limit"));
        return 0;
    }

    private static String role(String given, AccessPolicy policy) {
        return given != null ? given : policy.defaultRole().map(d -> "(none given; default_role " + d + ")")
                .orElse("(none given; default_role none)");
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
