package dev.schemabrain.mcp.lint;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The charter lint: every tool's description follows the three rules (starts "Use this
 * when", says when to use a neighbour instead, names another tool) within 500 characters, and its happy
 * path answers with an envelope that validates against the published outputSchema.
 */
public final class CharterLint {

    static final int MAX_DESCRIPTION = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    private CharterLint() {
    }

    /** All findings for {@code registry}, calling each tool with its entry in {@code happyPaths}. */
    public static List<Finding> check(ToolRegistry registry, Map<String, Map<String, Object>> happyPaths) {
        List<Finding> findings = new ArrayList<>();
        Map<String, Object> schema = EnvelopeSchema.strict(registry.names());
        JsonSchemaValidator validator = new DefaultJsonSchemaValidator();
        for (Tool tool : registry.tools()) {
            ToolSpec spec = tool.spec();
            findings.addAll(description(spec, registry.names()));
            Map<String, Object> arguments = happyPaths.get(spec.name());
            if (arguments == null) {
                findings.add(new Finding(spec.name(), "happy-path", "no happy-path call is declared for this tool"));
                continue;
            }
            findings.addAll(happyPath(spec.name(), registry.call(spec.name(), arguments), schema, validator));
        }
        return findings;
    }

    /** The three description rules and the length limit. */
    public static List<Finding> description(ToolSpec spec, Collection<String> toolNames) {
        String text = spec.description();
        List<Finding> findings = new ArrayList<>();
        if (!text.startsWith("Use this when")) {
            findings.add(new Finding(spec.name(), "use-when", "the description must start with \"Use this when\""));
        }
        if (!text.contains("instead") && !text.contains("Don't use")) {
            findings.add(new Finding(spec.name(), "neighbour",
                    "the description must say when to use another tool instead (\"instead\" or \"Don't use\")"));
        }
        boolean namesAnother = toolNames.stream().filter(n -> !n.equals(spec.name()))
                .anyMatch(n -> Pattern.compile("\\b" + Pattern.quote(n) + "\\b").matcher(text).find());
        if (!namesAnother) {
            findings.add(new Finding(spec.name(), "composition", "the description must name another tool it composes with"));
        }
        if (text.length() > MAX_DESCRIPTION) {
            findings.add(new Finding(spec.name(), "length",
                    "the description has " + text.length() + " characters; the limit is " + MAX_DESCRIPTION));
        }
        return findings;
    }

    /** The happy path must not fail, and its JSON must validate against the envelope schema. */
    public static List<Finding> happyPath(String tool, Envelope envelope, Map<String, Object> schema,
                                          JsonSchemaValidator validator) {
        List<Finding> findings = new ArrayList<>();
        if (envelope.isError()) {
            findings.add(new Finding(tool, "happy-path", "the happy path answered " + envelope.status().wireName()
                    + " (" + envelope.error().kind().wireName() + "): " + envelope.error().message()));
        }
        Object json;
        try {
            json = JSON.readValue(envelope.toJson(), new TypeReference<Map<String, Object>>() { });
        } catch (Exception e) {
            findings.add(new Finding(tool, "envelope-schema", "the envelope does not serialize to a JSON object"));
            return findings;
        }
        JsonSchemaValidator.ValidationResponse response = validator.validate(schema, json);
        if (!response.valid()) {
            findings.add(new Finding(tool, "envelope-schema", response.errorMessage()));
        }
        return findings;
    }
}
