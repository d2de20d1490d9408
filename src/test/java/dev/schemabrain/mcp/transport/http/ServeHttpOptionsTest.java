package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serve --transport http refuses what cannot work, in one sentence with exit 2, before it listens. */
class ServeHttpOptionsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "--host, 0.0.0.0, is not a loopback address",
            "--port, 70000, --port must be 0-65535",
            "--max-request-bytes, 0, --max-request-bytes positive",
            "--rate-limit, 5/fortnight, --rate-limit 5/fortnight",
            "--metrics-listen, 9464, --metrics-listen 9464",
    })
    void isRefusedInOneSentence(String option, String value, String expected) {
        InProcessCli.Result r = InProcessCli.run("--store", dir.resolve("s.db").toString(), "serve", "--transport", "http",
                option, value);
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains(expected), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
    }
}
