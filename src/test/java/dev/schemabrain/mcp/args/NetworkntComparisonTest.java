package dev.schemabrain.mcp.args;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tools.StandardTools;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Could the JSON Schema validator already on the class path (networknt, through the MCP SDK) replace mcp/args? Every
 * tool's published input schema is validated both ways over a systematic set of calls: one valid call per tool and,
 * per argument, a wrong type, each bound crossed by one, a value outside its enum, the argument left out when
 * required, and an unknown argument. Both must agree on which calls are valid (a disagreement is a bug in one of
 * them); the messages are written side by side to target/figures/arg-validation-networknt.txt for the decision.
 */
class NetworkntComparisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void bothValidatorsAgreeOnEveryCallAndTheMessagesAreRecorded() throws Exception {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        List<String> disagreements = new ArrayList<>();
        StringBuilder report = new StringBuilder();
        int calls = 0;
        int invalid = 0;
        int sameMeaning = 0;
        for (Tool tool : StandardTools.registry(Optional::empty, Optional.empty()).tools()) {
            ArgSchema ours = tool.spec().arguments();
            Schema theirs = registry.getSchema(JSON.valueToTree(ours.toStrictSchema()));
            Schema published = registry.getSchema(JSON.valueToTree(ours.toInputSchema()));
            for (Map.Entry<String, Map<String, Object>> c : cases(ours).entrySet()) {
                calls++;
                Validation v = ours.validate(c.getValue());
                List<Error> errors = theirs.validate(JSON.valueToTree(c.getValue()));
                // The published schema is a relaxation: a client checking against it never refuses a call we accept.
                if (v.isValid() && !published.validate(JSON.valueToTree(c.getValue())).isEmpty()) {
                    disagreements.add(tool.spec().name() + " " + c.getKey() + ": valid, but the published schema refuses it");
                }
                if (v.isValid() != errors.isEmpty()) {
                    disagreements.add(tool.spec().name() + " " + c.getKey() + ": ours " + (v.isValid() ? "valid" : v.violations())
                            + ", networknt " + (errors.isEmpty() ? "valid" : errors.stream().map(Error::getMessage).toList()));
                }
                if (!v.isValid()) {
                    invalid++;
                    String theirMessage = errors.isEmpty() ? "(valid)" : errors.get(0).getMessage();
                    sameMeaning += theirMessage.contains(nameIn(c.getKey())) ? 1 : 0;
                    report.append(String.format("%-24s %-34s ours: %s%n%60s networknt: %s%n", tool.spec().name(), c.getKey(),
                            v.firstMessage(), "", theirMessage));
                }
            }
        }
        String head = String.format("%d calls over %d tools, %d invalid; the validators disagree on %d; networknt's first message"
                        + " names the argument in %d of %d%n%n", calls, StandardTools.registry(Optional::empty, Optional.empty()).tools().size(), invalid,
                disagreements.size(), sameMeaning, invalid);
        Path out = Path.of("target", "figures", "arg-validation-networknt.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, head + String.join("\n", disagreements) + "\n\n" + report);
        System.out.print(head);
        assertEquals(List.of(), disagreements, "the validators disagree");
    }

    private static String nameIn(String caseName) {
        return caseName.substring(0, caseName.indexOf(':'));
    }

    /** A valid call, then one mutation at a time, by name ("limit: above maximum"). */
    private static Map<String, Map<String, Object>> cases(ArgSchema schema) {
        Map<String, Object> valid = new LinkedHashMap<>();
        schema.args().values().stream().filter(ArgSpec::required).forEach(s -> valid.put(s.name(), validValue(s)));
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        out.put("-: the valid call", valid);
        for (ArgSpec s : schema.args().values()) {
            Map<String, Object> property = property(schema, s.name());
            put(out, valid, s.name() + ": wrong type", s.name(), wrongType(String.valueOf(property.get("type"))));
            if (property.get("minLength") instanceof Number n && n.intValue() > 0) {
                put(out, valid, s.name() + ": below minLength", s.name(), "x".repeat(n.intValue() - 1));
            }
            if (property.get("maxLength") instanceof Number n) {
                put(out, valid, s.name() + ": above maxLength", s.name(), "x".repeat(n.intValue() + 1));
            }
            if (property.get("minimum") instanceof Number n) {
                put(out, valid, s.name() + ": below minimum", s.name(), n.longValue() - 1);
            }
            if (property.get("maximum") instanceof Number n) {
                put(out, valid, s.name() + ": above maximum", s.name(), n.longValue() + 1);
            }
            if (property.get("enum") != null) {
                put(out, valid, s.name() + ": outside the enum", s.name(), "not-one-of-them");
            }
            if (property.get("items") instanceof Map<?, ?> items && "string".equals(items.get("type"))) {
                put(out, valid, s.name() + ": an item of the wrong type", s.name(), List.of(123));
            }
            if (s.required()) {
                Map<String, Object> without = new LinkedHashMap<>(valid);
                without.remove(s.name());
                out.put(s.name() + ": left out", without);
            }
        }
        put(out, valid, "bogus: unknown argument", "bogus", 1);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> property(ArgSchema schema, String name) {
        return (Map<String, Object>) ((Map<String, Object>) schema.toStrictSchema().get("properties")).get(name);
    }

    private static void put(Map<String, Map<String, Object>> out, Map<String, Object> valid, String name, String key, Object value) {
        Map<String, Object> call = new LinkedHashMap<>(valid);
        call.put(key, value);
        out.put(name, call);
    }

    private static Object wrongType(String type) {
        return switch (type) {
            case "string" -> 123;
            case "integer", "number" -> "12";
            case "boolean" -> "yes";
            default -> "x";   // array, object
        };
    }

    private static Object validValue(ArgSpec s) {
        Map<String, Object> p = InputSchemas.strict(new ArgSchema(Map.of(s.name(), s)));
        @SuppressWarnings("unchecked")
        Map<String, Object> property = (Map<String, Object>) ((Map<String, Object>) p.get("properties")).get(s.name());
        if (property.get("enum") instanceof List<?> values) {
            return values.get(0);
        }
        return switch (String.valueOf(property.get("type"))) {
            case "integer", "number" -> property.get("minimum") instanceof Number n ? n : 1;
            case "boolean" -> true;
            case "array" -> List.of();
            default -> "x".repeat(Math.max(3, property.get("minLength") instanceof Number n ? n.intValue() : 1));
        };
    }
}
