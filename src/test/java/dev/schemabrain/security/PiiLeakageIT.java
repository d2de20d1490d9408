package dev.schemabrain.security;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.EnvelopeChecks;
import dev.schemabrain.testing.McpStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Disclosure control as a hostile agent meets it (issue 12, items 1–3): a real MCP client
 * over stdio against the packaged server on the demo database, trying every way we know to read one
 * person's value out of aggregates. Each path is run for real and its answer compared with the truth read
 * from the database directly; a path "holds" when the agent learns nothing personal. The tally goes to
 * {@code target/security/pii-leakage.txt}.
 */
@SuppressWarnings("unchecked")
class PiiLeakageIT {

    @TempDir
    static Path dir;
    static Path demo;
    static Path store;
    static McpSyncClient client;
    static Map<String, McpSchema.Tool> tools;
    static final StringBuffer stderr = new StringBuffer();
    static Cli.Result policyApplied;
    /** Path name → held; every test records its paths, the last one writes the file. */
    static final Map<String, Boolean> paths = new LinkedHashMap<>();

    @BeforeAll
    static void indexTheDemoWithAnAllowanceAndConnect() throws Exception {
        demo = dir.resolve("demo.sqlite");
        DemoDatabase.create(demo);
        store = dir.resolve("demo.db");
        Cli.Result index = Cli.run(dir, "--store", store.toString(), "index", "--source", "sqlite:" + demo);
        assertEquals(0, index.exitCode(), index.stderr());
        Files.createDirectories(dir.resolve("proj/metrics"));
        Files.writeString(dir.resolve("proj/metrics/view_seconds.yaml"), """
                version: 1
                name: view_seconds
                entity: page_views
                measure: {agg: sum, column: duration_seconds}
                """);
        Files.writeString(dir.resolve("proj/metrics/latest_birth.yaml"), """
                version: 1
                name: latest_birth
                entity: users
                measure: {agg: max, column: date_of_birth}
                """);
        Files.writeString(dir.resolve("proj/metrics/users_by_birthday.yaml"), """
                version: 1
                name: users_by_birthday
                entity: users
                measure: {agg: count, column: id}
                time_dimension: users.date_of_birth
                time_grains: [day, month]
                """);
        Cli.Result apply = Cli.run(dir, "--store", store.toString(), "apply", "proj");
        assertEquals(0, apply.exitCode(), apply.stderr());
        // The operator allows "users by last name" and nothing else on that column.
        Files.createDirectories(dir.resolve("schemabrain"));
        Files.writeString(dir.resolve("schemabrain/pii_policy.yaml"), """
                columns:
                  main.users.last_name: {categories: [contact], allow: [group_by]}
                """);
        // Checked by the allowance test, so the other paths run even where allowances do not exist.
        policyApplied = Cli.run(dir, "--store", store.toString(), "policy", "apply");
        // No metric rate limit (AvailabilityIT tests it): past its burst, an attack's calls would be turned away for the
        // wrong reason (policy_blocked, not pii_blocked) and a path would hold or leak by timing.
        client = McpStdio.client(store, stderr, Map.of("SB_LEAK_SOURCE", "sqlite:" + demo), "--url-env", "SB_LEAK_SOURCE",
                "--metric-rate-limit", "off");
        tools = client.listTools().tools().stream().collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
    }

    @AfterAll
    static void closeAndReport() throws Exception {
        if (client != null) {
            client.closeGracefully();
        }
        long held = paths.values().stream().filter(b -> b).count();
        StringBuilder out = new StringBuilder("pii leakage paths held: " + held + " / " + paths.size() + "\n");
        paths.forEach((name, ok) -> out.append(ok ? "  held   " : "  LEAKED ").append(name).append('\n'));
        Path file = Path.of("target", "security", "pii-leakage.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, out.toString());
    }

    static Map<String, Object> metric(Map<String, Object> arguments) throws Exception {
        return EnvelopeChecks.envelope(McpStdio.call(client, "get_metric", arguments), tools.get("get_metric").outputSchema(),
                tools.keySet());
    }

    static Map<String, Object> data(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("data");
    }

    static Map<String, Object> error(Map<String, Object> envelope) {
        return (Map<String, Object>) envelope.get("error");
    }

    static List<Map<String, Object>> rows(Map<String, Object> envelope) {
        return data(envelope) == null ? List.of() : (List<Map<String, Object>>) data(envelope).getOrDefault("rows", List.of());
    }

    static boolean refused(Map<String, Object> envelope, String category) {
        return "refused".equals(envelope.get("status")) && "pii_blocked".equals(error(envelope).get("kind"))
                && ((List<String>) error(envelope).get("pii_categories")).contains(category);
    }

    /** The leaks of the running test; every path of a test is tried, and the test fails after them all. */
    static final List<String> leaks = new ArrayList<>();

    /** Records a path; the test fails at its end when any of its paths leaked. */
    static void held(String path, boolean held, Object evidence) {
        paths.put(path, held);
        if (!held) {
            leaks.add(path + " leaked: " + evidence);
        }
    }

    @AfterEach
    void everyPathOfTheTestHeld() {
        List<String> found = List.copyOf(leaks);
        leaks.clear();
        assertEquals(List.of(), found);
    }

    static List<List<Object>> sql(String query) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + demo); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(query)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    static Map<String, Object> filter(String column, String op, Object value) {
        Map<String, Object> f = new HashMap<>(Map.of("column", column, "op", op));
        if (value != null) {
            f.put("value", value);
        }
        return f;
    }

    /** users_count where users.id = id and the extra filter; the count, or empty when no number came back. */
    static Optional<Long> countOfOne(long id, Map<String, Object> extra) throws Exception {
        Map<String, Object> env = metric(Map.of("name", "users_count",
                "filters", List.of(filter("users.id", "eq", id), extra)));
        List<Map<String, Object>> rows = rows(env);
        if (rows.size() != 1 || rows.get(0).get("users_count") == null) {
            return Optional.empty();
        }
        return Optional.of(((Number) rows.get(0).get("users_count")).longValue());
    }

    @Test
    void aRangeBinarySearchOnAnEmailLearnsNothing() throws Exception {
        String truth = (String) sql("SELECT email FROM users WHERE id = 1").get(0).get(0);
        // The attack of the red-team run: grow a prefix one character at a time, each by binary search
        // over printable ASCII with gte; the count (0 or 1) of "id = 1 and email >= probe" is the oracle.
        StringBuilder learned = new StringBuilder();
        int calls = 0;
        boolean blind = false;
        for (int position = 0; position < 64 && !blind; position++) {
            int lo = 32;
            int hi = 126;
            while (lo < hi) {
                int mid = (lo + hi + 1) / 2;
                Optional<Long> n = countOfOne(1, filter("users.email", "gte", learned.toString() + (char) mid));
                calls++;
                if (n.isEmpty()) {
                    blind = true;
                    break;
                }
                if (n.get() == 1) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            if (blind) {
                break;
            }
            learned.append((char) lo);
            if (learned.toString().equals(truth)) {
                break;
            }
        }
        held("range binary search on users.email (gte, narrowed to one user): " + calls + " calls, learned '" + learned + "'",
                learned.isEmpty() && blind, learned);
        Map<String, Object> lt = metric(Map.of("name", "users_count", "filters", List.of(filter("users.email", "lt", "m"))));
        held("range filter lt on users.email, not narrowed", refused(lt, "contact"), lt);
        Map<String, Object> birth = metric(Map.of("name", "users_count",
                "filters", List.of(filter("users.date_of_birth", "gte", "1990-01-01"))));
        held("range filter gte on users.date_of_birth (not a direct identifier)", refused(birth, "demographic_protected"), birth);
    }

    @Test
    void membershipTestsOnDirectIdentifiersAreRefused() throws Exception {
        List<String> emails = sql("SELECT email FROM users ORDER BY id LIMIT 1000").stream().map(r -> (String) r.get(0)).toList();
        Map<String, Object> eq = metric(Map.of("name", "users_count", "filters", List.of(filter("users.email", "eq", emails.get(3)))));
        held("eq membership on users.email", refused(eq, "contact"), eq);
        List<String> thousand = new ArrayList<>(emails);
        for (int i = 0; thousand.size() < 1000; i++) {
            thousand.add("guess" + i + "@example.com");
        }
        Map<String, Object> in = metric(Map.of("name", "users_count", "filters", List.of(filter("users.email", "in", thousand))));
        held("in-list of 1,000 candidate e-mails", refused(in, "contact"), in.get("status"));
        Map<String, Object> ne = metric(Map.of("name", "users_count", "filters", List.of(filter("users.email", "ne", emails.get(3)))));
        held("ne complement on users.email (total minus membership)", refused(ne, "contact"), ne);
        Map<String, Object> notIn = metric(Map.of("name", "users_count",
                "filters", List.of(filter("users.phone_number", "not_in", List.of("+1 555 0100")))));
        held("not_in complement on users.phone_number", refused(notIn, "contact"), notIn);
        // Through a join: page views reach users, and the filter is still on a direct identifier.
        Map<String, Object> joined = metric(Map.of("name", "view_seconds", "filters", List.of(filter("users.email", "eq", emails.get(3)))));
        held("eq on users.email reached through a join (page_views → users)", refused(joined, "contact"), joined);
    }

    @Test
    void groupingsAndTimeDimensionsOverTaggedColumnsAreRefusedWithARewrite() throws Exception {
        Map<String, Object> byEmail = metric(Map.of("name", "users_count", "group_by", List.of("users.email")));
        Map<String, Object> recovery = byEmail.get("error") == null ? Map.of()
                : (Map<String, Object>) error(byEmail).get("recovery");
        // The rewrite names an untagged dimension, not the identity: one group per person would be suppressed whole.
        String rewrite = String.valueOf(recovery.get("suggested_rewrite"));
        held("group_by users.email (with a rewrite to an untagged dimension)", refused(byEmail, "contact")
                && rewrite.contains("users.") && !rewrite.contains("\"users.id\""), byEmail);
        Map<String, Object> birthdays = metric(Map.of("name", "users_count", "time_dimension", "users.date_of_birth",
                "time_grain", "day", "group_by", List.of("users.role")));
        held("time_dimension users.date_of_birth by day (the group_by rule bypass)", refused(birthdays, "demographic_protected"),
                rows(birthdays).size() + " rows");
        Map<String, Object> defined = metric(Map.of("name", "users_by_birthday", "time_grain", "day"));
        held("a metric whose own time dimension is users.date_of_birth, by day", refused(defined, "demographic_protected"),
                rows(defined).size() + " rows");
        Map<String, Object> phones = metric(Map.of("name", "view_seconds", "group_by", List.of("users.phone_number")));
        held("group_by users.phone_number reached through a join", refused(phones, "contact"), phones.get("status"));
        Map<String, Object> latest = metric(Map.of("name", "latest_birth"));
        held("MAX over users.date_of_birth", refused(latest, "demographic_protected"), latest);
        Map<String, Object> narrowedMax = metric(Map.of("name", "latest_birth", "filters", List.of(filter("users.id", "eq", 1))));
        held("MAX over users.date_of_birth narrowed to one user", refused(narrowedMax, "demographic_protected"), narrowedMax);
        Map<String, Object> card = metric(Map.of("name", "payments_count", "filters", List.of(filter("payments.card_number", "not_null", null))));
        held("any use of a blocked column (payments.card_number not_null)", refused(card, "payment_card"), card);
    }

    @Test
    void smallGroupsOfPeopleAreLeftOut() throws Exception {
        // Users counted by country, city and company: the red-team's 53-of-56 singleton groups. The demo's
        // organizations carry tagged columns (street, postal code) but are organisations, not people:
        // a group is shown when it holds at least five users, and a suppressed group is not listed at all.
        List<Executable> exact = new ArrayList<>();   // one grouping's wrong value does not hide the other's
        for (List<String> grouping : List.of(List.of("organizations.country", "organizations.city", "organizations.name"),
                List.of("organizations.country"))) {
            Map<String, Object> answer = metric(Map.of("name", "users_count", "group_by", grouping, "limit", 10_000));
            String keys = grouping.stream().map(g -> "o." + g.substring(g.indexOf('.') + 1)).collect(Collectors.joining(", "));
            Map<List<String>, long[]> truth = new HashMap<>();
            for (List<Object> r : sql("SELECT " + keys + ", COUNT(DISTINCT u.id), COUNT(DISTINCT o.id) FROM users u "
                    + "LEFT JOIN organizations o ON o.id = u.organization_id GROUP BY " + keys)) {
                List<String> key = r.subList(0, grouping.size()).stream().map(String::valueOf).toList();
                truth.put(key, new long[]{((Number) r.get(grouping.size())).longValue(), ((Number) r.get(grouping.size() + 1)).longValue()});
            }
            long small = truth.values().stream().filter(n -> n[0] < 5).count();
            boolean everySmallHidden = rows(answer).size() == truth.size() - small;
            boolean everyLargeExact = true;
            for (Map<String, Object> r : rows(answer)) {
                long[] real = truth.get(grouping.stream().map(g -> String.valueOf(r.get(g))).toList());
                Object shown = r.get("users_count");
                everySmallHidden &= real[0] >= 5 && !r.containsKey("suppressed");
                everyLargeExact &= shown != null && ((Number) shown).longValue() == real[0];
            }
            held("users counted by " + String.join(", ", grouping) + ": " + small + " of " + truth.size()
                            + " groups under 5 people, all left out", small > 0 && everySmallHidden
                            && "degraded".equals(answer.get("status"))
                            && "small_groups_suppressed".equals(answer.get("degradation_reason"))
                            && ((Number) data(answer).get("suppressed_groups")).longValue() == small, answer.get("status"));
            boolean largeExact = everyLargeExact;
            exact.add(() -> assertTrue(largeExact, "groups of five or more keep their exact value: " + grouping));
        }
        assertAll(exact);

        // An operator's sum grouped by the person's id: every group is one person.
        Map<String, Object> perUser = metric(Map.of("name", "view_seconds", "group_by", List.of("users.id"), "limit", 10_000));
        held("sum(duration) grouped by users.id (one person per group)",
                rows(perUser).isEmpty() && ((Number) data(perUser).get("suppressed_groups")).longValue() > 0, rows(perUser).stream().limit(1).toList());
        Map<String, Object> perFk = metric(Map.of("name", "view_seconds", "group_by", List.of("page_views.user_id"), "limit", 10_000));
        held("sum(duration) grouped by page_views.user_id (the person's key, no join)",
                rows(perFk).isEmpty() && ((Number) data(perFk).get("suppressed_groups")).longValue() > 0, rows(perFk).stream().limit(1).toList());
        // An ungrouped total is a group too: a filter that narrows to one person.
        Map<String, Object> one = metric(Map.of("name", "view_seconds", "filters", List.of(filter("users.id", "eq", 7))));
        held("ungrouped sum narrowed to one person by a filter", rows(one).isEmpty()
                && ((Number) data(one).get("suppressed_groups")).longValue() == 1, one);
        Optional<Long> presence = countOfOne(7, filter("users.phone_number", "is_null", null));
        held("is_null on users.phone_number narrowed to one person", presence.isEmpty(), presence);
        // Ordering cannot rank what is hidden: a top-1 over one-person groups lists nobody.
        Map<String, Object> top = metric(Map.of("name", "view_seconds", "group_by", List.of("users.id"),
                "order_by", List.of(Map.of("column", "view_seconds", "direction", "desc")), "limit", 1));
        held("order_by the value desc, limit 1, over one-person groups", rows(top).isEmpty(), top);
        Map<String, Object> byTagged = metric(Map.of("name", "users_count", "order_by", List.of(Map.of("column", "users.email"))));
        held("order_by a tagged column that is not in the result", "error".equals(byTagged.get("status"))
                && "unknown_order_by_column".equals(error(byTagged).get("kind")), byTagged);
        // Large groups stay exact: the rule does not blunt every answer.
        Map<String, Object> byRole = metric(Map.of("name", "users_count", "group_by", List.of("users.role")));
        assertEquals("success", byRole.get("status"), byRole.toString());
        assertEquals(sql("SELECT role, COUNT(id) FROM users GROUP BY role ORDER BY role").stream()
                .map(r -> List.of(r.get(0), ((Number) r.get(1)).longValue())).toList(), rows(byRole).stream()
                .map(r -> List.of(r.get("users.role"), ((Number) r.get("users_count")).longValue())).toList());
    }

    @Test
    void anAllowanceOpensExactlyWhatTheOperatorAllowed() throws Exception {
        assertEquals(0, policyApplied.exitCode(), policyApplied.stdout() + policyApplied.stderr());
        Map<String, Object> byLastName = metric(Map.of("name", "users_count", "group_by", List.of("users.last_name"), "limit", 10_000));
        assertNotEquals("refused", byLastName.get("status"), byLastName.toString());
        Map<Object, Long> truth = new HashMap<>();
        sql("SELECT last_name, COUNT(id) FROM users GROUP BY last_name").forEach(r -> truth.put(r.get(0), ((Number) r.get(1)).longValue()));
        boolean suppressedBelowK = rows(byLastName).stream().allMatch(r -> truth.get(r.get("users.last_name")) >= 5
                ? Objects.equals(truth.get(r.get("users.last_name")), ((Number) r.get("users_count")).longValue())
                : r.get("users_count") == null);
        held("allowed group_by users.last_name: small last-name groups still suppressed", suppressedBelowK, byLastName.get("status"));
        String someone = (String) sql("SELECT last_name FROM users WHERE id = 1").get(0).get(0);
        Map<String, Object> eq = metric(Map.of("name", "users_count", "filters", List.of(filter("users.last_name", "eq", someone))));
        held("allowance group_by does not allow eq on users.last_name", refused(eq, "contact"), eq);
        Map<String, Object> range = metric(Map.of("name", "users_count", "filters", List.of(filter("users.last_name", "gte", "M"))));
        held("allowance group_by does not allow a range on users.last_name", refused(range, "contact"), range);
        Map<String, Object> first = metric(Map.of("name", "users_count", "group_by", List.of("users.first_name")));
        held("allowance on last_name does not reach users.first_name", refused(first, "contact"), first);
        Cli.Result shown = Cli.run(dir, "--store", store.toString(), "policy", "show");
        assertEquals(0, shown.exitCode(), shown.stderr());
        assertTrue(shown.stdout().contains("main.users.last_name:") && shown.stdout().contains("allow:")
                && shown.stdout().contains("group_by"), "policy show lists the allowance: " + shown.stdout());
    }

    @Test
    void takingTheFloorOffAColumnNeedsTheForceFlag() throws Exception {
        Path copy = dir.resolve("floor/demo.db");
        Files.createDirectories(copy.getParent());
        Cli.Result index = Cli.run(copy.getParent(), "--store", copy.toString(), "index", "--source", "sqlite:" + demo);
        assertEquals(0, index.exitCode(), index.stderr());
        Cli.Result none = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "tag", "main.users.password_hash", "--none");
        held("policy tag password_hash --none without --force-pii-floor", none.exitCode() == 2
                && none.stderr().contains("--force-pii-floor") && !Files.exists(copy.resolveSibling("schemabrain/pii_policy.yaml")),
                none.stdout() + none.stderr());
        assertEquals(1, none.stderr().strip().lines().count(), "one sentence: " + none.stderr());
        Files.createDirectories(copy.resolveSibling("schemabrain"));
        Files.writeString(copy.resolveSibling("schemabrain/pii_policy.yaml"), "columns:\n  main.payments.card_number: {categories: [financial]}\n");
        Cli.Result apply = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "apply");
        held("policy apply taking payment_card off payments.card_number without --force-pii-floor",
                apply.exitCode() == 2 && apply.stderr().contains("payment_card"), apply.stdout() + apply.stderr());
        Cli.Result forced = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "apply", "--force-pii-floor");
        assertEquals(0, forced.exitCode(), forced.stderr());
        Cli.Result badAllow = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "tag", "main.users.role", "contact");
        assertEquals(0, badAllow.exitCode(), "an ordinary tag needs no force: " + badAllow.stderr());
        Files.writeString(copy.resolveSibling("schemabrain/pii_policy.yaml"),
                "columns:\n  main.users.email: {categories: [contact], allow: [group_by, peek]}\n");
        Cli.Result unknown = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "apply");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.stderr().contains("unknown allowance 'peek'"), unknown.stderr());
        Files.writeString(copy.resolveSibling("schemabrain/pii_policy.yaml"),
                "columns:\n  main.users.password_hash: {categories: [credential], allow: [group_by]}\n");
        Cli.Result floorAllow = Cli.run(copy.getParent(), "--store", copy.toString(), "policy", "apply");
        held("an allowance on a credential column is refused", floorAllow.exitCode() == 2
                && floorAllow.stderr().contains("always blocked"), floorAllow.stderr());
    }
}
