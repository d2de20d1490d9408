package dev.schemabrain.load;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Options probe and sweep refuse before any request leaves: one sentence naming the option, exit 2. */
class LoadOptionsTest {

    /** Nothing listens here; a refusal that came from the network would say "Cannot reach". */
    private static final String URL = "http://127.0.0.1:9/mcp";

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("a zero concurrency", "--concurrency", new String[]{"sweep", "--url", URL, "--concurrency", "8,0",
                        "--p95-slo-ms", "10", "--p99-slo-ms", "20"}),
                Arguments.of("a negative SLO", "--p95-slo-ms", new String[]{"sweep", "--url", URL, "--p95-slo-ms", "-1",
                        "--p99-slo-ms", "20"}),
                Arguments.of("no SLO", "--p95-slo-ms", new String[]{"sweep", "--url", URL}),
                Arguments.of("a markdown file in a missing directory", "--markdown", new String[]{"sweep", "--url", URL,
                        "--p95-slo-ms", "10", "--p99-slo-ms", "20", "--markdown", "/no/such/dir/sweep.md"}),
                Arguments.of("a URL that is not HTTP", "--url", new String[]{"probe", "--url", "ftp://127.0.0.1/mcp"}),
                Arguments.of("a URL that does not parse", "--url", new String[]{"probe", "--url", "http://[bad"}),
                Arguments.of("arguments without a tool", "--arguments", new String[]{"probe", "--url", URL, "--arguments", "{}"}),
                Arguments.of("zero calls", "--calls", new String[]{"probe", "--url", URL, "--calls", "0"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusedInOneSentence(String name, String option, String[] args) {
        InProcessCli.Result run = InProcessCli.run(args);
        assertEquals(2, run.exitCode(), run.stderr());
        String err = run.stderr().strip();
        assertTrue(err.startsWith("schemabrain: ") && !err.contains("\n") && err.contains(option), err);
        assertTrue(!err.contains("Cannot reach"), "refused before any request: " + err);
    }
}
