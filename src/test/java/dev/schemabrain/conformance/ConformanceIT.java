package dev.schemabrain.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official MCP conformance suite ({@code @modelcontextprotocol/conformance}) against the packaged jar's
 * {@code serve --transport http}: every server scenario the suite lists (pending ones included) is run; the
 * ones that apply to a server with SchemaBrain's capabilities (tools only, stateless JSON answers) must pass,
 * the others are named below with the reason and must fail for exactly that reason. A scenario in neither
 * list fails the test, so a new scenario is never skipped silently.
 */
class ConformanceIT extends ServedDemoSuite {

    /** Scenarios that apply to us: each must pass (a SUCCESS check, no FAILURE or WARNING). */
    static final Set<String> APPLICABLE = Set.of(
            "server-initialize",
            "ping",
            "tools-list",
            "prompts-list",
            "server-sse-multiple-streams",
            "dns-rebinding-protection");

    /** Why a scenario does not apply, and the text in its checks.json that shows that is why it did not pass. */
    record NotApplicable(String reason, String evidence) {
    }

    private static final String FIXTURE = "calls the suite's own fixture tool (%s); SchemaBrain serves only its catalog tools, each"
            + " answering one JSON envelope as text and structuredContent (TypeScriptClientIT and HttpToolsTest call every one)";
    private static final String NO_LOGGING = "no logging capability: the server logs to its stderr, and a stateless server"
            + " keeps no stream to send log notifications on";
    private static final String NO_ELICITATION = "the server never asks the user anything (no elicitation requests;"
            + " a stateless server answers each POST with one JSON response)";

    static final String FIXTURE_PROMPT = "gets the suite's own fixture prompt (%s); SchemaBrain serves only the charter's"
            + " workflows as prompts (McpEdgeContract gets them in both eras)";
    private static final String NO_PROMPT = "Invalid prompt name";

    static final Map<String, NotApplicable> NOT_APPLICABLE = Map.ofEntries(
            entry("logging-set-level", new NotApplicable(NO_LOGGING, "Method not found: logging/setLevel")),
            entry("completion-complete", new NotApplicable(
                    "completes an argument of the suite's own fixture prompt (test_prompt_with_arguments); SchemaBrain"
                            + " completes only its workflows' arguments (CompletionsEdgeTest, with the Java SDK client)",
                    "Prompt not found: test_prompt_with_arguments")),
            entry("tools-call-simple-text", new NotApplicable(FIXTURE.formatted("test_simple_text"), "Unknown tool")),
            entry("tools-call-image", new NotApplicable(FIXTURE.formatted("test_image_content") + "; no tool returns images",
                    "Unknown tool")),
            entry("tools-call-audio", new NotApplicable(FIXTURE.formatted("test_audio_content") + "; no tool returns audio",
                    "Unknown tool")),
            entry("tools-call-embedded-resource", new NotApplicable(
                    FIXTURE.formatted("test_embedded_resource") + "; there are no resources", "Unknown tool")),
            entry("tools-call-mixed-content", new NotApplicable(FIXTURE.formatted("test_multiple_content_types"),
                    "Unknown tool")),
            entry("tools-call-error", new NotApplicable(FIXTURE.formatted("test_error_handling")
                    + "; our tool errors are envelopes with isError true, checked by EnvelopeChecks", "Unknown tool")),
            entry("tools-call-with-logging", new NotApplicable(NO_LOGGING, "Method not found: logging/setLevel")),
            entry("tools-call-with-progress", new NotApplicable(FIXTURE.formatted("test_tool_with_progress")
                    + "; no progress notifications, each call is one JSON response", "Unknown tool")),
            entry("tools-call-sampling", new NotApplicable(
                    "the server never asks the client's model (no sampling requests); tools answer from the store",
                    "Unknown tool")),
            entry("tools-call-elicitation", new NotApplicable(NO_ELICITATION, "Unknown tool")),
            entry("elicitation-sep1034-defaults", new NotApplicable(NO_ELICITATION, "Unknown tool")),
            entry("elicitation-sep1330-enums", new NotApplicable(NO_ELICITATION, "Unknown tool")),
            entry("json-schema-2020-12", new NotApplicable(FIXTURE.formatted("json_schema_2020_12_tool"),
                    "Tool 'json_schema_2020_12_tool' not found")),
            entry("server-sse-polling", new NotApplicable(
                    "the server answers each POST with one JSON response, never an SSE stream, so there is no stream"
                            + " to resume (SEP-1699); the suite itself reports only INFO checks",
                    "Server returned JSON instead of SSE stream")),
            entry("resources-list", new NotApplicable("no resources capability", "Method not found: resources/list")),
            entry("resources-read-text", new NotApplicable("no resources capability", "Method not found: resources/read")),
            entry("resources-read-binary", new NotApplicable("no resources capability", "Method not found: resources/read")),
            entry("resources-templates-read", new NotApplicable("no resources capability", "Method not found: resources/read")),
            entry("resources-subscribe", new NotApplicable("no resources capability (nothing to subscribe to)",
                    "Method not found: resources/subscribe")),
            entry("resources-unsubscribe", new NotApplicable("no resources capability (nothing to subscribe to)",
                    "Method not found: resources/subscribe")),
            entry("prompts-get-simple", new NotApplicable(FIXTURE_PROMPT.formatted("test_simple_prompt"), NO_PROMPT)),
            entry("prompts-get-with-args", new NotApplicable(FIXTURE_PROMPT.formatted("test_prompt_with_arguments"),
                    NO_PROMPT)),
            entry("prompts-get-embedded-resource", new NotApplicable(
                    FIXTURE_PROMPT.formatted("test_prompt_with_embedded_resource"), NO_PROMPT)),
            entry("prompts-get-with-image", new NotApplicable(FIXTURE_PROMPT.formatted("test_prompt_with_image"),
                    NO_PROMPT)));

    private static final Pattern LISTED = Pattern.compile("^\\s+- (\\S+) \\[", Pattern.MULTILINE);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyServerScenarioTheSuiteListsIsClassified() throws Exception {
        Set<String> listed = listedServerScenarios();
        Set<String> classified = new TreeSet<>(APPLICABLE);
        classified.addAll(NOT_APPLICABLE.keySet());
        assertTrue(APPLICABLE.stream().noneMatch(NOT_APPLICABLE::containsKey), "a scenario is in both lists");
        Set<String> unclassified = new TreeSet<>(listed);
        unclassified.removeAll(classified);
        assertTrue(unclassified.isEmpty(), () -> "the suite lists scenarios this test does not classify: " + unclassified
                + "; add each to APPLICABLE or NOT_APPLICABLE (with its reason)");
        Set<String> gone = new TreeSet<>(classified);
        gone.removeAll(listed);
        assertTrue(gone.isEmpty(), () -> "the suite no longer lists " + gone + "; drop them here and in docs/http.md");
    }

    @Test
    void theServerDeclaresToolsAndPrompts() {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.mcpUrl.replace("/mcp", ""))
                        .endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(30))
                .clientInfo(McpSchema.Implementation.builder("conformance-it", "1.0").build())
                .build();
        try {
            McpSchema.ServerCapabilities capabilities = client.initialize().capabilities();
            assertNotNull(capabilities.tools(), "tools");
            assertNotNull(capabilities.prompts(), "prompts (the charter's workflows)");
            // The reasons in NOT_APPLICABLE rest on these being absent.
            assertNull(capabilities.resources(), "resources");
            assertNull(capabilities.logging(), "logging");
            assertNotNull(capabilities.completions(), "completions (the workflows' arguments)");
        } finally {
            client.closeGracefully();
        }
    }

    static Stream<String> applicable() {
        return APPLICABLE.stream().sorted();
    }

    static Stream<String> notApplicable() {
        return NOT_APPLICABLE.keySet().stream().sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("applicable")
    void theScenarioPasses(String scenario) throws Exception {
        Result result = run(scenario);
        assertTrue(result.checks.stream().anyMatch(c -> c.status().equals("SUCCESS")), result::describe);
        assertTrue(result.checks.stream().noneMatch(c -> c.status().equals("FAILURE") || c.status().equals("WARNING")),
                result::describe);
        assertEquals(0, result.exitCode, result::describe);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notApplicable")
    void theScenarioDoesNotApplyForTheStatedReason(String scenario) throws Exception {
        Result result = run(scenario);
        NotApplicable why = NOT_APPLICABLE.get(scenario);
        assertTrue(result.checksJson.contains(why.evidence()), () -> scenario + " was expected not to apply because: "
                + why.reason() + " (evidence \"" + why.evidence() + "\"), but its checks say otherwise: " + result.describe());
        boolean passes = result.checks.stream().anyMatch(c -> c.status().equals("SUCCESS"))
                && result.checks.stream().noneMatch(c -> c.status().equals("FAILURE"));
        assertFalse(passes, () -> scenario + " now passes; move it to APPLICABLE (and docs/http.md)");
    }

    private static Set<String> listedServerScenarios() throws Exception {
        return listedServerScenarios(NodeToolchain.conformance(), null);
    }

    /** The server scenarios the suite at {@code entry} lists, those applying to {@code version} only if it is given. */
    static Set<String> listedServerScenarios(Path entry, String version) throws Exception {
        NodeToolchain.Run list = NodeToolchain.run(List.of(entry.toString(), "list", "--server"), 120);
        assertEquals(0, list.exitCode(), list.stderr());
        Set<String> names = new TreeSet<>();
        Matcher m = LISTED.matcher(list.stdout());
        while (m.find()) {
            String line = list.stdout().substring(m.start(), list.stdout().indexOf('\n', m.start()) < 0
                    ? list.stdout().length() : list.stdout().indexOf('\n', m.start()));
            if (version == null || line.contains(version)) {
                names.add(m.group(1));
            }
        }
        assertFalse(names.isEmpty(), () -> "no scenarios in: " + list.stdout());
        return names;
    }

    private static Result run(String scenario) throws Exception {
        return run(NodeToolchain.conformance(), server.mcpUrl, scenario, List.of(), "results");
    }

    /** Runs one server scenario of the suite at {@code entry} against {@code url}; {@code extra}: more options. */
    static Result run(Path entry, String url, String scenario, List<String> extra, String results) throws Exception {
        Path out = NodeToolchain.DIR.resolve(results).resolve(scenario);
        deleteTree(out);
        List<String> command = new ArrayList<>(List.of(entry.toString(), "server", "--url", url, "--scenario", scenario,
                "-o", out.toString()));
        command.addAll(extra);
        NodeToolchain.Run run = NodeToolchain.run(command, 300);
        Path checksFile;
        try (Stream<Path> files = Files.walk(out)) {
            checksFile = files.filter(p -> p.getFileName().toString().equals("checks.json")).findFirst()
                    .orElseThrow(() -> new AssertionError(scenario + " wrote no checks.json: " + run.stdout() + run.stderr()));
        }
        String checksJson = Files.readString(checksFile);
        List<Check> checks = new ArrayList<>();
        for (JsonNode c : JSON.readTree(checksJson)) {
            checks.add(new Check(c.path("id").asText(), c.path("status").asText(), c.path("errorMessage").asText("")));
        }
        return new Result(scenario, run.exitCode(), checks, checksJson, run.stdout() + run.stderr());
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    record Check(String id, String status, String errorMessage) {
    }

    record Result(String scenario, int exitCode, List<Check> checks, String checksJson, String output) {
        String describe() {
            return scenario + " (exit " + exitCode + "): " + checks + "\n" + output;
        }
    }
}
