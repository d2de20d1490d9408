package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One user-caused failure per command, run in process: exit 2 and exactly one line on stderr starting
 * "schemabrain: ", the last, a sentence naming what to do, never "internal error" or a stack trace; only
 * progress lines ("... ...") may come before it. {@code T} in an argument is an empty temporary directory
 * (no store, no project, no files).
 */
class CliFailureTest {

    @TempDir
    Path dir;

    static Stream<Arguments> failures() {
        return Stream.of(
                failure("index --url-env SB_NOT_SET --store T/s.db", "SB_NOT_SET is not set"),
                failure("index --source sqlite:T/missing.sqlite --store T/s.db", "missing.sqlite"),
                failure("index --source sqlite:T/x.sqlite --url-env SB_URL --store T/s.db", "SB_URL is not set"),
                failure("serve --metric-rate-limit fast --store T/s.db", "--metric-rate-limit fast"),
                failure("serve --store T/no-such-dir/s.db", "T/no-such-dir does not exist"),
                failure("eval --questions T/missing.yaml --store T/s.db", "missing.yaml"),
                failure("apply T/project --store T/s.db", "no store at T/s.db"),
                failure("diff T/project --store T/s.db", "no store at T/s.db"),
                failure("export T/project --store T/s.db", "no store at T/s.db"),
                failure("entities list --store T/s.db", "no store at T/s.db"),
                failure("joins list --store T/s.db", "no store at T/s.db"),
                failure("metrics list --store T/s.db", "no store at T/s.db"),
                failure("import dbt T/manifest.json --store T/s.db", "no store at T/s.db"),
                failure("policy apply T/pii_policy.yaml --store T/s.db", "no policy file at T/pii_policy.yaml"),
                failure("audit verify --expect-head nonsense --store T/s.db", "--expect-head must be COUNT:HASH"),
                failure("lint --no-such-option", "Unknown option: '--no-such-option'"),
                failure("check --store T/s.db", "check needs the source"),
                failure("check --source sqlite:T/x.sqlite --store T/s.db", "no store at T/s.db"),
                failure("test T/project --store T/s.db", "test needs the source"),
                failure("test T/project --source sqlite:T/x.sqlite --store T/s.db", "no semantic project at T/project"),
                failure("test T/ --source sqlite:T/x.sqlite --store T/s.db", "no metric tests in T/tests"),
                failure("test T/ --source sqlite:T/x.sqlite --statement-timeout-ms 0 --store T/s.db", "--statement-timeout-ms must be"),
                failure("init --client notepad --store T/s.db", "--client 'notepad' is not a client"),
                failure("indx", "run 'schemabrain index' if you meant it"),
                failure("demo --database /proc/nope/x.sqlite --store T/s.db", "/proc/nope/x.sqlite"));
    }

    private static Arguments failure(String command, String mentions) {
        return Arguments.of(command, mentions);
    }

    @Test
    void urlEnvReadsTheCallersEnvironment() {
        InProcessCli.Result r = InProcessCli.run(Map.of("SB_URL", "sqlite:" + dir.resolve("from-env.sqlite")),
                "index", "--url-env", "SB_URL", "--store", dir.resolve("s.db").toString());
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("from-env.sqlite does not exist"), r.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a serve that does start waits for stdin
    void oneSentenceAndExitTwo(String command, String mentions) {
        String[] args = Arrays.stream(command.split(" ")).map(a -> a.replace("T/", dir + "/")).toArray(String[]::new);
        InProcessCli.Result r = InProcessCli.run(args);
        List<String> lines = r.stderr().lines().toList();
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("schemabrain: ")).count(), r.stderr());
        String line = lines.get(lines.size() - 1);
        assertTrue(line.startsWith("schemabrain: ") && line.endsWith("."), r.stderr());
        assertTrue(lines.stream().allMatch(l -> l == line || l.endsWith(" ...")), "only progress before it: " + r.stderr());
        assertFalse(r.stderr().contains("internal error") || r.stderr().contains("Exception") || r.stderr().contains("\tat "),
                r.stderr());
        assertTrue(line.contains(mentions.replace("T/", dir + "/")), line);
        assertEquals("", r.stdout(), "a failure prints no result");
    }
}
