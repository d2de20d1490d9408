package dev.schemabrain.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.audit.ArgsHash;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.SqlFingerprint;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.EnvelopeChecks;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PII as an agent meets it, through a real MCP client over stdio on the demo database: tags on every
 * described column, blocked columns redacted, no sample of a tagged column anywhere, and get_metric
 * refusing before any SQL leaves when the metric's PII set meets the block list, takes MIN/MAX over a
 * tagged column or groups by one.
 */
@SuppressWarnings("unchecked")
class PiiEnforcementIT {

    @TempDir
    static Path dir;
    static Path store;
    static McpSyncClient client;
    static final StringBuffer stderr = new StringBuffer();
    static Map<String, McpSchema.Tool> tools;

    @BeforeAll
    static void indexTheDemoAndConnect() throws Exception {
        Path demo = dir.resolve("demo.sqlite");
        DemoDatabase.create(demo);
        store = dir.resolve("demo.db");
        Cli.Result index = Cli.run(dir, "--store", store.toString(), "index", "--source", "sqlite:" + demo);
        assertEquals(0, index.exitCode(), index.stderr());
        Files.createDirectories(dir.resolve("proj/metrics"));
        Files.writeString(dir.resolve("proj/metrics/users_earliest_birth.yaml"), """
                version: 1
                name: users_earliest_birth
                entity: users
                measure: {agg: min, column: date_of_birth}
                """);
        Cli.Result apply = Cli.run(dir, "--store", store.toString(), "apply", "proj");
        assertEquals(0, apply.exitCode(), apply.stderr());
        client = McpStdio.client(store, stderr, Map.of("SB_IT_SOURCE", "sqlite:" + demo), "--url-env", "SB_IT_SOURCE");
        tools = client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    static Map<String, Object> call(McpSyncClient c, String tool, Map<String, Object> arguments) throws Exception {
        return EnvelopeChecks.envelope(McpStdio.call(c, tool, arguments), tools.get(tool).outputSchema(), tools.keySet());
    }

    static Map<String, Object> data(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("data");
    }

    static Map<String, Object> error(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("error");
    }

    static Map<String, Map<String, Object>> columns(Map<String, Object> describeTable) {
        return ((List<Map<String, Object>>) data(describeTable).get("columns")).stream()
                .collect(Collectors.toMap(c -> (String) c.get("name"), c -> c));
    }

    @Test
    void describeTableTagsEveryColumnAndRedactsTheBlockedOnes() throws Exception {
        Map<String, Map<String, Object>> users = columns(call(client, "describe_table",
                Map.of("qualified_name", "main.users", "response_format", "detailed")));
        assertEquals(List.of("contact"), users.get("email").get("pii_categories"));
        assertEquals("pii", users.get("email").get("pii_sensitivity"));
        assertFalse(users.get("email").containsKey("redacted"), "contact is tagged, not blocked by default");
        assertEquals(List.of(), users.get("email").get("samples"), "no sample of a tagged column is shown");
        assertEquals(List.of("credential"), users.get("password_hash").get("pii_categories"));
        assertEquals(true, users.get("password_hash").get("redacted"));
        assertTrue(((String) users.get("password_hash").get("description")).startsWith("Redacted: this column holds credential"),
                users.get("password_hash").toString());
        assertEquals(List.of(), users.get("role").get("pii_categories"));
        assertEquals("public", users.get("role").get("pii_sensitivity"));
        assertFalse(((List<String>) users.get("role").get("samples")).isEmpty(), "an untagged column keeps its samples");

        Map<String, Map<String, Object>> payments = columns(call(client, "describe_table", Map.of("qualified_name", "main.payments")));
        assertEquals(List.of("payment_card"), payments.get("card_number").get("pii_categories"));
        assertEquals(true, payments.get("card_number").get("redacted"));
    }

    @Test
    void describeColumnAndEntityCarryTheTagAndHideSamples() throws Exception {
        Map<String, Object> email = data(call(client, "describe_column", Map.of("qualified_name", "main.users.email")));
        assertEquals(List.of("contact"), email.get("pii_categories"));
        assertEquals(List.of(), email.get("samples"));
        Map<String, Object> card = data(call(client, "describe_column", Map.of("qualified_name", "main.payments.card_number")));
        assertEquals(true, card.get("redacted"));
        assertEquals(List.of(), card.get("samples"));
        assertFalse(card.toString().matches(".*\\d{13,19}.*"), "no card number anywhere: " + card);

        Map<String, Object> entity = data(call(client, "describe_entity", Map.of("name", "users")));
        Map<String, Map<String, Object>> byRef = ((List<Map<String, Object>>) entity.get("columns")).stream()
                .collect(Collectors.toMap(c -> (String) c.get("reference"), c -> c));
        assertEquals(List.of("demographic_protected"), byRef.get("users.date_of_birth").get("pii_categories"));
        assertEquals(true, byRef.get("users.password_hash").get("redacted"));
    }

    @Test
    void searchHitsCarryTheTagsOfTheirColumns() throws Exception {
        Map<String, Object> found = data(call(client, "find_relevant_tables", Map.of("query", "user email address")));
        Map<String, Object> users = ((List<Map<String, Object>>) found.get("hits")).stream()
                .filter(h -> h.get("qualified_name").equals("main.users")).findFirst().orElseThrow();
        List<Map<String, Object>> tagged = (List<Map<String, Object>>) users.get("pii_columns");
        assertTrue(tagged.stream().anyMatch(c -> c.get("column").equals("email")
                && c.get("pii_categories").equals(List.of("contact"))), tagged.toString());
        assertTrue(users.containsKey("best_column_pii_categories"), users.toString());
    }

    @Test
    void getMetricRefusesBlockedExtremumAndGroupByOnTaggedColumns() throws Exception {
        Map<String, Object> blocked = call(client, "get_metric", Map.of("name", "payments_count",
                "filters", List.of(Map.of("column", "payments.card_number", "op", "eq", "value", "4242424242424242"))));
        assertRefused(blocked, List.of("payment_card"));

        Map<String, Object> extremum = call(client, "get_metric", Map.of("name", "users_earliest_birth"));
        assertRefused(extremum, List.of("demographic_protected"));

        Map<String, Object> grouped = call(client, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.email")));
        assertRefused(grouped, List.of("contact"));
        assertTrue(((String) error(grouped).get("message")).contains("main.users.email"), error(grouped).toString());

        // Only the categories that caused the refusal are named, not everything the query touches.
        Map<String, Object> mixed = call(client, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.role"),
                "filters", List.of(Map.of("column", "users.password_hash", "op", "eq", "value", "x"),
                        Map.of("column", "users.email", "op", "not_null"))));
        assertRefused(mixed, List.of("credential"));

        Map<String, Object> fine = call(client, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.role")));
        assertEquals("success", fine.get("status"), fine.toString());
        assertEquals(List.of(), data(fine).get("pii_categories"));
        Map<String, Object> touches = call(client, "get_metric", Map.of("name", "users_count",
                "filters", List.of(Map.of("column", "users.email", "op", "not_null"))));
        assertEquals("success", touches.get("status"), "a tagged, unblocked filter column may be used: " + touches);
        assertEquals(List.of("contact"), data(touches).get("pii_categories"), "and the answer says what it touched");
    }

    @Test
    void everyCallIsAuditedRefusalsWithTheirCategoriesAndTheChainVerifies() throws Exception {
        call(client, "list_indexed_schemas", Map.of());
        // One refusal of each kind, each under arguments no other test uses, so its row can be told apart.
        Map<String, List<String>> refusals = new LinkedHashMap<>();
        Map<String, Object> byGroup = Map.of("name", "users_count", "group_by", List.of("users.email"), "limit", 7);
        Map<String, Object> byExtremum = Map.of("name", "users_earliest_birth", "limit", 7);
        Map<String, Object> byBlock = Map.of("name", "payments_count", "limit", 7,
                "filters", List.of(Map.of("column", "payments.card_number", "op", "is_null")));
        for (Map<String, Object> args : List.of(byGroup, byExtremum, byBlock)) {
            Map<String, Object> refused = call(client, "get_metric", args);
            refusals.put(ArgsHash.of(auditKey(), args), (List<String>) error(refused).get("pii_categories"));
        }
        assertEquals(List.of(List.of("contact"), List.of("demographic_protected"), List.of("payment_card")),
                List.copyOf(refusals.values()));
        Map<String, Object> ran = call(client, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.role")));
        // The log keeps the answer's fingerprint keyed, so a reader without the key cannot match query shapes.
        String fingerprint = SqlFingerprint.of(auditKey(), (String) data(ran).get("sql_fingerprint"));

        Cli.Result listed = Cli.run(dir, "--store", store.toString(), "audit", "list", "--json", "--limit", "1000");
        assertEquals(0, listed.exitCode(), listed.stderr());
        List<Map<String, Object>> rows = new ObjectMapper().readValue(listed.stdout(), List.class);
        assertTrue(rows.stream().anyMatch(r -> r.get("tool").equals("list_indexed_schemas") && r.get("phase").equals("call")
                && "stdio".equals(r.get("caller"))), "every call is recorded, with its caller (stdio: the one who launched it)");
        refusals.forEach((argsHash, categories) -> {
            List<Map<String, Object>> forCall = rows.stream().filter(r -> argsHash.equals(r.get("args_hash"))).toList();
            assertEquals(1, forCall.size(), "one row per refused call, none before SQL: no SQL left " + forCall);
            Map<String, Object> r = forCall.get(0);
            assertEquals(List.of("get_metric", "call", "refused", "pii_blocked", categories),
                    List.of(r.get("tool"), r.get("phase"), r.get("status"), r.get("error_kind"), r.get("pii_categories")));
            assertEquals(null, r.get("sql_fingerprint"));
        });
        Map<String, Object> started = rows.stream().filter(r -> fingerprint.equals(r.get("sql_fingerprint"))
                && r.get("phase").equals("started")).findFirst().orElseThrow(() -> new AssertionError(rows.toString()));
        Map<String, Object> completed = rows.stream().filter(r -> fingerprint.equals(r.get("sql_fingerprint"))
                && r.get("phase").equals("completed")).findFirst().orElseThrow();
        assertTrue(((Number) started.get("id")).longValue() < ((Number) completed.get("id")).longValue());
        assertEquals("success", completed.get("status"));
        assertEquals(3, ((Number) completed.get("row_count")).intValue(), "owner, admin, member");
        assertFalse(listed.stdout().contains("users.role"), "arguments are hashed, never stored");

        Cli.Result verified = Cli.run(dir, "--store", store.toString(), "audit", "verify");
        assertEquals(0, verified.exitCode(), verified.stdout() + verified.stderr());
        assertTrue(verified.stdout().startsWith("audit chain intact: "), verified.stdout());
        Cli.Result missing = Cli.run(dir, "--store", dir.resolve("nowhere.db").toString(), "audit", "verify");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.stderr().startsWith("schemabrain: There is no store at"), missing.stderr());
    }

    @Test
    void aTamperedAuditLogFailsVerifyNamingTheRow() throws Exception {
        Path copy = dir.resolve("tampered/demo.db");
        Files.createDirectories(copy.getParent());
        McpSyncClient own = McpStdio.client(store, new StringBuffer());
        try {
            call(own, "list_indexed_schemas", Map.of());
        } finally {
            McpStdio.stop(own);
        }
        // The store (which holds the log's witness) and the log as they are on disk now, WALs included (the other
        // server still has them open): only the edited row differs.
        for (String name : List.of("demo.db", "demo.db-wal", "demo.audit.db", "demo.audit.db-wal")) {
            if (Files.exists(dir.resolve(name))) {
                Files.copy(dir.resolve(name), copy.resolveSibling(name));
            }
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy.resolveSibling("demo.audit.db"));
             Statement st = c.createStatement()) {
            st.execute("DROP TRIGGER audit_log_no_update");
            st.execute("UPDATE audit_log SET status = 'tampered' WHERE id = 1");
            // The exact trigger put back: only the chain can tell.
            st.execute("CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END");
        }
        Cli.Result broken = Cli.run(dir, "--store", copy.toString(), "audit", "verify");
        assertEquals(1, broken.exitCode(), broken.stdout() + broken.stderr());
        assertTrue(broken.stdout().startsWith("audit chain broken at row 1: "), broken.stdout());
    }

    /** The key the suite's servers generated (under the build's XDG_CONFIG_HOME), to compute keyed argument hashes. */
    static AuditKey auditKey() {
        try {
            return AuditKey.resolve(Optional.empty(), System.getenv(), false);
        } catch (AuditException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    static void assertRefused(Map<String, Object> envelope, List<String> categories) {
        assertEquals("refused", envelope.get("status"), envelope::toString);
        assertEquals("pii_blocked", error(envelope).get("kind"));
        assertEquals(categories, error(envelope).get("pii_categories"));
        Map<String, Object> recovery = (Map<String, Object>) error(envelope).get("recovery");
        assertEquals("describe_entity", recovery.get("suggested_tool"));
        assertNotEquals(null, recovery.get("suggested_rewrite"));
    }

    @Test
    void aWiderBlockListRedactsMoreAndLoweringTheFloorNeedsForce() throws Exception {
        StringBuffer err = new StringBuffer();
        try (McpSyncClient strict = McpStdio.client(store, err, Map.of(), "--pii-block",
                "credential,payment_card,government_id,contact")) {
            Map<String, Map<String, Object>> users = columns(call(strict, "describe_table", Map.of("qualified_name", "main.users")));
            assertEquals(true, users.get("email").get("redacted"));
            Map<String, Object> refused = call(strict, "get_metric", Map.of("name", "users_count",
                    "filters", List.of(Map.of("column", "users.email", "op", "not_null"))));
            assertRefused(refused, List.of("contact"));
        }
        Cli.Result lowered = Cli.run(dir, "--store", store.toString(), "serve", "--pii-block", "contact");
        assertEquals(2, lowered.exitCode(), lowered.stdout() + lowered.stderr());
        assertTrue(lowered.stderr().contains("leaves out credential, payment_card, government_id")
                && lowered.stderr().contains("--force-pii-floor"), lowered.stderr());
        assertEquals("", lowered.stdout(), "nothing but MCP frames on stdout, and here none");
    }
}
