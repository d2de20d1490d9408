package dev.schemabrain.served;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.IdentifierWords;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.TableDocuments;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.semantic.compile.MetricCompiler;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SchemaSummary;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Cuts a served catalog to one caller's reach: the one place the access policy's visibility is applied.
 * Tools answer from the cut view as from any catalog, so a hidden table cannot surface through a listing, a search
 * score, a join path, a neighbour or a "did you mean".
 */
public final class ScopedView {

    private ScopedView() {
    }

    static ServedCatalog cut(ServedCatalog whole, Access access) {
        List<Table> all = whole.catalog().tables();
        List<Table> kept = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        List<String> hidden = new ArrayList<>();
        for (Table t : all) {
            if (!access.sees(t.name())) {
                hidden.add(t.name().table());
            }
        }
        whole.semantic().entities().stream().filter(e -> !access.sees(e.table())).forEach(e -> hidden.add(e.name()));
        Redaction redaction = new Redaction(hidden);
        Set<QualifiedName> rowFiltered = rowFiltered(whole, access);
        for (int i = 0; i < all.size(); i++) {
            Table t = all.get(i);
            if (access.sees(t.name())) {
                // A visible table's foreign keys to hidden ones, and comments naming them, would name them: they go.
                // Under a row filter, the sampled values of its rows may be other callers' rows: they go too.
                boolean filtered = rowFiltered.contains(t.name());
                kept.add(new Table(t.name(), t.kind(), t.rowEstimate(), redaction.apply(t.comment()),
                        t.columns().stream().map(c -> c.withComment(redaction.apply(c.comment())))
                                .map(c -> filtered ? c.withSamples(List.of()).withValues(List.of()) : c).toList(),
                        t.primaryKey(),
                        t.foreignKeys().stream().filter(fk -> access.sees(fk.target())).toList(), t.uniqueConstraints(),
                        t.dataVersion()));
                positions.add(i);
            }
        }
        Catalog catalog = new Catalog(kept);
        // Drafted descriptions quote sampled values ("for example Bluebird Logistics"): under a row filter those
        // sentences go with the samples.
        Map<QualifiedName, Redaction> sampled = new HashMap<>();
        for (Table t : all) {
            if (rowFiltered.contains(t.name())) {
                sampled.put(t.name(), Redaction.literal(t.columns().stream()
                        .flatMap(c -> Stream.concat(c.samples().stream(), c.values().stream())).toList()));
            }
        }
        List<TableDocuments> documents = whole.documents().stream().filter(d -> access.sees(d.table()))
                .map(redaction::apply).map(d -> sampled.containsKey(d.table()) ? sampled.get(d.table()).apply(d) : d)
                .toList();
        Models models = semantic(whole, access, redaction);
        return whole.view(access, schemas(whole.schemas(), kept), catalog, documents,
                whole.vectors().select(positions.stream().mapToInt(Integer::intValue).toArray()),
                models.listed(), models.compilable(), whole.blockList().categories().isEmpty() ? whole.blockList()
                        : new BlockList(without(whole.blockList().categories(), cleared(access))), cleared(access));
    }

    /** The tables whose rows belong to an entity the role's row filters limit (its own, or many-to-one from it). */
    static Set<QualifiedName> rowFiltered(ServedCatalog whole, Access access) {
        Set<String> limited = new TreeSet<>();
        access.rowFilters().forEach(f -> limited.add(f.filter().entity()));
        access.missingClaims().forEach(f -> limited.add(f.entity()));
        Set<QualifiedName> out = new TreeSet<>();
        if (limited.isEmpty()) {
            return out;
        }
        if (limited.stream().anyMatch(l -> whole.semantic().entity(l).isEmpty())) {
            // A filter on no entity limits no statement (get_metric refuses): no table's samples can be trusted.
            whole.catalog().tables().forEach(t -> out.add(t.name()));
            return out;
        }
        MetricCompiler compiler = new MetricCompiler(whole.catalog(), whole.semantic());
        for (Entity e : whole.semantic().entities()) {
            if (limited.stream().anyMatch(l -> compiler.belongsTo(e.name(), l))) {
                out.add(e.table());
            }
        }
        // Tables with no entity whose rows still belong to a limited table through a foreign key (team members).
        for (boolean grew = true; grew; ) {
            grew = false;
            for (Table t : whole.catalog().tables()) {
                if (!out.contains(t.name()) && t.foreignKeys().stream().anyMatch(fk -> out.contains(fk.target()))) {
                    grew = out.add(t.name());
                }
            }
        }
        return out;
    }

    /** Each schema's counts of the visible tables alone; a schema with none is left out. */
    private static List<SchemaSummary> schemas(List<SchemaSummary> schemas, List<Table> kept) {
        Map<String, List<Table>> bySchema = kept.stream().collect(Collectors.groupingBy(t -> t.name().schema()));
        List<SchemaSummary> out = new ArrayList<>();
        for (SchemaSummary s : schemas) {
            List<Table> tables = bySchema.get(s.schema());
            if (tables != null) {
                out.add(new SchemaSummary(s.sourceId(), s.schema(), tables.size(),
                        tables.stream().mapToInt(t -> t.columns().size()).sum(), s.indexedAt()));
            }
        }
        return out;
    }

    /**
     * Entities over visible tables, joins between them (through a visible bridge), and the metrics the role may call
     * whose every table, join paths included, is visible.
     */
    static Models semantic(ServedCatalog whole, Access access, Redaction redaction) {
        SemanticModel model = whole.semantic();
        List<Entity> entities = model.entities().stream().filter(e -> access.sees(e.table()))
                .map(e -> new Entity(e.name(), redaction.apply(e.description()), e.table(), e.identity(), e.group(),
                        e.origin(), e.segments().stream().map(g -> new Segment(g.name(),
                                redaction.apply(g.description()), g.filters(), g.isDefault(), g.observed())).toList()))
                .toList();
        Set<String> names = entities.stream().map(Entity::name).collect(Collectors.toSet());
        List<Join> joins = model.joins().stream().filter(j -> names.contains(j.sourceEntity())
                && names.contains(j.targetEntity()) && (j.bridge() == null || access.sees(j.bridge().table()))).toList();
        MetricCompiler compiler = new MetricCompiler(whole.catalog(), model);
        List<Metric> compilable = new ArrayList<>();
        List<Metric> listed = new ArrayList<>();
        for (Metric m : model.metrics()) {
            Optional<Set<QualifiedName>> reach = names.contains(m.entity()) ? reach(whole, compiler, m) : Optional.empty();
            if (reach.isEmpty() || !reach.get().stream().allMatch(access::sees)) {
                continue;
            }
            Metric shown = new Metric(m.name(), redaction.apply(m.description()), m.entity(), m.measure(), m.timeDimension(),
                    m.timeGrains(), m.filters(), m.origin(), m.kind());
            compilable.add(shown);
            if (access.seesMetric(m.name(), reach.get())) {
                listed.add(shown);
            }
        }
        return new Models(new SemanticModel(entities, joins, listed, model.reviews()),
                new SemanticModel(entities, joins, compilable, model.reviews()));
    }

    /**
     * What the role sees of the semantic layer ({@code listed}), and what its metrics compile against
     * ({@code compilable}): every metric over visible tables, so a ratio the role may call can be built of metrics
     * its list leaves out, without those being listed or callable.
     */
    record Models(SemanticModel listed, SemanticModel compilable) {
    }

    /** The PII categories the role is cleared for; the catastrophic floor is never cleared. */
    private static Set<PiiCategory> cleared(Access access) {
        Set<PiiCategory> out = EnumSet.noneOf(PiiCategory.class);
        for (PiiCategory c : PiiCategory.values()) {
            if (access.piiClearance().contains(c.wireName()) && !PiiCategory.CATASTROPHIC_FLOOR.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static Set<PiiCategory> without(Set<PiiCategory> categories, Set<PiiCategory> cleared) {
        Set<PiiCategory> out = EnumSet.copyOf(categories);
        out.removeAll(cleared);
        return out;
    }

    /**
     * Drops each sentence of a text that mentions a hidden table or entity by name, as written or in words
     * ({@code invoice_line}, {@code invoice line}, {@code play list}): drafted descriptions say which tables a table
     * belongs to or is referenced by, and those neighbours may be hidden. Losing a visible sentence is the safe side.
     */
    static final class Redaction {

        private final Pattern mention;

        Redaction(List<String> hidden) {
            this(forms(hidden));
        }

        private Redaction(Set<String> forms) {
            forms.removeIf(String::isBlank);
            this.mention = forms.isEmpty() ? null : Pattern.compile("(?<![\\p{Alnum}])("
                    + forms.stream().map(Pattern::quote).collect(Collectors.joining("|"))
                    + ")(?![\\p{Alnum}])", Pattern.CASE_INSENSITIVE);
        }

        /** Drops each sentence quoting one of {@code values} as written (sampled values of rows a role may not see). */
        static Redaction literal(List<String> values) {
            Set<String> forms = new TreeSet<>();
            values.stream().filter(v -> v != null && v.strip().length() > 1).map(v -> v.strip().toLowerCase(Locale.ROOT))
                    .forEach(forms::add);
            return new Redaction(forms);
        }

        private static Set<String> forms(List<String> hidden) {
            Set<String> forms = new TreeSet<>();
            for (String name : hidden) {
                forms.add(name.toLowerCase(Locale.ROOT));
                forms.add(String.join(" ", IdentifierWords.pieces(name)));
                forms.add(String.join(" ", IdentifierWords.english().of(name)));
            }
            return forms;
        }

        String apply(String text) {
            if (text == null || mention == null || !mention.matcher(text).find()) {
                return text;
            }
            List<String> kept = new ArrayList<>();
            for (String sentence : text.split("(?<=[.;!?\\n])\\s+")) {
                if (!mention.matcher(sentence).find()) {
                    kept.add(sentence);
                }
            }
            return String.join(" ", kept);
        }

        TableDocuments apply(TableDocuments d) {
            return new TableDocuments(d.table(), apply(d.description()), apply(d.tableText()), apply(d.lexicalText()),
                    d.columns().stream().map(c -> new TableDocuments.ColumnDocument(c.column(), apply(c.description()),
                            apply(c.text()))).toList());
        }

        private Description apply(Description d) {
            return d == null ? null : new Description(apply(d.text()), d.origin(), d.draft());
        }
    }

    /** The tables {@code metric} reads in the whole catalog, for a refusal's widening hint. */
    public static Set<QualifiedName> reach(ServedCatalog whole, Metric metric) {
        return reach(whole, new MetricCompiler(whole.catalog(), whole.semantic()), metric).orElse(Set.of());
    }

    /**
     * What a plain compile of {@code metric} reads, with the table of its declared time dimension and the tables
     * small-cell suppression walks to count its people (each hop's own side; the person's key is on it): a metric
     * whose time axis or privacy count needs a hidden table is itself hidden. Empty when it does not compile.
     */
    private static Optional<Set<QualifiedName>> reach(ServedCatalog whole, MetricCompiler compiler, Metric metric) {
        SemanticModel model = whole.semantic();
        return compiler.reach(metric).map(tables -> {
            Set<QualifiedName> out = new TreeSet<>(tables);
            if (metric.timeDimension() != null && metric.timeDimension().indexOf('.') > 0) {
                model.entity(metric.timeDimension().substring(0, metric.timeDimension().indexOf('.')))
                        .ifPresent(e -> out.add(e.table()));
            }
            for (Entity e : model.entities()) {
                if (tables.contains(e.table())) {
                    whole.subjectGraph().subjectOf(e.name()).ifPresent(path -> path.hops().forEach(hop ->
                            model.entity(hop.from()).ifPresent(from -> out.add(from.table()))));
                }
            }
            return out;
        });
    }
}
