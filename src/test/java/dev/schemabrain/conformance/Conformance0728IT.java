package dev.schemabrain.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance suite's 2026-07-28 release (0.2.0-alpha.12, installed beside 0.1.16) against the packaged
 * jar's {@code serve --transport http}, every server scenario it lists for that revision run with
 * {@code --spec-version 2026-07-28}. The revision's own scenarios (server-stateless, caching, the header
 * validations) mix checks of the protocol with checks that need the suite's fixture tools, so the verdict is
 * per check: every check that does not succeed must be one named below with its reason, its error message
 * holding the stated evidence; a scenario in {@link #APPLICABLE} must moreover pass outright.
 */
class Conformance0728IT extends ServedDemoSuite {

    static final String VERSION = "2026-07-28";

    /** Scenarios whose every check applies to us: each passes outright. */
    static final Set<String> APPLICABLE = Set.of("tools-list", "prompts-list", "http-header-validation", "dns-rebinding-protection",
            "server-sse-multiple-streams", "input-required-result-unsupported-methods",
            "input-required-result-validate-input");

    /** A check that does not apply, why, and the text of its error message that shows that is why. */
    record Excused(String reason, String evidence) {
    }

    private static final String FIXTURE = "calls the suite's own fixture tool; SchemaBrain serves only its catalog tools"
            + " (TypeScriptClient2xIT calls every one on 2026-07-28)";
    private static final String NO_INPUT = "no tool ever needs input from the user or the client's model mid-call, so"
            + " there is no input-required result to exercise (the suite's fixture tool)";
    private static final String NO_METHOD = "Method not found: on protocol 2026-07-28";
    private static final String FIXTURE_PROMPT = "gets the suite's own fixture prompt; SchemaBrain serves only the"
            + " charter's workflows as prompts (McpEdgeContract gets them in both eras)";
    private static final String NO_PROMPT = "no prompt named 'test_";

    static final Map<String, Excused> EXCUSED = Map.ofEntries(
            entry("sep-2575-server-rejects-undeclared-capability", new Excused(FIXTURE
                    + "; no tool needs a client capability", "test_missing_capability")),
            entry("sep-2575-missing-capability-http-400", new Excused(FIXTURE, "test_missing_capability")),
            entry("sep-2575-http-server-no-independent-requests-on-stream", new Excused(FIXTURE
                    + "; every answer is one JSON response, never a stream", "test_streaming_elicitation")),
            entry("sep-2575-server-no-log-without-loglevel", new Excused(FIXTURE + "; the server sends no log notifications",
                    "test_logging_tool")),
            entry("sep-2549-resources-list-caching-hints", new Excused("no resources capability", NO_METHOD)),
            entry("sep-2549-resources-templates-list-caching-hints", new Excused("no resources capability", NO_METHOD)),
            entry("sep-2243-server-no-xmcp-tool", new Excused("no tool argument is mirrored into an Mcp-Param header"
                    + " (x-mcp-header), so there is nothing to validate", "x-mcp-header")),
            entry("sep-2243-server-decode-base64", new Excused("no x-mcp-header arguments", "x-mcp-header")),
            entry("sep-2243-server-validate-param-match", new Excused("no x-mcp-header arguments", "x-mcp-header")),
            entry("sep-2243-server-reject-invalid-param-chars", new Excused("no x-mcp-header arguments", "x-mcp-header")),
            entry("sep-2243-server-reject-param-mismatch", new Excused("no x-mcp-header arguments", "x-mcp-header")),
            entry("completion-complete", new Excused("completes an argument of the suite's own fixture prompt; SchemaBrain"
                    + " completes only its workflows' arguments (CompletionsEdgeTest)", "completes the arguments of a served prompt")),
            entry("json-schema-2020-12-tool-found", new Excused(FIXTURE, "json_schema_2020_12_tool")),
            entry("tools-call-simple-text", new Excused(FIXTURE, "Unknown tool")),
            entry("tools-call-image", new Excused(FIXTURE + "; no tool returns images", "Unknown tool")),
            entry("tools-call-audio", new Excused(FIXTURE + "; no tool returns audio", "Unknown tool")),
            entry("tools-call-embedded-resource", new Excused(FIXTURE + "; there are no resources", "Unknown tool")),
            entry("tools-call-mixed-content", new Excused(FIXTURE, "Unknown tool")),
            entry("tools-call-error", new Excused(FIXTURE + "; tool errors are envelopes with isError true", "Unknown tool")),
            entry("tools-call-with-progress", new Excused(FIXTURE + "; no progress notifications", "Unknown tool")),
            entry("resources-list", new Excused("no resources capability", NO_METHOD)),
            entry("resources-read-text", new Excused("no resources capability", NO_METHOD)),
            entry("resources-read-binary", new Excused("no resources capability", NO_METHOD)),
            entry("resources-templates-read", new Excused("no resources capability", NO_METHOD)),
            entry("sep-2164-data-uri", new Excused("no resources capability: resources/read is not found at all",
                    "data.uri is undefined")),
            entry("sep-2164-error-code", new Excused("no resources capability: resources/read is not found (-32601)",
                    "got -32601")),
            entry("prompts-get-simple", new Excused(FIXTURE_PROMPT, NO_PROMPT)),
            entry("prompts-get-with-args", new Excused(FIXTURE_PROMPT, NO_PROMPT)),
            entry("prompts-get-embedded-resource", new Excused(FIXTURE_PROMPT, NO_PROMPT)),
            entry("prompts-get-with-image", new Excused(FIXTURE_PROMPT, NO_PROMPT)),
            entry("sep-2322-elicitation-incomplete", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-sampling-incomplete", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-list-roots-incomplete", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-request-state-incomplete", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-multiple-inputs-incomplete", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-multi-round-r1", new Excused(NO_INPUT, "Expected InputRequiredResult")),
            entry("sep-2322-respect-client-capabilities", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-result-type-included", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-reject-tampered-state", new Excused(NO_INPUT, "could not get initial InputRequiredResult")),
            entry("sep-2322-non-tool-incomplete", new Excused(NO_INPUT + "; no prompt asks either", "JSON-RPC error")),
            entry("sep-2322-ignore-unexpected-params", new Excused(NO_INPUT, "Unknown tool")),
            entry("sep-2322-missing-response-rerequests", new Excused(NO_INPUT, "instead of re-requesting")));

    static Stream<String> scenarios() throws Exception {
        NodeToolchain.install();
        return ConformanceIT.listedServerScenarios(NodeToolchain.nextConformance(), VERSION).stream();
    }

    @Test
    void theSuiteListsTheRevisionsOwnScenarios() throws Exception {
        Set<String> listed = new TreeSet<>(scenarios().toList());
        assertTrue(listed.containsAll(Set.of("server-stateless", "caching", "http-header-validation",
                "http-custom-header-server-validation")), listed::toString);
        assertTrue(listed.containsAll(APPLICABLE), () -> "the suite no longer lists some of " + APPLICABLE + ": " + listed);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyCheckPassesOrIsExcusedForItsStatedReason(String scenario) throws Exception {
        ConformanceIT.Result result = ConformanceIT.run(NodeToolchain.nextConformance(), server.mcpUrl, scenario,
                List.of("--spec-version", VERSION), "results-" + VERSION);
        assertTrue(result.checks().stream().anyMatch(c -> c.status().equals("SUCCESS")), result::describe);
        for (ConformanceIT.Check check : result.checks()) {
            if (check.status().equals("SUCCESS") || check.status().equals("SKIPPED") || check.status().equals("INFO")) {
                continue;
            }
            assertTrue(!APPLICABLE.contains(scenario), () -> scenario + " must pass outright: " + check);
            Excused why = EXCUSED.get(check.id());
            assertTrue(why != null, () -> "check " + check.id() + " of " + scenario + " did not pass and is not excused: "
                    + check + "\n" + result.output());
            assertTrue(check.errorMessage().contains(why.evidence()), () -> check.id() + " was excused because: "
                    + why.reason() + " (evidence \"" + why.evidence() + "\"), but it says: " + check.errorMessage());
        }
        if (APPLICABLE.contains(scenario)) {
            assertEquals(0, result.exitCode(), result::describe);
        }
    }
}
