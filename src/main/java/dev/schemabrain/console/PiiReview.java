package dev.schemabrain.console;

import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.Sensitivity;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.pii.SubjectClasses;
import dev.schemabrain.policy.PiiPolicyStore;
import dev.schemabrain.semantic.compile.SubjectGraph;
import dev.schemabrain.store.StoreLocation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reviewing PII tags and data subjects: what the served catalog holds (tags with their evidence, every entity's
 * subject class with why), and the reviewer's changes written to {@code pii_policy.yaml} and applied to the store
 * as {@code schemabrain policy tag} does it, each with an audit row naming the reviewer. Never a column's value.
 */
final class PiiReview {

    /** The audit rows' tool names for a change. */
    static final String CONFIRM = "confirm_column";
    static final String UNTAG = "untag_column";
    static final String RETAG = "retag_column";
    static final String SUBJECT = "set_subject";

    /** An entity's class with why, and for a fact the person its rows are about and through which key. */
    record Subject(SubjectClasses.Assigned assigned, Optional<String> about) {
    }

    /**
     * What the PII page shows: tags as served, the columns the operator marked as holding no PII, the classifier's
     * evidence by {@code schema.table.column} (kept where the operator's word replaced it), the block list, every
     * entity's subject class, and the file written.
     */
    record View(List<PiiTags.Entry> tagged, List<PiiTags.Entry> untagged, Map<String, List<String>> classifier,
                BlockList block, List<Subject> subjects, Path file) {
    }

    private final StoreLocation store;
    private final Path file;
    private final CatalogProvider catalogs;
    private final AuditLog audit;
    private final AuditKey key;

    PiiReview(StoreLocation store, Path file, CatalogProvider catalogs, AuditLog audit, AuditKey key) {
        this.store = store;
        this.file = file;
        this.catalogs = catalogs;
        this.audit = audit;
        this.key = key;
    }

    Path file() {
        return file;
    }

    /** As an agent's next call sees it: the served catalog, reloaded when the store changed. */
    View view() throws DraftReview.Refused {
        Optional<ServedCatalog> served = catalogs.current();
        if (served.isEmpty()) {
            return new View(List.of(), List.of(), Map.of(), BlockList.FLOOR, List.of(), file);
        }
        PiiPolicyStore.Stored stored;
        try {
            stored = PiiPolicyStore.read(store);
        } catch (SchemaBrainException e) {
            throw new DraftReview.Refused(e.getMessage());
        }
        Map<String, List<String>> classifier = new HashMap<>();
        stored.heuristic().forEach(h -> classifier.put(h.qualifiedColumn(), h.tag().reasons()));
        List<PiiTags.Entry> untagged = stored.overrides().stream().filter(o -> !o.tag().tagged())
                .sorted(Comparator.comparing(PiiTags.Entry::qualifiedColumn)).toList();
        SubjectGraph graph = served.get().subjectGraph();
        List<Subject> subjects = new ArrayList<>();
        for (SubjectClasses.Assigned a : served.get().subjectClasses()) {
            Optional<String> about = a.subjectClass() == SubjectClass.PERSON ? Optional.empty()
                    : graph.subjectOf(a.entity()).filter(p -> !p.hops().isEmpty()).map(PiiReview::about);
            subjects.add(new Subject(a, about));
        }
        return new View(served.get().pii().tagged(), untagged, classifier, served.get().blockList(), subjects, file);
    }

    private static String about(SubjectGraph.Path path) {
        List<String> steps = path.hops().stream().map(h -> h.from() + "." + h.keyColumn() + " → " + h.to()).toList();
        return path.subject() + " (through " + String.join(", ", steps) + ")";
    }

    /** Keeps the column's current categories, now as the operator's word: it survives every re-index. */
    synchronized PiiTags.Entry confirm(String reviewer, String column) throws DraftReview.Refused {
        PiiTag now = current(column);
        if (!now.tagged()) {
            throw new DraftReview.Refused("The column " + column + " is not tagged, so there is nothing to confirm; retag it"
                    + " to give it a category.");
        }
        return tag(reviewer, CONFIRM, column, new PiiTag(now.sensitivity(), now.categories(), List.of("operator")));
    }

    /** Marks the column as holding no PII, as {@code policy tag COLUMN --none} does; the floor is never lifted here. */
    synchronized PiiTags.Entry untag(String reviewer, String column) throws DraftReview.Refused {
        return tag(reviewer, UNTAG, column, new PiiTag(Sensitivity.PUBLIC, Set.of(), List.of("operator")));
    }

    /** Replaces the column's categories with {@code category}. */
    synchronized PiiTags.Entry retag(String reviewer, String column, PiiCategory category) throws DraftReview.Refused {
        return tag(reviewer, RETAG, column, PiiTag.of(EnumSet.of(category), List.of("operator")));
    }

    /** Sets the entity's data-subject class in the file's {@code subjects}. */
    synchronized void subject(String reviewer, String entity, SubjectClass subjectClass) throws DraftReview.Refused {
        try {
            PiiPolicyStore.subject(store, file, entity, subjectClass);
        } catch (SchemaBrainException e) {
            throw new DraftReview.Refused(e.getMessage());
        }
        record(reviewer, SUBJECT, Map.of("entity", entity, "subject", subjectClass.wireName()), List.of(),
                "The subject class of " + entity);
    }

    private PiiTags.Entry tag(String reviewer, String tool, String column, PiiTag tag) throws DraftReview.Refused {
        PiiTags.Entry written;
        try {
            // No --force-pii-floor from a web form: taking an always-blocked category off stays a terminal decision.
            written = PiiPolicyStore.tag(store, file, column, tag, false, Optional.empty());
        } catch (SchemaBrainException e) {
            throw new DraftReview.Refused(e.getMessage());
        }
        record(reviewer, tool, Map.of("column", written.qualifiedColumn(), "categories", tag.categoryNames()),
                tag.categoryNames(), "The tag of " + written.qualifiedColumn());
        return written;
    }

    private PiiTag current(String column) throws DraftReview.Refused {
        try {
            PiiPolicyStore.Stored s = PiiPolicyStore.read(store);
            return s.tags().tagged().stream().filter(e -> e.qualifiedColumn().equals(column)).findFirst()
                    .map(PiiTags.Entry::tag).orElse(PiiTag.NONE);
        } catch (SchemaBrainException e) {
            throw new DraftReview.Refused(e.getMessage());
        }
    }

    /** The change's audit row: the reviewer as caller, what changed only as the keyed hash every row holds. */
    private void record(String reviewer, String tool, Map<String, Object> args, List<String> categories, String what)
            throws DraftReview.Refused {
        try {
            audit.append(new AuditEntry(null, reviewer, tool, AuditEntry.Phase.CALL, "success", null, categories,
                    ArgsHash.of(key, args), null, null, null));
        } catch (AuditException e) {
            throw new DraftReview.Refused(what + " is in " + file + " and the store, but the audit chain did not record it ("
                    + e.getMessage() + ").");
        }
    }
}
