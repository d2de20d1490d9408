package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.schemabrain.access.Access;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.Caller;
import dev.schemabrain.access.Role;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.error.PiiPolicyException;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.index.TagPurge;
import dev.schemabrain.pii.Allowance;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.pii.SubjectPolicy;
import dev.schemabrain.store.PiiAllowanceRepository;
import dev.schemabrain.mcp.tools.ServedCatalog;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.SubjectPolicyRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import dev.schemabrain.store.StoreSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code schemabrain policy show|apply|tag|tags}: the operator's PII policy (SPEC §8). */
@Command(name = "policy", mixinStandardHelpOptions = true,
        description = "The PII policy: the categories the server blocks and the operator's column tags, which win over"
                + " the classifier's and survive re-indexing; and 'policy explain', what a role of the access policy reaches.")
final class PolicyCommand extends CommandGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print the policy in force in the store, in the shape of pii_policy.yaml.")
    int show() throws SchemaBrainException {
        Stored s = read(main.store());
        List<PiiPolicy.ColumnOverride> columns = s.overrides().stream()
                .map(e -> new PiiPolicy.ColumnOverride(e.qualifiedColumn(), e.tag(), s.tags().allowances(e.table(), e.column())))
                .toList();
        PrintWriter out = main.out();
        out.println("# block list in force: " + String.join(", ", s.block().orElse(BlockList.FLOOR).names())
                + (s.block().isEmpty() ? " (the catastrophic floor; no policy applied)" : "")
                + "; " + s.tags().tagged().size() + " columns tagged (policy tags lists them)");
        out.print(new PiiPolicy(s.block(), columns, s.subjects()).toYaml());
        // Every entity's data-subject class, drafted or the operator's (SPEC §11.1), as comments: the file keeps only overrides.
        List<SubjectClasses.Assigned> classes = subjectClasses(s);
        out.println("# data subjects in force (" + classes.size() + " entities; override with subjects: in the policy):");
        for (SubjectClasses.Assigned a : classes) {
            out.printf("#   %-32s %-13s %-9s %s%n", a.entity(), a.subjectClass().wireName(), a.origin(), a.evidence());
        }
        return 0;
    }

    private static List<SubjectClasses.Assigned> subjectClasses(Stored s) {
        return SubjectClasses.assign(s.entities(), s.tags(), s.subjects());
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
        PiiPolicy policy = load(file);
        Stored s = read(main.store());
        floorCheck(s, resolveAll(s.catalog(), policy), forceFloor, "policy apply " + file);
        subjectCheck(s, policy.subjects());
        int n = store(main.store(), policy);
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
            named.forEach(c -> set.add(PiiCategory.fromWireName(c.toLowerCase(java.util.Locale.ROOT))));
            level = sensitivity == null ? Sensitivity.of(set) : Sensitivity.fromWireName(sensitivity.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError(capitalized(e.getMessage()) + ".");
        }
        Stored s = read(main.store());
        PiiTags.Entry resolved = resolve(s.catalog(), column, new PiiTag(level, set, List.of("operator")));
        PiiPolicy current = load(file);
        // Retagging keeps the column's allowances; only its categories change.
        Set<Allowance> kept = current.columns().stream().filter(c -> c.column().equals(resolved.qualifiedColumn()))
                .findFirst().map(PiiPolicy.ColumnOverride::allow).orElse(Set.of());
        floorCheck(s, List.of(new Resolved(resolved, kept)), forceFloor, "policy tag " + resolved.qualifiedColumn());
        PiiPolicy policy = current.with(new PiiPolicy.ColumnOverride(resolved.qualifiedColumn(), resolved.tag(), kept));
        // The store is checked before the file is written, so a bad file never results from this command.
        resolveAll(s.catalog(), policy);
        policy.write(file);
        store(main.store(), policy);
        PiiTag tag = resolved.tag();
        main.out().printf("Tagged %s: %s %s (in %s, applied)%n", resolved.qualifiedColumn(), tag.sensitivity().wireName(),
                tag.tagged() ? tag.categoryNames() : "no PII", file);
        return 0;
    }

    @Command(name = "tags", mixinStandardHelpOptions = true,
            description = "List every tagged column: sensitivity, categories and origin (heuristic or operator).")
    int tags(@Option(names = "--json", description = "[{column, sensitivity, categories, origin}]") boolean json)
            throws SchemaBrainException {
        List<PiiTags.Entry> tagged = read(main.store()).tags().tagged();
        if (json) {
            ArrayNode array = JSON.createArrayNode();
            for (PiiTags.Entry e : tagged) {
                ArrayNode cats = array.addObject().put("column", e.qualifiedColumn())
                        .put("sensitivity", e.tag().sensitivity().wireName())
                        .putArray("categories");
                e.tag().categoryNames().forEach(cats::add);
                ((com.fasterxml.jackson.databind.node.ObjectNode) array.get(array.size() - 1)).put("origin", e.origin().wireName());
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

    private record Stored(Catalog catalog, PiiTags tags, List<PiiTags.Entry> overrides, Optional<BlockList> block,
                          List<PiiTags.Entry> heuristic, SubjectPolicy subjects,
                          Map<String, dev.schemabrain.catalog.Table> entities,
                          List<dev.schemabrain.semantic.model.Metric> metrics) {
    }

    private static Stored read(StoreLocation store) throws StoreException, UserError {
        if (!Stores.exists(store)) {
            throw new UserError("There is no store at " + store + "; run 'schemabrain index --source URL' first or pass --store PATH.");
        }
        try (Store s = Stores.open(store)) {
            return s.read(c -> {
                Catalog catalog = StoreSnapshot.read(c).catalog();
                var semantic = SemanticLayer.load(c, catalog, n -> null);
                var entities = ServedCatalog.entityTables(catalog, semantic);
                return new Stored(catalog,
                        PiiRepository.tags(c).withAllowances(PiiAllowanceRepository.allowances(c)), PiiRepository.overrides(c),
                        PiiRepository.blockList(c), PiiRepository.heuristic(c, Optional.empty()), SubjectPolicyRepository.read(c),
                        entities, semantic.metrics());
            });
        }
    }

    private static PiiPolicy load(Path file) throws PiiPolicyException {
        return PiiPolicy.read(file);
    }

    /**
     * The catastrophic floor holds unless the operator says otherwise: an override that takes credential,
     * payment_card or government_id off a column the classifier (or an earlier override) tagged with it
     * needs --force-pii-floor. A planted or careless "--none" on an SSN column must not serve SSNs.
     */
    private static void floorCheck(Stored s, List<Resolved> overrides, boolean force, String command) throws UserError {
        if (force) {
            return;
        }
        List<String> lowered = new ArrayList<>();
        for (Resolved r : overrides) {
            PiiTags.Entry o = r.entry();
            EnumSet<PiiCategory> before = EnumSet.noneOf(PiiCategory.class);
            s.heuristic().stream().filter(h -> h.table().equals(o.table()) && h.column().equals(o.column()))
                    .forEach(h -> before.addAll(h.tag().categories()));
            before.addAll(s.tags().tag(o.table(), o.column()).categories());
            before.retainAll(PiiCategory.CATASTROPHIC_FLOOR);
            before.removeAll(o.tag().categories());
            if (!before.isEmpty()) {
                lowered.add(o.qualifiedColumn() + " (" + String.join(", ", before.stream().sorted().map(PiiCategory::wireName).toList()) + ")");
            }
        }
        if (!lowered.isEmpty()) {
            throw new UserError("The policy takes the always-blocked categories off " + String.join("; ", lowered)
                    + ", which would let the server aggregate over them; keep the categories, or run '" + command
                    + " --force-pii-floor' if the column truly holds no such data.");
        }
    }

    /** Writes the policy's block list, overrides and allowances in one transaction; answers the number of overrides. */
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
        Access access = policy.resolve(caller);
        PrintWriter out = main.out();
        out.println("# access policy " + policyFile + "; caller with role " + role(role, policy)
                + (caller.claims().isEmpty() ? "" : " and claims " + new java.util.TreeMap<>(caller.claims())));
        if (access.denial().isPresent()) {
            out.println("reaches nothing: " + access.denial().get() + ".");
            return 0;
        }
        Role r = policy.roles().get(access.role().orElseThrow());
        out.println("role: " + r.name());
        out.println("allow: " + r.allow().stream().map(Object::toString).toList());
        Optional<Stored> stored = Stores.exists(main.store()) ? Optional.of(read(main.store())) : Optional.empty();
        if (stored.isEmpty()) {
            out.println("tables: (no store at " + main.store() + "; pass --store to list the tables and metrics the patterns reach)");
        } else {
            List<String> tables = stored.get().catalog().tables().stream().map(t -> t.name())
                    .filter(access::sees).map(Object::toString).sorted().toList();
            out.println("tables (" + tables.size() + " of " + stored.get().catalog().tables().size() + "): " + tables);
            List<String> metrics = new ArrayList<>();
            for (var m : stored.get().metrics()) {
                dev.schemabrain.catalog.Table table = stored.get().entities().get(m.entity());
                if (table != null && access.seesMetric(m.name(), List.of(table.name()))) {
                    metrics.add(m.name());
                }
            }
            out.println("metrics (" + metrics.size() + " of " + stored.get().metrics().size() + ", by their entity's table;"
                    + " a metric that joins another table needs it allowed too): " + metrics);
        }
        r.metrics().ifPresent(m -> out.println("metrics listed by the role: " + new java.util.TreeSet<>(m)));
        if (r.rowFilters().isEmpty()) {
            out.println("row filters: none");
        }
        for (BoundRowFilter f : access.rowFilters()) {
            out.println("row filter: " + f.filter().entity() + " where " + f.filter().column()
                    + (f.filter().op() == RowFilter.Op.EQ ? " = " + f.values().get(0) : " in " + f.values())
                    + " (claim " + f.filter().claim() + ")");
        }
        for (RowFilter f : access.missingClaims()) {
            out.println("row filter: " + f.entity() + " where " + f.column() + " needs the claim " + f.claim()
                    + ", which this caller lacks: every call reaching " + f.entity() + " is refused.");
        }
        out.println("pii_clearance: " + (r.piiClearance().isEmpty() ? "none (the server's block list applies)"
                : new java.util.TreeSet<>(r.piiClearance())));
        out.println("min_group_size: " + (r.minGroupSize().isPresent() ? r.minGroupSize().getAsInt()
                + " (never below the server's --min-group-size)" : "the server's --min-group-size"));
        out.println("metric_rate: " + r.metricRate().orElse("the server's --metric-rate-limit"));
        return 0;
    }

    private static String role(String given, AccessPolicy policy) {
        return given != null ? given : policy.defaultRole().map(d -> "(none given; default_role " + d + ")")
                .orElse("(none given; default_role none)");
    }

    private static int store(StoreLocation store, PiiPolicy policy) throws StoreException, UserError {
        Stored s = read(store);
        List<Resolved> resolved = resolveAll(s.catalog(), policy);
        List<PiiTags.Entry> overrides = resolved.stream().map(Resolved::entry).toList();
        List<PiiAllowanceRepository.Entry> allowances = resolved.stream()
                .map(r -> new PiiAllowanceRepository.Entry(r.entry().table(), r.entry().column(), r.allow())).toList();
        try (Store opened = Stores.open(store)) {
            opened.write(c -> {
                TagPurge.replaceOverrides(c, overrides);
                PiiAllowanceRepository.replace(c, allowances);
                PiiRepository.putBlockList(c, policy.block());
                SubjectPolicyRepository.replace(c, policy.subjects());
                return null;
            });
        }
        return overrides.size();
    }

    /** Every entity the subject overrides name must be in the semantic layer; all problems are reported at once. */
    private static void subjectCheck(Stored s, SubjectPolicy subjects) throws UserError {
        List<String> problems = new ArrayList<>();
        Set<String> known = s.entities().keySet();
        java.util.function.BiConsumer<String, String> need = (where, entity) -> {
            if (!known.contains(entity)) {
                List<String> close = dev.schemabrain.catalog.Fuzzy.best(entity, known, 3);
                problems.add(where + " names the entity " + entity + ", which the semantic layer does not have"
                        + (close.isEmpty() ? "" : "; did you mean " + String.join(", ", close) + "?"));
            }
        };
        subjects.classes().keySet().forEach(e -> need.accept("subjects", e));
        subjects.subjectOf().forEach((fact, person) -> {
            need.accept("subject_of", fact);
            need.accept("subject_of." + fact, person);
        });
        subjects.personKeys().forEach((key, person) -> {
            need.accept("person_keys", key.substring(0, key.indexOf('.')));
            need.accept("person_keys." + key, person);
        });
        ApplyCommand.failOnProblems(problems, "nothing was applied");
    }

    /** An override resolved against the index, with its allowances. */
    private record Resolved(PiiTags.Entry entry, Set<Allowance> allow) {
    }

    /** Every override resolved against the index; all problems are reported at once. */
    private static List<Resolved> resolveAll(Catalog catalog, PiiPolicy policy) throws UserError {
        List<Resolved> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (PiiPolicy.ColumnOverride o : policy.columns()) {
            try {
                out.add(new Resolved(resolve(catalog, o.column(), o.tag()), o.allow()));
            } catch (UserError e) {
                problems.add(e.getMessage());
            }
        }
        ApplyCommand.failOnProblems(problems, "nothing was applied");
        return out;
    }

    private static PiiTags.Entry resolve(Catalog catalog, String column, PiiTag tag) throws UserError {
        NameLookup.ColumnResult result = new NameLookup(catalog).resolveColumn(column);
        if (result instanceof NameLookup.ColumnResult.Found found) {
            return new PiiTags.Entry(found.table().name(), found.column().name(), tag, PiiTags.Origin.OPERATOR);
        }
        List<String> matches = result instanceof NameLookup.NotFound n ? n.fuzzyMatches()
                : result instanceof NameLookup.ColumnResult.UnknownColumn u ? u.fuzzyMatches() : List.of();
        String hint = matches.isEmpty() ? "; name it as schema.table.column, as 'schemabrain policy tags' and describe_table show."
                : "; did you mean " + String.join(", ", matches) + "?";
        throw new UserError(SchemaBrainException.Kind.INPUT, "The column " + column + " is not in the index" + hint);
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
