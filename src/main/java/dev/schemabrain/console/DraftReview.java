package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.time.Clock;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reviewing drafts one metric at a time: what each draft answers (through get_metric itself, so row scopes,
 * small-cell suppression and PII rules apply and the assumptions are the ones an agent gets), and the reviewer's
 * verdict written into the store as {@code apply --reviewer} writes it, with an audit row naming the reviewer.
 */
final class DraftReview {

    /** The audit rows' tool names for a verdict. */
    static final String APPROVE = "approve_metric";
    static final String REJECT = "reject_metric";

    /** A draft and what get_metric answered for it over the last 12 months (or in all, without a time axis). */
    record Draft(Metric metric, String period, Map<String, Object> request, JsonNode answer) {
    }

    /** A verdict the store or the chain refused, as one sentence for the reviewer. */
    static final class Refused extends Exception {
        Refused(String sentence) {
            super(sentence, null, false, false);
        }
    }

    private final StoreLocation store;
    private final ToolRegistry tools;
    private final AuditLog audit;
    private final AuditKey key;
    private final String reviewer;
    private final LocalDate asOf;
    private final Clock clock;

    /**
     * @param tools    the registry get_metric is called through, audited into {@code audit}
     * @param reviewer who signs the verdicts, as {@code apply --reviewer} does
     * @param asOf     the day the 12 months end (exclusive)
     */
    DraftReview(StoreLocation store, ToolRegistry tools, AuditLog audit, AuditKey key, String reviewer, LocalDate asOf,
                Clock clock) {
        this.store = store;
        this.tools = tools;
        this.audit = audit;
        this.key = key;
        this.reviewer = reviewer;
        this.asOf = asOf;
        this.clock = clock;
    }

    String reviewer() {
        return reviewer;
    }

    /** The same review signed by {@code name}: on a team's console each verdict is signed by the caller signed in. */
    DraftReview signedBy(String name) {
        return name.equals(reviewer) ? this : new DraftReview(store, tools, audit, key, name, asOf, clock);
    }

    /** The caller name the console's own get_metric calls carry in the audit chain. */
    String caller() {
        return "console:" + reviewer;
    }

    /** Every metric nobody has reviewed yet, by name, each with its answer. */
    List<Draft> drafts() throws StoreException {
        List<Draft> out = new ArrayList<>();
        for (Metric m : stored().metrics().stream().filter(DraftReview::isDraft)
                .sorted(java.util.Comparator.comparing(Metric::name)).toList()) {
            out.add(preview(m));
        }
        return out;
    }

    private static boolean isDraft(Metric m) {
        return m.origin().state() == ValidationState.DRAFT;
    }

    /**
     * get_metric by month over the 12 months before {@code asOf}; a refusal whose recovery is another get_metric call
     * (amounts grouped by their currency) is followed once, as an agent would.
     */
    private Draft preview(Metric m) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", m.name());
        String period = "in all (the metric has no time axis)";
        if (m.timeDimension() != null) {
            LocalDate from = asOf.minusMonths(12);
            args.put("time_grain", "month");
            args.put("filters", List.of(Map.of("column", m.timeDimension(), "op", "gte", "value", from.toString()),
                    Map.of("column", m.timeDimension(), "op", "lt", "value", asOf.toString())));
            period = "by month from " + from + " to " + asOf.minusDays(1);
        }
        Envelope answer = tools.call("get_metric", args, caller());
        if (answer.error() != null && answer.error().recovery() != null
                && "get_metric".equals(answer.error().recovery().suggestedTool())
                && !answer.error().recovery().suggestedArgs().isEmpty()) {
            Map<String, Object> recovered = new LinkedHashMap<>(answer.error().recovery().suggestedArgs());
            Envelope second = tools.call("get_metric", recovered, caller());
            if (second.error() == null) {
                return new Draft(m, period, recovered, second.toTree());
            }
        }
        return new Draft(m, period, args, answer.toTree());
    }

    /** Confirms the draft {@code name}: its definition unchanged, {@code confirmed}, stamped with this reviewer. */
    MetricReview approve(String name) throws Refused, StoreException {
        MetricReview review = new MetricReview(reviewer, clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        write(name, (model, draft) -> {
            List<Metric> metrics = model.metrics().stream()
                    .map(m -> m.name().equals(name) ? m.withOrigin(m.origin().confirmed()) : m).toList();
            return new SemanticModel(model.entities(), model.joins(), metrics, model.reviews());
        }, review);
        record(APPROVE, name);
        return review;
    }

    /**
     * Takes the draft {@code name} out of the served layer, so no agent gets its number. The store has no rejected
     * state yet: the next index drafts it again, and the chain keeps who rejected it.
     */
    void reject(String name) throws Refused, StoreException {
        write(name, (model, draft) -> {
            for (Metric m : model.metrics()) {
                if (!m.name().equals(name) && uses(m, name)) {
                    throw new Refused("The metric " + name + " is part of " + m.name() + "; review " + m.name() + " first.");
                }
            }
            List<Metric> metrics = model.metrics().stream().filter(m -> !m.name().equals(name)).toList();
            return new SemanticModel(model.entities(), model.joins(), metrics, model.reviews());
        }, null);
        record(REJECT, name);
    }

    /** Whether {@code m} is built on the metric {@code name}. */
    static boolean uses(Metric m, String name) {
        MetricKind k = m.kind();
        if (k instanceof MetricKind.Ratio r) {
            return r.numerator().equals(name) || r.denominator().equals(name);
        }
        if (k instanceof MetricKind.Derived d) {
            return java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(name) + "\\b").matcher(d.expression()).find();
        }
        return k instanceof MetricKind.Cumulative c && c.metric().equals(name);
    }

    private interface Change {
        SemanticModel apply(SemanticModel model, Metric draft) throws Refused;
    }

    /** One store transaction: the metric must still be a draft there, whatever the page showed. */
    private void write(String name, Change change, MetricReview review) throws Refused, StoreException {
        try (Store s = Stores.open(store)) {
            s.write(c -> {
                SemanticModel model = SemanticLayer.stored(c);
                Optional<Metric> draft = model.metric(name);
                if (draft.isEmpty()) {
                    throw new RefusedInside("There is no metric named " + name + " in the store; reload the page.");
                }
                if (!isDraft(draft.get())) {
                    throw new RefusedInside("The metric " + name + " is no longer a draft; reload the page.");
                }
                try {
                    SemanticLayer.replace(c, change.apply(model, draft.get()), review);
                } catch (Refused e) {
                    throw new RefusedInside(e.getMessage());
                }
                return null;
            });
        } catch (RefusedInside e) {
            throw new Refused(e.getMessage());
        }
    }

    /** Carries a refusal out of the store's transaction, which then writes nothing. */
    private static final class RefusedInside extends RuntimeException {
        RefusedInside(String sentence) {
            super(sentence, null, false, false);
        }
    }

    /** The verdict's audit row: the reviewer as caller, the metric's name only as the keyed hash every row uses. */
    private void record(String tool, String name) throws Refused {
        try {
            audit.append(new AuditEntry(null, reviewer, tool, AuditEntry.Phase.CALL, "success", null, List.of(),
                    ArgsHash.of(key, Map.of("name", name)), null, null, null));
        } catch (AuditException e) {
            throw new Refused("The verdict on " + name + " is in the store, but the audit chain did not record it ("
                    + e.getMessage() + ").");
        }
    }

    SemanticModel stored() throws StoreException {
        try (Store s = Stores.open(store)) {
            return s.read(SemanticLayer::stored);
        }
    }
}
