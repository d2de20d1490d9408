package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.pii.PiiTags;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.schemabrain.console.Html.esc;

/**
 * The console's pages as HTML; every value from the store, the chain or an answer goes through {@link Html#esc}. Links
 * and form actions are relative ({@code audit}, {@code ./}), never absolute, so the pages work wherever the console is
 * mounted: at the root on loopback, under {@code /console/} beside /mcp.
 */
final class Pages {

    private Pages() {
    }

    static String login(String sentence) {
        return Html.page("Sign in", false, (sentence == null ? "" : "<p class=\"refused\" role=\"alert\">" + esc(sentence) + "</p>")
                + "<p>Paste the one-time token that <code>schemabrain console</code> printed. It works once: the console then"
                + " keeps you signed in with a cookie.</p><form method=\"post\" action=\"login\"><label for=\"token\">Token</label> "
                + "<input id=\"token\" name=\"token\" type=\"password\" autocomplete=\"off\" required> "
                + "<button type=\"submit\">Sign in</button></form>");
    }

    /** A team's sign-in: the caller's own credential, sent in the form's body (never in the address). */
    static String teamLogin(String sentence) {
        return Html.page("Sign in", false, (sentence == null ? "" : "<p class=\"refused\" role=\"alert\">" + esc(sentence) + "</p>")
                + "<p>Paste the credential you call the MCP server with: a token from <code>schemabrain token create</code>"
                + " or an access token from your authorization server. Only a role the access policy marks"
                + " <code>reviewer: true</code> may review; your verdicts are recorded under the identity it names.</p>"
                + "<form method=\"post\" action=\"login\"><label for=\"credential\">Credential</label> "
                + "<input id=\"credential\" name=\"credential\" type=\"password\" autocomplete=\"off\" required> "
                + "<button type=\"submit\">Sign in</button></form>");
    }

    static String message(String title, String sentence) {
        return Html.page(title, true, "<p role=\"alert\">" + esc(sentence) + "</p><p><a href=\"./\">Back to the drafts</a></p>");
    }

    static String drafts(List<DraftReview.Draft> drafts, String reviewer, String csrf, String notice) {
        StringBuilder b = new StringBuilder();
        if (notice != null) {
            b.append("<p role=\"status\">").append(esc(notice)).append("</p>");
        }
        b.append("<p>Signed in as ").append(esc(reviewer)).append(". Each metric below is a draft nobody has reviewed:"
                + " read what it counts, its number and its SQL, then approve or reject it. A verdict is written into the store"
                + " and the audit chain under your name.</p>");
        if (drafts.isEmpty()) {
            b.append("<p>No drafts wait for review.</p>");
        } else {
            b.append("<p>").append(drafts.size()).append(" draft").append(drafts.size() == 1 ? "" : "s").append(" to review.</p>");
        }
        for (DraftReview.Draft d : drafts) {
            metric(b, d, csrf);
        }
        return Html.page("Drafts to review", true, b.toString());
    }

    private static void metric(StringBuilder b, DraftReview.Draft d, String csrf) {
        String name = d.metric().name();
        String id = "m-" + name;
        JsonNode data = d.answer().path("data");
        JsonNode assumptions = data.path("assumptions");
        b.append("<section class=\"metric\" aria-labelledby=\"").append(esc(id)).append("\"><h2 id=\"").append(esc(id))
                .append("\">").append(esc(name)).append("</h2>");
        if (d.metric().description() != null && !d.metric().description().isBlank()) {
            b.append("<p>").append(esc(d.metric().description())).append("</p>");
        }
        if (assumptions.has("sentence")) {
            b.append("<h3>In plain words</h3><p>").append(esc(assumptions.path("sentence").asText())).append("</p>");
            b.append("<h3>Assumptions</h3><dl>");
            item(b, "Definition", List.of(assumptions.path("definition").asText()));
            item(b, "Statuses counted", texts(assumptions.path("statuses")));
            item(b, "Rows its definition keeps", texts(assumptions.path("counted")));
            item(b, "Default segments applied", texts(assumptions.path("segments_applied")));
            item(b, "Currency", assumptions.has("currency") ? List.of(assumptions.path("currency").asText()) : List.of());
            List<String> axes = new ArrayList<>();
            assumptions.path("time_axes").forEach(t -> axes.add(t.path("metric").asText() + " is dated by " + t.path("dated_by").asText()));
            item(b, "Time axis", axes);
            item(b, "Related rows", assumptions.has("related_rows") ? List.of(assumptions.path("related_rows").asText()) : List.of());
            item(b, "Small groups left out", assumptions.has("suppression") ? List.of(assumptions.path("suppression").asText()) : List.of());
            b.append("</dl>");
        }
        b.append("<h3>Its answer ").append(esc(d.period())).append("</h3>");
        JsonNode error = d.answer().path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            b.append("<p class=\"refused\">get_metric answered ").append(esc(error.path("kind").asText())).append(": ")
                    .append(esc(error.path("message").asText())).append("</p>");
        } else {
            answer(b, name, d.period(), data);
        }
        if (data.has("sql")) {
            b.append("<h3>Compiled SQL</h3><pre><code>").append(esc(data.path("sql").asText())).append("</code></pre>");
            if (!data.path("params").isEmpty()) {
                b.append("<p class=\"note\">Bound values, in order: ").append(esc(String.join(", ", texts(data.path("params")))))
                        .append("</p>");
            }
        }
        for (String verdict : List.of("approve", "reject")) {
            b.append("<form method=\"post\" action=\"").append(verdict).append("\" style=\"display:inline\">")
                    .append("<input type=\"hidden\" name=\"csrf\" value=\"").append(esc(csrf)).append("\">")
                    .append("<input type=\"hidden\" name=\"metric\" value=\"").append(esc(name)).append("\">")
                    .append("<button type=\"submit\">").append(verdict.equals("approve") ? "Approve " : "Reject ")
                    .append(esc(name)).append("</button></form>");
        }
        b.append("</section>");
    }

    /** The rows as a table, and as a bar chart when they are one value per time bucket. */
    private static void answer(StringBuilder b, String name, String period, JsonNode data) {
        List<String> columns = texts(data.path("columns"));
        JsonNode rows = data.path("rows");
        if (rows.isEmpty()) {
            b.append("<p>No rows.</p>");
        } else {
            if (columns.size() == 2) {
                List<SvgChart.Bar> bars = new ArrayList<>();
                for (JsonNode r : rows) {
                    JsonNode v = r.path(columns.get(1));
                    if (!v.isNumber()) {
                        bars.clear();
                        break;
                    }
                    bars.add(new SvgChart.Bar(r.path(columns.get(0)).asText(), v.asDouble()));
                }
                b.append(SvgChart.bars(name + " " + period, bars));
            }
            b.append("<table><caption>").append(esc(name)).append(' ').append(esc(period)).append("</caption><thead><tr>");
            columns.forEach(c -> b.append("<th scope=\"col\">").append(esc(c)).append("</th>"));
            b.append("</tr></thead><tbody>");
            for (JsonNode r : rows) {
                b.append("<tr>");
                columns.forEach(c -> b.append("<td>").append(esc(r.path(c).isNull() ? "" : r.path(c).asText())).append("</td>"));
                b.append("</tr>");
            }
            b.append("</tbody></table>");
        }
        if (data.path("suppressed_groups").asInt(0) > 0) {
            b.append("<p class=\"note\">").append(data.path("suppressed_groups").asInt())
                    .append(" group(s) about too few people are left out.</p>");
        }
    }

    private static void item(StringBuilder b, String term, List<String> values) {
        b.append("<dt>").append(esc(term)).append("</dt>");
        if (values.isEmpty() || values.stream().allMatch(String::isBlank)) {
            b.append("<dd>none</dd>");
        }
        values.stream().filter(v -> !v.isBlank()).forEach(v -> b.append("<dd>").append(esc(v)).append("</dd>"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    static String audit(AuditTimeline.View view, Optional<String> caller) {
        StringBuilder b = new StringBuilder();
        b.append(view.verified().intact()
                ? "<p role=\"status\">Chain intact: " + view.verified().rowsChecked() + " rows verified.</p>"
                : "<p class=\"refused\" role=\"alert\">Chain broken: " + esc(view.verified().problem()) + "</p>");
        b.append("<form method=\"get\" action=\"audit\"><label for=\"caller\">Caller</label> <select id=\"caller\" name=\"caller\">"
                + "<option value=\"\">every caller</option>");
        for (String c : view.callers()) {
            b.append("<option").append(caller.filter(c::equals).isPresent() ? " selected" : "").append(" value=\"")
                    .append(esc(c)).append("\">").append(esc(c.isEmpty() ? "(none)" : c)).append("</option>");
        }
        b.append("</select> <button type=\"submit\">Show</button></form>");
        b.append("<table><caption>The newest calls, newest first").append(caller.map(c -> ", of " + esc(c)).orElse(""))
                .append("</caption><thead><tr><th scope=\"col\">Row</th><th scope=\"col\">When</th><th scope=\"col\">Caller</th>"
                        + "<th scope=\"col\">Tool</th><th scope=\"col\">Outcome</th><th scope=\"col\">Refusal reasons</th>"
                        + "<th scope=\"col\">Role</th></tr></thead><tbody>");
        for (AuditRecord r : view.rows()) {
            AuditEntry e = r.entry();
            List<String> reasons = new ArrayList<>();
            if (e.errorKind() != null) {
                reasons.add(e.errorKind());
            }
            if (e.errorKind() != null && !e.piiCategories().isEmpty()) {
                reasons.add("PII: " + String.join(", ", e.piiCategories()));
            }
            b.append("<tr><td>").append(r.id()).append("</td><td>").append(esc(r.occurredAt())).append("</td><td>")
                    .append(esc(e.caller() == null ? "" : e.caller())).append("</td><td>").append(esc(e.tool()))
                    .append(e.phase() == AuditEntry.Phase.CALL ? "" : " (" + e.phase().wireName() + ")").append("</td><td>")
                    .append(esc(e.status())).append("</td><td>").append(esc(String.join("; ", reasons))).append("</td><td>")
                    .append(esc(e.role() == null ? "" : e.role())).append("</td></tr>");
        }
        b.append("</tbody></table>");
        return Html.page("Audit", true, b.toString());
    }

    /** Tags and their evidence only: the console never reads a column's values. */
    static String pii(List<PiiTags.Entry> tagged, BlockList blocked) {
        StringBuilder b = new StringBuilder("<p>Every column tagged as personal or sensitive, with why. Blocked categories"
                + " never reach an answer: " + esc(String.join(", ", blocked.names())) + ". Changing a tag is done with"
                + " <code>schemabrain policy</code> in this version.</p>");
        b.append("<table><caption>Tagged columns</caption><thead><tr><th scope=\"col\">Column</th><th scope=\"col\">Sensitivity</th>"
                + "<th scope=\"col\">Categories</th><th scope=\"col\">Blocked</th><th scope=\"col\">Tagged by</th>"
                + "<th scope=\"col\">Evidence</th></tr></thead><tbody>");
        for (PiiTags.Entry e : tagged.stream().sorted(java.util.Comparator.comparing(PiiTags.Entry::qualifiedColumn)).toList()) {
            boolean isBlocked = e.tag().categories().stream().anyMatch(blocked::blocks);
            b.append("<tr><td>").append(esc(e.qualifiedColumn())).append("</td><td>").append(esc(e.tag().sensitivity().wireName()))
                    .append("</td><td>").append(esc(String.join(", ", e.tag().categoryNames()))).append("</td><td>")
                    .append(isBlocked ? "yes" : "no").append("</td><td>").append(esc(e.origin().wireName())).append("</td><td>")
                    .append(esc(String.join("; ", e.tag().reasons()))).append("</td></tr>");
        }
        return Html.page("PII", true, b.append("</tbody></table>").toString());
    }

}
