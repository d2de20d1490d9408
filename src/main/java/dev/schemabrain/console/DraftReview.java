package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.AmountCurrency;
import dev.schemabrain.semantic.StatusColumn;
import dev.schemabrain.semantic.TimeAxis;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.project.SemanticProject;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.MetricKind;
import dev.schemabrain.semantic.model.MetricReview;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reviewing drafts one metric at a time: what each draft answers (through get_metric itself, so row scopes,
 * small-cell suppression and PII rules apply and the assumptions are the ones an agent gets), and the reviewer's
 * verdict written into the store as {@code apply --reviewer} writes it, with an audit row naming the reviewer.
 */
final class DraftReview {

    /** The audit rows' tool names for a verdict. */
    static final String APPROVE = "approve_metric";
    static final String REJECT = "reject_metric";
    static final String RESTORE = "restore_metric";

    /**
     * A draft and what get_metric answered for it over the last 12 months (or in all, without a time axis).
     *
     * @param choices what a reviewer may change in its definition
     */
    record Draft(Metric metric, String period, Map<String, Object> request, JsonNode answer, Choices choices) {
    }

    /**
     * What a reviewer may change in a draft, each part empty when its entity offers no choice there.
     *
     * @param statuses the status column's values to count
     * @param currency the currencies its amounts may be restricted to (else answered per currency)
     * @param timeAxis the date columns its rows may be dated by
     */
    record Choices(Optional<Statuses> statuses, Optional<Currencies> currency, Optional<TimeAxes> timeAxis) {
        boolean any() {
            return statuses.isPresent() || currency.isPresent() || timeAxis.isPresent();
        }

        /** What the draft does now, as the edit that would leave it unchanged. */
        Edit current() {
            return new Edit(statuses.map(Statuses::counted).orElse(List.of()), currency.flatMap(Currencies::kept),
                    timeAxis.map(TimeAxes::dated));
        }
    }

    /**
     * A status column's domain and the values a metric counts now (all of them when it does not filter the column).
     *
     * @param reference {@code entity.column}
     */
    record Statuses(String reference, List<String> values, List<String> counted) {
        Statuses {
            values = List.copyOf(values);
            counted = List.copyOf(counted);
        }
    }

    /**
     * The currency column of a sum or average of money, its known values, and the one the metric keeps now (none:
     * answered per currency, each currency its own row).
     */
    record Currencies(String reference, List<String> values, Optional<String> kept) {
        Currencies {
            values = List.copyOf(values);
        }
    }

    /** The date columns a metric's rows may be dated by (best first) and the one dating it now. */
    record TimeAxes(List<String> references, String dated) {
        TimeAxes {
            references = List.copyOf(references);
        }
    }

    /**
     * A reviewer's edit of a draft, read against its {@link Choices}: the statuses to count, the one currency to keep
     * (empty: per currency), the time axis (empty: unchanged). A part its choices do not offer must be empty.
     */
    record Edit(List<String> statuses, Optional<String> currency, Optional<String> timeAxis) {
        Edit {
            statuses = List.copyOf(statuses);
        }
    }

    /** An approval with an edit: the stamp, and the edit as saved (statuses in the column's order, unchanged parts left out). */
    record Approval(MetricReview review, Edit edit) {
    }

    /** A draft's answer now beside its answer with the reviewer's edit, before anything is saved. */
    record Comparison(Draft before, Draft after, Edit edit) {
    }

    /** A metric a reviewer rejected, with who rejected it and when (null for a store that did not record it). */
    record Rejected(Metric metric, MetricReview review) {
    }

    /** A verdict the store or the chain refused, as one sentence for the reviewer. */
    static final class Refused extends Exception {
        Refused(String sentence) {
            super(sentence, null, false, false);
        }
    }

    private final StoreLocation store;
    private final ToolRegistry tools;
    private final CatalogProvider catalogs;
    /** The same tools over another catalog: a preview's, with the edited metric in place of the draft. */
    private final Function<CatalogProvider, ToolRegistry> toolsOver;
    /** Where each verdict is written as YAML, as export writes it; empty writes the store only. */
    private final Optional<Path> project;
    private final AuditLog audit;
    private final AuditKey key;
    private final String reviewer;
    private final LocalDate asOf;
    private final Clock clock;

    /**
     * @param toolsOver the registry get_metric is called through over a catalog, audited into {@code audit}
     * @param project   the semantic project directory each verdict is written into as YAML, if any
     * @param reviewer  who signs the verdicts, as {@code apply --reviewer} does
     * @param asOf      the day the 12 months end (exclusive)
     */
    DraftReview(StoreLocation store, CatalogProvider catalogs, Function<CatalogProvider, ToolRegistry> toolsOver,
                Optional<Path> project, AuditLog audit, AuditKey key, String reviewer, LocalDate asOf, Clock clock) {
        this(store, catalogs, toolsOver, toolsOver.apply(catalogs), project, audit, key, reviewer, asOf, clock);
    }

    /** @param tools {@code toolsOver} over {@code catalogs}, built once and shared by every signer */
    private DraftReview(StoreLocation store, CatalogProvider catalogs, Function<CatalogProvider, ToolRegistry> toolsOver,
                        ToolRegistry tools, Optional<Path> project, AuditLog audit, AuditKey key, String reviewer,
                        LocalDate asOf, Clock clock) {
        this.store = store;
        this.catalogs = catalogs;
        this.toolsOver = toolsOver;
        this.tools = tools;
        this.project = project;
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
        return name.equals(reviewer) ? this : new DraftReview(store, catalogs, toolsOver, tools, project, audit, key, name, asOf, clock);
    }

    /** The caller name the console's own get_metric calls carry in the audit chain. */
    String caller() {
        return "console:" + reviewer;
    }

    /** Every metric nobody has reviewed yet, by name, each with its answer. */
    List<Draft> drafts() throws StoreException {
        List<Draft> out = new ArrayList<>();
        Optional<ServedCatalog> served = catalogs.current();
        for (Metric m : stored().metrics().stream().filter(DraftReview::isDraft)
                .sorted(Comparator.comparing(Metric::name)).toList()) {
            out.add(preview(m, tools, choices(m, served)));
        }
        return out;
    }

    /** Every metric a reviewer rejected, by name: kept in the store, never served, restorable. */
    List<Rejected> rejected() throws StoreException {
        SemanticModel model = stored();
        return model.metrics().stream().filter(m -> m.origin().rejected())
                .sorted(Comparator.comparing(Metric::name))
                .map(m -> new Rejected(m, model.review(m.name()).orElse(null))).toList();
    }

    /**
     * The status column of a simple metric's entity, with every value of its domain and those the metric counts; empty
     * when there is none, its values are unknown (a PII-tagged column has none in the served catalog), or the
     * metric's own filter on it is not a set of values.
     */
    static Optional<Statuses> statuses(Metric m, Optional<ServedCatalog> served) {
        if (!m.isSimple() || served.isEmpty()) {
            return Optional.empty();
        }
        Optional<StatusColumn> column = StatusColumn.of(served.get().semantic(), served.get().catalog()::table, m.entity())
                .filter(c -> !c.values().isEmpty());
        if (column.isEmpty()) {
            return Optional.empty();
        }
        String ref = column.get().reference();
        List<String> counted = new ArrayList<>(column.get().values());
        for (Filter f : m.filters()) {
            if (!f.column().strip().equalsIgnoreCase(ref)) {
                continue;
            }
            List<String> named = named(f);
            if (f.comparesColumns() || named == null) {
                return Optional.empty();
            }
            switch (f.op()) {
                case IN, EQ -> counted.retainAll(named);
                case NOT_IN, NE -> counted.removeAll(named);
                default -> {
                    return Optional.empty();
                }
            }
        }
        return Optional.of(new Statuses(ref, column.get().values(), counted));
    }

    /** Everything a reviewer may change in {@code m} over the served catalog. */
    static Choices choices(Metric m, Optional<ServedCatalog> served) {
        return new Choices(statuses(m, served), currencies(m, served), timeAxes(m, served));
    }

    /**
     * The currency column of a sum or average of money whose rows carry one of several known currencies, and the one
     * the metric keeps now; empty when amounts have one currency, their values are unknown, or the metric's own filter
     * on the column keeps more than one.
     */
    static Optional<Currencies> currencies(Metric m, Optional<ServedCatalog> served) {
        if (!m.isSimple() || served.isEmpty() || m.measure() == null
                || m.measure().agg() != Aggregation.SUM && m.measure().agg() != Aggregation.AVG) {
            return Optional.empty();
        }
        SemanticModel model = served.get().semantic();
        Optional<Table> table = model.entity(m.entity()).map(Entity::table).flatMap(served.get().catalog()::table);
        if (table.isEmpty() || !AmountCurrency.inRowCurrency(m.measure(), table.get())) {
            return Optional.empty();
        }
        Optional<AmountCurrency> currency = AmountCurrency.of(model, served.get().catalog()::table, m.entity())
                .filter(c -> c.known() > 1);
        if (currency.isEmpty()) {
            return Optional.empty();
        }
        String ref = currency.get().reference();
        Optional<String> kept = Optional.empty();
        for (Filter f : m.filters()) {
            if (f.column().strip().equalsIgnoreCase(ref)) {
                List<String> one = named(f);
                if (f.comparesColumns() || one == null || one.size() != 1 || f.op() != FilterOp.EQ && f.op() != FilterOp.IN) {
                    return Optional.empty();
                }
                kept = Optional.of(one.get(0));
            }
        }
        return Optional.of(new Currencies(ref, currency.get().values(), kept));
    }

    /**
     * The date columns {@code m}'s rows may be dated by (its own, or those of the rows they are lines of), with the
     * one dating it now; empty when there is no other to choose.
     */
    static Optional<TimeAxes> timeAxes(Metric m, Optional<ServedCatalog> served) {
        if (!m.isSimple() || served.isEmpty()) {
            return Optional.empty();
        }
        TimeAxis axis = TimeAxis.of(served.get().catalog(), served.get().semantic(), m.entity());
        List<String> references = new ArrayList<>();
        if (m.timeDimension() != null) {
            references.add(m.timeDimension().strip());
        }
        axis.candidates().stream().map(TimeAxis.Candidate::reference)
                .filter(r -> references.stream().noneMatch(r::equalsIgnoreCase)).forEach(references::add);
        String dated = m.timeDimension() != null ? m.timeDimension().strip()
                : axis.chosen().map(TimeAxis.Candidate::reference).orElse(null);
        if (dated == null || references.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(new TimeAxes(references, dated));
    }

    /** The values a filter names, or null when it names none. */
    private static List<String> named(Filter f) {
        return f.value() instanceof List<?> list ? list.stream().map(String::valueOf).toList()
                : f.value() == null ? null : List.of(String.valueOf(f.value()));
    }

    /**
     * {@code m} with the reviewer's {@code edit}: its filters on the status column replaced by one {@code in} filter
     * (none when every value is chosen), its filter on the currency column by one {@code eq} filter (none: per
     * currency), its time axis by the one chosen. A value its choices do not offer is refused.
     */
    static Metric edited(Metric m, Choices choices, Edit edit) throws Refused {
        List<Filter> filters = new ArrayList<>(m.filters());
        if (choices.statuses().isPresent()) {
            Statuses statuses = choices.statuses().get();
            if (edit.statuses().isEmpty()) {
                throw new Refused("Choose at least one status for " + m.name() + " to count.");
            }
            for (String v : edit.statuses()) {
                offered(v, statuses.values(), statuses.reference());
            }
            List<String> kept = statuses.values().stream().filter(edit.statuses()::contains).toList();   // the domain's order
            filters.removeIf(f -> f.column().strip().equalsIgnoreCase(statuses.reference()));
            if (kept.size() < statuses.values().size()) {
                filters.add(new Filter(statuses.reference(), FilterOp.IN, kept));
            }
        } else if (!edit.statuses().isEmpty()) {
            throw new Refused("The metric " + m.name() + " has no status column whose values are known, so its statuses"
                    + " cannot be chosen.");
        }
        if (choices.currency().isPresent()) {
            Currencies currency = choices.currency().get();
            filters.removeIf(f -> f.column().strip().equalsIgnoreCase(currency.reference()));
            if (edit.currency().isPresent()) {
                offered(edit.currency().get(), currency.values(), currency.reference());
                filters.add(new Filter(currency.reference(), FilterOp.EQ, edit.currency().get()));
            }
        } else if (edit.currency().isPresent()) {
            throw new Refused("The metric " + m.name() + " adds no amounts in several known currencies, so no currency"
                    + " can be chosen for it.");
        }
        String time = m.timeDimension();
        if (edit.timeAxis().isPresent()) {
            if (choices.timeAxis().isEmpty()) {
                throw new Refused("The metric " + m.name() + " has no other date column to be dated by.");
            }
            offered(edit.timeAxis().get(), choices.timeAxis().get().references(), "the metric's time axis");
            time = edit.timeAxis().get().equals(choices.timeAxis().get().dated()) ? m.timeDimension() : edit.timeAxis().get();
        }
        return new Metric(m.name(), m.description(), m.entity(), m.measure(), time, m.timeGrains(), filters,
                m.origin(), m.kind());
    }

    /** Refuses {@code value} unless {@code offered} holds it. */
    private static void offered(String value, List<String> offered, String of) throws Refused {
        if (!offered.contains(value)) {
            throw new Refused("'" + (value.length() > 60 ? value.substring(0, 60) + "…" : value) + "' is not a choice for "
                    + of + "; choose among " + String.join(", ", offered) + ".");
        }
    }

    /** A draft and what a reviewer may change in it. */
    private record Editable(Metric metric, Choices choices) {
    }

    /** The draft {@code name} and its choices; refused when it is not a draft or {@code edit} chooses what they do not offer. */
    private Editable editable(String name, Edit edit) throws Refused, StoreException {
        Metric m = stored().metric(name).filter(DraftReview::isDraft).orElseThrow(() -> new Refused("There is no draft"
                + " metric named " + name + " in the store; reload the page."));
        Choices choices = choices(m, catalogs.current());
        if (!choices.any()) {
            throw new Refused("The metric " + name + " offers nothing to choose (no status column with known values, no"
                    + " currencies, no other date column); approve or reject it as it is.");
        }
        edited(m, choices, edit);   // refuses a foreign value before anything runs
        return new Editable(m, choices);
    }

    /**
     * What the draft {@code name} answers now and with the reviewer's {@code edit}, through the same get_metric
     * (compiler, executor, row scopes, small-cell suppression, PII rules) over the served catalog with the edited
     * definition in place of the draft. Nothing is saved.
     */
    Comparison compare(String name, Edit edit) throws Refused, StoreException {
        Editable e = editable(name, edit);
        Metric edited = edited(e.metric(), e.choices(), edit);
        Optional<ServedCatalog> served = catalogs.current().map(c -> c.withMetric(edited));   // once: its parts are memoized
        // The edited answer keeps the draft's choices: the form beside it offers the same values, with the edit ticked.
        return new Comparison(preview(e.metric(), tools, e.choices()), preview(edited, toolsOver.apply(() -> served),
                e.choices()), edit);
    }

    /**
     * Approves the draft {@code name} with the reviewer's {@code edit}: a changed definition is the reviewer's
     * (manually authored, confirmed, stamped), written as {@code apply} would store it and, with a project, as its
     * YAML file; the audit row's arguments hold what was chosen.
     */
    Approval approve(String name, Edit asked) throws Refused, StoreException {
        Choices choices = editable(name, asked).choices();
        Edit edit = saved(choices, asked);
        MetricReview review = stamp();
        Metric[] written = new Metric[1];
        write(name, (model, draft) -> {
            Metric edited = edited(draft, choices, edit);
            // As apply decides: an unchanged definition keeps its inference method; a changed one is the reviewer's.
            boolean same = edited.filters().equals(draft.filters())
                    && Objects.equals(edited.timeDimension(), draft.timeDimension());
            written[0] = edited.withOrigin(same ? draft.origin().confirmed()
                    : new Origin(InferenceMethod.MANUALLY_AUTHORED, ValidationState.CONFIRMED));
            return withMetric(model, written[0]);
        }, review);
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", name);
        choices.statuses().ifPresent(st -> args.put("statuses", edit.statuses()));
        choices.currency().ifPresent(c -> args.put("currency", edit.currency().orElse("per currency")));
        edit.timeAxis().ifPresent(t -> args.put("time_axis", t));
        record(APPROVE, name, args);
        writeFile(written[0]);
        return new Approval(review, edit);
    }

    /** The edit as the definition holds it: statuses in the column's order, a time axis that does not change left out. */
    static Edit saved(Choices choices, Edit e) {
        List<String> statuses = choices.statuses().map(st -> st.values().stream().filter(e.statuses()::contains).toList())
                .orElse(e.statuses());
        Optional<String> time = e.timeAxis().filter(t -> choices.timeAxis().map(a -> !a.dated().equals(t)).orElse(true));
        return new Edit(statuses, e.currency(), time);
    }

    private static boolean isDraft(Metric m) {
        return m.origin().state() == ValidationState.DRAFT;
    }

    /**
     * get_metric by month over the 12 months before {@code asOf}; a refusal whose recovery is another get_metric call
     * (amounts grouped by their currency) is followed once, as an agent would.
     */
    private Draft preview(Metric m, ToolRegistry tools, Choices choices) {
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
                return new Draft(m, period, recovered, second.toTree(), choices);
            }
        }
        return new Draft(m, period, args, answer.toTree(), choices);
    }

    /** Confirms the draft {@code name}: its definition unchanged, {@code confirmed}, stamped with this reviewer. */
    MetricReview approve(String name) throws Refused, StoreException {
        MetricReview review = stamp();
        Metric[] written = new Metric[1];
        write(name, (model, draft) -> {
            written[0] = draft.withOrigin(draft.origin().confirmed());
            return withMetric(model, written[0]);
        }, review);
        record(APPROVE, name, Map.of("name", name));
        writeFile(written[0]);
        return review;
    }

    /**
     * Rejects the draft {@code name}: it stays in the store as {@code rejected}, stamped with this reviewer, so no agent
     * gets its number and no index drafts it again. A metric another one is built on is refused.
     */
    void reject(String name) throws Refused, StoreException {
        Metric[] written = new Metric[1];
        write(name, (model, draft) -> {
            for (Metric m : model.metrics()) {
                if (!m.name().equals(name) && !m.origin().rejected() && uses(m, name)) {
                    throw new Refused("The metric " + name + " is part of " + m.name() + "; review " + m.name() + " first.");
                }
            }
            written[0] = draft.withOrigin(draft.origin().asRejected());
            return withMetric(model, written[0]);
        }, stamp());
        record(REJECT, name, Map.of("name", name));
        writeFile(written[0]);
    }

    /**
     * Takes back the rejection of {@code name}: it is a draft again (or applied, if it was never inferred), unstamped,
     * served, and the project's file for it, if any, is removed.
     */
    void restore(String name) throws Refused, StoreException {
        write(name, m -> m.origin().rejected(), "is not rejected", (model, rejected) -> {
            Origin was = rejected.origin();
            Origin back = new Origin(was.method(), ValidationState.DRAFT);
            return withMetric(model, rejected.withOrigin(back.inferred() ? back
                    : new Origin(was.method(), ValidationState.APPLIED)));
        }, null);
        record(RESTORE, name, Map.of("name", name));
        if (project.isPresent()) {
            Path file = project.get().resolve("metrics").resolve(name + ".yaml");
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw new Refused("The metric " + name + " is restored in the store, but " + file + " could not be removed ("
                        + e.getMessage() + "); remove it by hand.");
            }
        }
    }

    private MetricReview stamp() {
        return new MetricReview(reviewer, clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    private static SemanticModel withMetric(SemanticModel model, Metric metric) {
        List<Metric> metrics = model.metrics().stream().map(m -> m.name().equals(metric.name()) ? metric : m).toList();
        return new SemanticModel(model.entities(), model.joins(), metrics, model.reviews());
    }

    /** The verdict as the metric's YAML file in the project, as export writes it; nothing without a project. */
    private void writeFile(Metric metric) throws Refused {
        if (project.isEmpty()) {
            return;
        }
        try {
            SemanticProject.write(project.get(), new SemanticModel(List.of(), List.of(), List.of(metric)));
        } catch (IOException e) {
            throw new Refused("The verdict on " + metric.name() + " is in the store and the audit chain, but its file in "
                    + project.get() + " could not be written (" + e.getMessage() + "); run 'schemabrain export' there.");
        }
    }

    /** Whether {@code m} is built on the metric {@code name}. */
    static boolean uses(Metric m, String name) {
        return m.kind().accept(MetricKind.Cases.of(s -> false,
                r -> r.numerator().equals(name) || r.denominator().equals(name),
                d -> Pattern.compile("\\b" + Pattern.quote(name) + "\\b").matcher(d.expression()).find(),
                c -> c.metric().equals(name)));
    }

    private interface Change {
        SemanticModel apply(SemanticModel model, Metric draft) throws Refused;
    }

    /** One store transaction: the metric must still be a draft there, whatever the page showed. */
    private void write(String name, Change change, MetricReview review) throws Refused, StoreException {
        write(name, DraftReview::isDraft, "is no longer a draft", change, review);
    }

    /** One store transaction: the metric must still be as {@code expected} there, else refused with {@code otherwise}. */
    private void write(String name, Predicate<Metric> expected, String otherwise, Change change,
                       MetricReview review) throws Refused, StoreException {
        try (Store s = Stores.open(store)) {
            s.write(c -> {
                SemanticModel model = SemanticLayer.stored(c);
                Optional<Metric> draft = model.metric(name);
                if (draft.isEmpty()) {
                    throw new RefusedInside("There is no metric named " + name + " in the store; reload the page.");
                }
                if (!expected.test(draft.get())) {
                    throw new RefusedInside("The metric " + name + " " + otherwise + "; reload the page.");
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

    /**
     * The verdict's audit row: the reviewer as caller, its arguments (the metric's name, the statuses chosen) only as
     * the keyed hash every row uses.
     */
    private void record(String tool, String name, Map<String, Object> args) throws Refused {
        try {
            audit.append(new AuditEntry(null, reviewer, tool, AuditEntry.Phase.CALL, "success", null, List.of(),
                    ArgsHash.of(key, args), null, null, null));
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
