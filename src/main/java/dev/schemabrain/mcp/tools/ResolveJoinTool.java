package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.envelope.ToolError;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** resolve_join: the one canonical join between two entities, with its ON columns and an SQL skeleton. */
public final class ResolveJoinTool extends CatalogTool {

    static final String NAME = "resolve_join";
    private static final ArgSchema ARGS = ArgSchema.parse("""
            {
              "entity_a": {"type": "string", "required": true, "minLength": 1, "maxLength": 512},
              "entity_b": {"type": "string", "required": true, "minLength": 1, "maxLength": 512},
              "name": {"type": "string", "minLength": 1, "maxLength": 512,
                       "description": "The join, when they have several."}
            }""");
    private static final ToolSpec SPEC = ToolSpec.storeReader(NAME, "Resolve join",
            "Use this when you need how two entities join: ON columns, cardinality, an SQL skeleton. Use "
                    + "list_joins instead to see every join. Then: get_metric with via.",
            ARGS, LatencyHint.FAST);

    public ResolveJoinTool(CatalogProvider catalogs) {
        super(SPEC, catalogs);
    }

    @Override
    Envelope answer(Arguments arguments, ServedCatalog served) {
        SemanticModel model = served.semantic();
        String a = arguments.string("entity_a").orElseThrow().strip();
        String b = arguments.string("entity_b").orElseThrow().strip();
        for (String e : List.of(a, b)) {
            if (model.entity(e).isEmpty()) {
                return DescribeEntityTool.unknownEntity(NAME, e, served);
            }
        }
        List<Join> between = model.joinsOf(a).stream().filter(j -> j.other(a).equals(b)).toList();
        Optional<String> name = arguments.string("name").map(String::strip);
        Join join;
        if (name.isPresent()) {
            Optional<Join> named = model.join(name.get());
            if (named.isEmpty()) {
                List<String> matches = Fuzzy.best(name.get(), model.joins().stream().map(Join::name).toList(), Fuzzy.DEFAULT_LIMIT);
                return Envelope.error(ToolError.of(ErrorKind.UNKNOWN_JOIN_NAME, "No join is named '" + Replies.shown(name.get())
                        + "'; list_joins shows the joins there are.", Recovery.call("list_joins", Map.of())
                        .withFuzzyMatches(matches)), List.of("list_joins"));
            }
            if (!between.contains(named.get())) {
                List<String> names = between.stream().map(Join::name).toList();
                return Envelope.error(ToolError.of(ErrorKind.JOIN_NAME_MISMATCH, "The join " + named.get().name() + " links "
                        + named.get().sourceEntity() + " and " + named.get().targetEntity() + ", not " + a + " and " + b
                        + (names.isEmpty() ? "." : "; joins between them: " + String.join(", ", names) + "."),
                        names.isEmpty() ? Recovery.call("list_joins", Map.of())
                                : Recovery.call(NAME, Map.of("entity_a", a, "entity_b", b, "name", names.get(0))).withFuzzyMatches(names.stream().limit(3).toList())),
                        List.of("list_joins"));
            }
            join = named.get();
        } else if (between.isEmpty()) {
            Entity ea = model.entity(a).orElseThrow();
            Entity eb = model.entity(b).orElseThrow();
            return Envelope.error(ToolError.of(ErrorKind.NO_CANONICAL_JOIN, "No join links " + a + " and " + b
                    + " directly; suggest_joins finds paths between their tables.",
                    Recovery.call("suggest_joins", Map.of("tables", List.of(ea.table().toString(), eb.table().toString())))),
                    List.of("suggest_joins", "list_joins"));
        } else if (between.size() > 1) {
            List<String> names = between.stream().map(Join::name).toList();
            return Envelope.error(ToolError.of(ErrorKind.AMBIGUOUS_JOIN, between.size() + " joins link " + a + " and " + b
                    + " (" + String.join(", ", names) + "); pass name to pick one.",
                    Recovery.call(NAME, Map.of("entity_a", a, "entity_b", b, "name", names.get(0))).withFuzzyMatches(names.stream().limit(3).toList())),
                    List.of("list_joins"));
        } else {
            join = between.get(0);
        }
        boolean forward = join.sourceEntity().equals(a);
        Entity ea = model.entity(a).orElseThrow();
        Entity eb = model.entity(b).orElseThrow();
        ObjectNode data = SemanticReplies.join(Replies.object(), join);
        data.put("from", a).put("to", b)
                .put("cardinality_from_a", (forward ? join.cardinality() : join.cardinality().reversed()).wireName())
                .put("sql_skeleton", skeleton(join, forward, ea, eb));
        return new Envelope(Status.SUCCESS, data, null, SemanticReplies.confidence(join.origin()),
                SemanticReplies.provenance(join.origin()), List.of("get_metric", DescribeEntityTool.NAME), null);
    }

    /** For reading, never run: {@code a JOIN b ON a.x = b.y}, names rendered as an engine-neutral reader writes them. */
    private static String skeleton(Join join, boolean forward, Entity a, Entity b) {
        String from = NameSyntax.render(a.table()) + " AS a";
        if (join.bridge() == null) {
            List<String> on = new ArrayList<>();
            for (ColumnPair p : join.on()) {
                ColumnPair q = forward ? p : p.swapped();
                on.add("a." + NameSyntax.render(q.source()) + " = b." + NameSyntax.render(q.target()));
            }
            return "FROM " + from + " JOIN " + NameSyntax.render(b.table()) + " AS b ON " + String.join(" AND ", on);
        }
        var bridge = forward ? join.bridge() : join.bridge().reversed();
        List<String> first = bridge.sourceOn().stream().map(p -> "a." + NameSyntax.render(p.source()) + " = l." + NameSyntax.render(p.target())).toList();
        List<String> second = bridge.targetOn().stream().map(p -> "l." + NameSyntax.render(p.source()) + " = b." + NameSyntax.render(p.target())).toList();
        return "FROM " + from + " JOIN " + NameSyntax.render(bridge.table()) + " AS l ON " + String.join(" AND ", first)
                + " JOIN " + NameSyntax.render(b.table()) + " AS b ON " + String.join(" AND ", second);
    }
}
