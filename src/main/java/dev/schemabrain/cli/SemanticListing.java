package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.project.SemanticCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Function;

/** {@code schemabrain entities|joins|metrics list}: the stored semantic layer, as a table or JSON. */
final class SemanticListing {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SemanticListing() {
    }

    @Command(name = "entities", mixinStandardHelpOptions = true, description = "The semantic layer's entities.")
    static final class Entities extends CommandGroup {

        @Command(name = "list", mixinStandardHelpOptions = true,
                description = "List entities: name, table, identity, how each was derived and validated.")
        int list(@Option(names = "--json", description = "One JSON array, each object in its YAML shape plus validation_state.") boolean json)
                throws SchemaBrainException {
            SemanticModel m = SemanticStore.read(main.store()).stored();
            return print(main.out(), json, m.entities(), SemanticCodec::encode, e -> e.origin(),
                    e -> String.format("%-32s %-40s %-24s", e.name(), e.table(), String.join(",", e.identity())));
        }
    }

    @Command(name = "joins", mixinStandardHelpOptions = true, description = "The semantic layer's joins.")
    static final class Joins extends CommandGroup {

        @Command(name = "list", mixinStandardHelpOptions = true,
                description = "List joins: name, entities joined, cardinality, how each was derived and validated.")
        int list(@Option(names = "--json", description = "One JSON array, each object in its YAML shape plus validation_state.") boolean json)
                throws SchemaBrainException {
            SemanticModel m = SemanticStore.read(main.store()).stored();
            return print(main.out(), json, m.joins(), SemanticCodec::encode, j -> j.origin(),
                    j -> String.format("%-40s %-40s %-12s", j.name(), j.sourceEntity() + " -> " + j.targetEntity()
                            + (j.bridge() == null ? "" : " via " + j.bridge().table()), j.cardinality().wireName()));
        }
    }

    @Command(name = "metrics", mixinStandardHelpOptions = true, description = "The semantic layer's metrics.")
    static final class Metrics extends CommandGroup {

        @Command(name = "list", mixinStandardHelpOptions = true,
                description = "List metrics: name, entity, measure, time dimension, how each was derived and validated.")
        int list(@Option(names = "--json", description = "One JSON array, each object in its YAML shape plus validation_state.") boolean json)
                throws SchemaBrainException {
            SemanticModel m = SemanticStore.read(main.store()).stored();
            return print(main.out(), json, m.metrics(), SemanticCodec::encode, x -> x.origin(),
                    x -> String.format("%-40s %-24s %-36s %-30s", x.name(), x.entity(),
                            !x.isSimple() ? x.kind().wireName() : x.measure().agg().wireName() + "(" + (x.measure().column() != null
                                    ? x.measure().column() : x.measure().expression() != null ? x.measure().expression() : "*") + ")",
                            x.timeDimension() == null ? "-" : x.timeDimension()));
        }
    }

    private static <T> int print(PrintWriter out, boolean json, List<T> objects, Function<T, ObjectNode> encode, Function<T, Origin> origin,
                                 Function<T, String> line) {
        if (json) {
            ArrayNode array = JSON.createArrayNode();
            for (T o : objects) {
                ObjectNode n = encode.apply(o);
                n.remove("version");
                n.put("validation_state", origin.apply(o).state().wireName());
                array.add(n);
            }
            out.println(array);
            return 0;
        }
        if (objects.isEmpty()) {
            out.println("None yet: run 'schemabrain index' to infer drafts, or 'schemabrain apply DIR'.");
            return 0;
        }
        for (T o : objects) {
            Origin g = origin.apply(o);
            out.println(line.apply(o) + "  " + g.method().wireName() + "/" + g.state().wireName());
        }
        return 0;
    }
}
