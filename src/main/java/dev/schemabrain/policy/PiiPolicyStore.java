package dev.schemabrain.policy;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameLookup;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.index.TagPurge;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.pii.Allowance;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.pii.SubjectPolicy;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.store.PiiAllowanceRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.StoreSnapshot;
import dev.schemabrain.store.Stores;
import dev.schemabrain.store.SubjectPolicyRepository;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The PII policy file and the store kept in step: every change is checked against the index (and the catastrophic
 * floor) first, then written to the file (private, replaced atomically) and applied to the store in one transaction,
 * so a bad file never results and a running server's catalog reloads with the new tags.
 */
public final class PiiPolicyStore {

    private PiiPolicyStore() {
    }

    /** What the store holds of the policy, the index and the semantic layer. */
    public record Stored(Catalog catalog, PiiTags tags, List<PiiTags.Entry> overrides, Optional<BlockList> block,
                         List<PiiTags.Entry> heuristic, SubjectPolicy subjects, Map<String, Table> entities,
                         List<Metric> metrics) {

        /** Every entity's data-subject class, the operator's or drafted, with why. */
        public List<SubjectClasses.Assigned> subjectClasses() {
            return SubjectClasses.assign(entities, tags, subjects);
        }
    }

    public static Stored read(StoreLocation store) throws StoreException, UserError {
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

    /**
     * Loads {@code policy} into the store (its block list, overrides, allowances and subjects replace the applied
     * ones) after checking every column and entity it names; answers the number of column overrides.
     *
     * @param command the command a refusal suggests re-running with --force-pii-floor
     */
    public static int apply(StoreLocation store, PiiPolicy policy, boolean forceFloor, String command)
            throws StoreException, UserError {
        Stored s = read(store);
        floorCheck(s, resolveAll(s.catalog(), policy), forceFloor, command);
        subjectCheck(s, policy.subjects());
        return write(store, policy);
    }

    /**
     * Sets one column's tag in {@code file} and applies the file; the column's allowances are kept.
     *
     * @param column  as the operator wrote it; resolved against the index
     * @param command the command (its column is added) a floor refusal suggests re-running with --force-pii-floor,
     *                or empty where the floor cannot be forced (the console)
     * @return the column's entry as applied, named as the index names it
     */
    public static PiiTags.Entry tag(StoreLocation store, Path file, String column, PiiTag tag, boolean forceFloor,
                                    Optional<String> command) throws SchemaBrainException {
        Stored s = read(store);
        PiiTags.Entry resolved = resolve(s.catalog(), column, tag);
        PiiPolicy current = PiiPolicy.read(file);
        // Retagging keeps the column's allowances; only its categories change.
        Set<Allowance> kept = current.columns().stream().filter(c -> c.column().equals(resolved.qualifiedColumn()))
                .findFirst().map(PiiPolicy.ColumnOverride::allow).orElse(Set.of());
        floorCheck(s, List.of(new Resolved(resolved, kept)), forceFloor,
                command.map(c -> c + " " + resolved.qualifiedColumn()).orElse(null));
        PiiPolicy policy = current.with(new PiiPolicy.ColumnOverride(resolved.qualifiedColumn(), resolved.tag(), kept));
        // The store is checked before the file is written, so a bad file never results from this command.
        resolveAll(s.catalog(), policy);
        policy.write(file);
        write(store, policy);
        return resolved;
    }

    /** Sets one entity's data-subject class in {@code file} (its {@code subjects}) and applies the file. */
    public static void subject(StoreLocation store, Path file, String entity, SubjectClass subjectClass)
            throws SchemaBrainException {
        Stored s = read(store);
        PiiPolicy current = PiiPolicy.read(file);
        Map<String, SubjectClass> classes = new TreeMap<>(current.subjects().classes());
        classes.put(entity, subjectClass);
        SubjectPolicy subjects = new SubjectPolicy(classes, current.subjects().subjectOf(), current.subjects().personKeys());
        PiiPolicy policy = new PiiPolicy(current.block(), current.columns(), subjects);
        subjectCheck(s, subjects);
        resolveAll(s.catalog(), policy);
        policy.write(file);
        write(store, policy);
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
                    + ", which would let the server aggregate over them; keep the categories"
                    + (command == null ? ", or use 'schemabrain policy tag --force-pii-floor' if the column truly holds no such data."
                    : ", or run '" + command + " --force-pii-floor' if the column truly holds no such data."));
        }
    }

    /** Writes the policy's block list, overrides, allowances and subjects in one transaction; answers the number of overrides. */
    private static int write(StoreLocation store, PiiPolicy policy) throws StoreException, UserError {
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
        BiConsumer<String, String> need = (where, entity) -> {
            if (!known.contains(entity)) {
                List<String> close = Fuzzy.best(entity, known, 3);
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
        failOnProblems(problems);
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
        failOnProblems(problems);
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

    /** One problem as one sentence; several listed, one a line. Nothing is applied either way. */
    private static void failOnProblems(List<String> problems) throws UserError {
        if (problems.isEmpty()) {
            return;
        }
        String first = problems.get(0);
        throw new UserError(SchemaBrainException.Kind.INPUT, problems.size() == 1
                ? (first.endsWith(".") ? first.substring(0, first.length() - 1) : first) + "; nothing was applied."
                : problems.size() + " problems, nothing was applied:\n  " + String.join("\n  ", problems));
    }
}
