package dev.schemabrain.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.McpStdio;
import dev.schemabrain.testing.TestPostgres;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * serve with a wrong password: it used to start without a word and leave the agent to find out at its first query.
 * Now it says so on stderr at once and keeps serving the catalog, or with --check-sources refuses to start.
 */
class ServeSourceReachTest {

    @TempDir
    static Path dir;
    static Path store;
    static String role;

    @BeforeAll
    static void index() throws Exception {
        TestPostgres.createDatabase("sb_reach", "CREATE TABLE plans (id int PRIMARY KEY, name text NOT NULL)",
                "INSERT INTO plans VALUES (1, 'free'), (2, 'pro')");
        role = TestPostgres.passwordRole();
        try (var c = TestPostgres.connect("sb_reach"); var st = c.createStatement()) {
            st.execute("GRANT SELECT ON plans TO " + role);
        }
        store = dir.resolve("store.db");
        assertEquals("", run("--store", store.toString(), "index", "--url-env", "GOOD")[0]);
    }

    private static String url(String password) {
        return "postgresql://" + role + ":" + password + "@127.0.0.1:" + TestPostgres.port() + "/sb_reach";
    }

    /** {exit code as text when non-zero else "", stderr}. */
    private static String[] run(String... args) {
        InProcessCli.Result r = InProcessCli.runAtEof(Map.of("GOOD", url("right-password"), "BAD", url("wrong-password")), args);
        return new String[] {r.exitCode() == 0 ? "" : String.valueOf(r.exitCode()), r.stderr()};
    }

    @Test
    void checkSourcesRefusesToStartInOneSentence() {
        String[] r = run("--store", store.toString(), "serve", "--url-env", "BAD", "--check-sources");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("serve cannot reach postgresql://") && r[1].contains("--check-sources"), r[1]);
        assertEquals(1, r[1].strip().lines().count(), r[1]);
        assertFalse(r[1].contains("wrong-password"), r[1]);
        // A store of its own: this serve's audit key is not the MCP client's server's.
        Path other = dir.resolve("other").resolve("store.db");
        assertEquals("", run("--store", other.toString(), "index", "--url-env", "GOOD")[0]);
        String[] good = run("--store", other.toString(), "serve", "--url-env", "GOOD", "--check-sources");
        assertEquals("", good[0], "the right password starts: " + good[1]);
    }

    @Test
    void withoutTheFlagServeWarnsAtOnceAndKeepsServingTheCatalog() throws Exception {
        StringBuffer stderr = new StringBuffer();
        McpSyncClient client = McpStdio.client(store, stderr, Map.of("BAD", url("wrong-password")), "--url-env", "BAD");
        try {
            long until = System.currentTimeMillis() + 15_000;
            while (!stderr.toString().contains("cannot reach") && System.currentTimeMillis() < until) {
                Thread.sleep(50);
            }
            assertTrue(stderr.toString().contains("warning: cannot reach postgresql://"), "said before any call: " + stderr);
            assertFalse(stderr.toString().contains("wrong-password"), stderr::toString);
            McpSchema.CallToolResult describe = McpStdio.call(client, "describe_table", Map.of("qualified_name", "public.plans"));
            JsonNode d = new ObjectMapper().readTree(((McpSchema.TextContent) describe.content().get(0)).text());
            assertEquals("success", d.path("status").asText(), "the catalog is still served: " + d);
        } finally {
            McpStdio.stop(client);
        }
    }
}
