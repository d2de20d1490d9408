package dev.schemabrain.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditVerifier;
import dev.schemabrain.audit.VerifyResult;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.mcp.tools.ExampleQueries;
import dev.schemabrain.mcp.tools.GetMetricTool;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.server.AuditedCalls;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.store.StoreLocation;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The demo's one screen: what an agent gets, told by calling the same tool handlers {@code serve} dispatches to
 * (audited into the store's chain with the key serve uses), then verifying that chain. Nothing shown is canned:
 * every line is read from a tool's answer or from the verifier.
 */
public final class DemoStory {

    /** The caller name the demo's audit rows carry. */
    public static final String CALLER = "schemabrain demo";
    static final String QUESTION = "revenue from card payments by country";
    private static final int TOP = 3;
    private static final int WIDTH = 100;
    private static final String INDENT = "    ";

    /** What the story found, for a test to check against the tools' own answers. */
    public record Told(List<Envelope> answers, VerifyResult audit) {
    }

    private final PrintWriter out;

    public DemoStory(PrintWriter out) {
        this.out = out;
    }

    /**
     * Calls the tools on {@code store} (indexed from {@code source}), prints the story, and verifies the chain the calls
     * were recorded in. That chain is the demo's own, in {@code auditDir} under a one-time key: the store's chain stays
     * the one serve keeps, under the operator's key.
     */
    public Told tell(StoreLocation store, SourceUrl source, Path auditDir) throws SchemaBrainException {
        return tell(store, List.of(source), auditDir);
    }

    /** As {@link #tell(StoreLocation, SourceUrl, Path)} over every source of the store, each with its own connection. */
    public Told tell(StoreLocation store, List<SourceUrl> sources, Path auditDir) throws SchemaBrainException {
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(raw);
        AuditKey key = AuditKey.of(raw);
        Path chain = auditDir.resolve("demo-story.db");
        List<Envelope> answers = new ArrayList<>();
        try (AuditLog audit = AuditLog.open(chain, key, Optional.empty(), AuditDurability.EVERY_ROW);
             SourceExecutors executors = SourceExecutors.of(sources.stream()
                     .map(s -> new QueryExecutor(s, ExecutorSettings.defaults())).toList())) {
            ToolRegistry tools = StandardTools.registry(new StoreCatalogProvider(store, Optional.empty()), executors,
                    GetMetricTool.DEFAULT_MIN_GROUP_SIZE, ExampleQueries.NONE)
                    .audited(new AuditedCalls(audit, key, executors.only().map(QueryExecutor::sourceId).orElse(null)));
            answers.add(indexed(tools));
            answers.add(search(tools));
            answers.add(describe(tools));
            answers.add(join(tools));
            answers.add(metric(tools));
            answers.add(suppression(tools));
            answers.add(refusal(tools));
            if (sources.size() > 1) {
                answers.add(secondSource(tools));
                answers.add(acrossSources(tools));
            }
        }
        VerifyResult verified = AuditVerifier.verify(chain, new AuditVerifier.Options(Optional.of(key), Optional.empty(),
                Optional.empty(), OptionalLong.empty()));
        step("audit verify", "");
        line(verified.intact() ? "chain intact: " + verified.rowsChecked() + " keyed, hash-chained rows verified: every call"
                + " above, and one written before each query's SQL left (the demo's own chain; serve records into the store's)"
                : "chain BROKEN: " + verified.problem());
        return new Told(List.copyOf(answers), verified);
    }

    private Envelope indexed(ToolRegistry tools) {
        Envelope e = call(tools, "list_indexed_schemas", Map.of());
        step("list_indexed_schemas", "what was indexed");
        for (JsonNode s : e.data().path("schemas")) {
            int tables = s.path("tables").asInt();
            line(s.path("schema").asText() + ": " + tables + (tables == 1 ? " table, " : " tables, ") + s.path("columns").asInt()
                    + " columns" + (sources(e) > 1 ? " (source " + s.path("source_id").asText() + ")" : ""));
        }
        Envelope all = call(tools, "find_relevant_tables", Map.of("query", "*", "limit", 50));
        int pii = 0;
        List<String> redacted = new ArrayList<>();
        for (JsonNode hit : all.data().path("hits")) {
            for (JsonNode c : hit.path("pii_columns")) {
                pii++;
                if (c.path("redacted").asBoolean()) {
                    redacted.add(shortName(hit.path("qualified_name").asText()) + "." + c.path("column").asText());
                }
            }
        }
        // Both counts named: a list after the total alone read as if it were the total's columns.
        line(pii + " PII columns tagged (no sample of any was stored); " + redacted.size() + " of the " + pii
                + " are redacted and never aggregated: " + String.join(", ", redacted));
        return e;
    }

    /** How many databases the schemas listed come from. */
    private static long sources(Envelope e) {
        Set<String> ids = new HashSet<>();
        e.data().path("schemas").forEach(s -> ids.add(s.path("source_id").asText()));
        return ids.size();
    }

    private Envelope search(ToolRegistry tools) {
        Envelope e = call(tools, "find_relevant_tables", Map.of("query", QUESTION, "limit", 3));
        step("find_relevant_tables", "\"" + QUESTION + "\"");
        for (JsonNode hit : e.data().path("hits")) {
            line(String.format("%-22s %.2f  best column %s", hit.path("qualified_name").asText(), hit.path("score").asDouble(),
                    hit.path("best_column").asText()));
        }
        return e;
    }

    private Envelope describe(ToolRegistry tools) {
        Envelope e = call(tools, "describe_table", Map.of("qualified_name", "main.invoices"));
        step("describe_table", "main.invoices");
        line(e.data().path("description").asText());
        int shown = 0;
        for (JsonNode c : e.data().path("columns")) {
            if (!c.path("primary_key").asBoolean() && shown++ < 3) {
                line("  " + c.path("name").asText() + ": " + c.path("description").asText());
            }
        }
        return e;
    }

    private Envelope join(ToolRegistry tools) {
        Envelope e = call(tools, "suggest_joins", Map.of("tables", List.of("main.users", "main.invoices")));
        step("suggest_joins", "main.users to main.invoices");
        for (JsonNode path : e.data().path("paths")) {
            StringBuilder s = new StringBuilder(shortName(path.path("from").asText()));
            for (JsonNode step : path.path("steps")) {
                s.append(" -> ").append(shortName(step.path("to").asText())).append(" (")
                        .append(step.path("from_columns").path(0).asText()).append(" = ")
                        .append(step.path("to_columns").path(0).asText()).append(')');
            }
            line(s + "; " + path.path("hops").asInt() + " hops over declared foreign keys, confidence " + e.confidence());
        }
        return e;
    }

    private Envelope metric(ToolRegistry tools) {
        String metric = "invoices_total_cents_sum";
        Map<String, Object> args = Map.of("name", metric, "group_by", List.of("organizations.country"),
                "order_by", List.of(Map.of("column", metric, "direction", "desc")), "limit", TOP);
        Envelope e = call(tools, "get_metric", args);
        step("get_metric", metric + " by organizations.country, " + topOf(e));
        if (e.data() == null) {
            line(e.error().message());
            return e;
        }
        boolean cents = MinorUnits.inCents(metric);
        for (JsonNode row : e.data().path("rows")) {
            JsonNode value = row.path(metric);
            line(String.format("%-4s %s", row.path("organizations.country").asText(),
                    cents ? MinorUnits.label(value.asLong()) : value.asText()));
        }
        String sql = e.data().path("sql").asText();
        line("compiled to one read-only SELECT, values bound: " + (sql.length() > 120 ? sql.substring(0, 120) + " …" : sql));
        return e;
    }

    /**
     * "the top 3 of 10 groups": the question asked for the largest three, so three rows answer it whole. get_metric's
     * status says {@code partial} there (more groups exist than the limit let through), which is no caveat on this answer.
     */
    private static String topOf(Envelope e) {
        if (e.data() == null) {
            return "top " + TOP + " (" + e.status().wireName() + ")";
        }
        JsonNode total = e.data().path("total_groups");
        int rows = e.data().path("rows").size();
        return total.isNumber() && total.asInt() > rows ? "the top " + rows + " of " + total.asInt() + " countries"
                : "all " + rows + " countries";
    }

    /** Groups about too few people left out, with the reason the answer gives, as an agent sees it. */
    private Envelope suppression(ToolRegistry tools) {
        Envelope e = call(tools, "get_metric", Map.of("name", "users_count", "group_by", List.of("organizations.country")));
        step("get_metric", "users_count by organizations.country (" + e.status().wireName()
                + (e.degradationReason() == null ? "" : ", " + e.degradationReason().wireName()) + ")");
        if (e.data() == null) {
            line(e.error().message());
            return e;
        }
        StringBuilder shown = new StringBuilder();
        for (JsonNode row : e.data().path("rows")) {
            shown.append(shown.length() == 0 ? "" : ", ").append(row.path("organizations.country").asText()).append(' ')
                    .append(row.path("users_count").asText());
        }
        line(shown.toString());
        JsonNode about = e.data().path("suppression");
        if (!about.isMissingNode()) {
            line(about.path("suppressed_groups").asInt() + " group(s) left out, their keys unlisted: "
                    + about.path("widening_hint").asText());
        }
        return e;
    }

    private Envelope refusal(ToolRegistry tools) {
        Envelope e = call(tools, "get_metric", Map.of("name", "users_count", "group_by", List.of("users.email")));
        step("get_metric", "users_count by users.email (" + e.status().wireName()
                + (e.error() == null ? "" : ", " + e.error().kind().wireName()) + ")");
        if (e.error() != null) {
            line(e.error().message());
            if (e.error().recovery() != null && e.error().recovery().suggestedRewrite() != null) {
                line("recovery: " + e.error().recovery().suggestedRewrite());
            }
        }
        return e;
    }

    /** A metric of the second database, answered by its own engine through the same server. */
    private Envelope secondSource(ToolRegistry tools) {
        String metric = "feature_events_count";
        Envelope e = call(tools, "get_metric", Map.of("name", metric, "group_by", List.of("feature_events.platform")));
        step("get_metric", metric + " by feature_events.platform (the DuckDB database)");
        if (e.data() == null) {
            line(e.error().message());
            return e;
        }
        StringBuilder shown = new StringBuilder();
        for (JsonNode row : e.data().path("rows")) {
            shown.append(shown.length() == 0 ? "" : ", ").append(row.path("feature_events.platform").asText()).append(' ')
                    .append(row.path(metric).asText());
        }
        line(shown + "; run on DuckDB, the first answers on SQLite: one server, two databases");
        return e;
    }

    /** A statement over both databases: refused, since nothing joins across them. */
    private Envelope acrossSources(ToolRegistry tools) {
        Envelope e = call(tools, "execute", Map.of("sql", "SELECT o.name, count(*) AS events FROM main.organizations o"
                + " JOIN main.feature_events f ON f.organization_id = o.id GROUP BY o.name"));
        step("execute", "organizations joined to feature_events (" + e.status().wireName()
                + (e.error() == null ? "" : ", " + e.error().kind().wireName()) + ")");
        line(e.error() == null ? "answered" : e.error().message());
        return e;
    }

    private static Envelope call(ToolRegistry tools, String name, Map<String, Object> arguments) {
        return tools.call(name, arguments, CALLER);
    }

    private static String shortName(String qualified) {
        return qualified.substring(qualified.indexOf('.') + 1);
    }

    private void step(String tool, String what) {
        out.println();
        out.println(what.isEmpty() ? tool : tool + "  " + what);
    }

    /** One indented paragraph, wrapped at the screen's width (never cut: a refusal's recovery is the point). */
    private void line(String text) {
        String rest = INDENT + text;
        String continuation = INDENT + "  " + text.substring(0, text.length() - text.stripLeading().length());
        while (rest.length() > WIDTH) {
            int cut = rest.lastIndexOf(' ', WIDTH);
            if (cut <= continuation.length()) {
                cut = WIDTH;
            }
            out.println(rest.substring(0, cut));
            rest = continuation + rest.substring(cut).stripLeading();
        }
        out.println(rest);
    }
}
