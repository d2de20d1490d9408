package dev.schemabrain.mcp.lint;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.EnvelopeSchema;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.ToolSpec;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The charter lint runs as part of the suite, and each of its rules catches what it should. */
class CharterLintTest {

    private static final List<String> TOOLS = List.of("describe_table", "find_relevant_tables", "suggest_joins");

    @Test
    void everyServedToolPassesTheCharterLint() throws Exception {
        DemoLint.Report report = DemoLint.run(DemoDatabase::ensure);
        assertEquals(16, report.tools().size());
        assertEquals(List.of(), report.findings());
    }

    private static Set<String> rules(String description) {
        ToolSpec spec = ToolSpec.storeReader("describe_table", "t", description, ArgSchema.empty(), LatencyHint.FAST);
        return Set.copyOf(CharterLint.description(spec, TOOLS).stream().map(Finding::rule).toList());
    }

    @Test
    void eachDescriptionRuleCatchesItsSmell() {
        String good = "Use this when you know the table. Use find_relevant_tables instead when you do not.";
        assertEquals(Set.of(), rules(good));
        assertEquals(Set.of("use-when"), rules("Returns a table. Use find_relevant_tables instead when you do not."));
        assertEquals(Set.of("neighbour"), rules("Use this when you know the table; then call find_relevant_tables."));
        assertEquals(Set.of("composition"), rules("Use this when you know the table. Don't use it for search."));
        assertEquals(Set.of("composition"), rules("Use this when you know the table. Use describe_table instead."),
                "naming itself is not a composition");
        assertEquals(Set.of("length"), rules(good + " " + "x".repeat(CharterLint.MAX_DESCRIPTION)));
    }

    @Test
    void aHappyPathThatFailsOrBreaksTheSchemaIsReported() {
        var schema = EnvelopeSchema.strict(TOOLS);
        var validator = new DefaultJsonSchemaValidator();
        Envelope fine = Envelope.success(new ObjectMapper().createObjectNode().put("x", 1), null, null, List.of("describe_table"));
        assertEquals(List.of(), CharterLint.happyPath("describe_table", fine, schema, validator));
        Envelope strayHint = Envelope.success(new ObjectMapper().createObjectNode(), null, null, List.of("drop_database"));
        List<Finding> findings = CharterLint.happyPath("describe_table", strayHint, schema, validator);
        assertEquals(List.of("envelope-schema"), findings.stream().map(Finding::rule).toList());
        assertTrue(findings.get(0).message().contains("follow_up_hints"), findings.get(0).message());
    }
}
