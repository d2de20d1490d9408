package dev.schemabrain.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditEntry;
import dev.schemabrain.audit.AuditRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

    static String drafts(List<DraftReview.Draft> drafts, List<DraftReview.Rejected> rejected, String reviewer, String csrf,
                         String notice) {
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
        rejected(b, rejected, csrf);
        return Html.page("Drafts to review", true, b.toString());
    }

    /** The metrics reviewers rejected: kept so no index drafts them again, never served, each restorable. */
    private static void rejected(StringBuilder b, List<DraftReview.Rejected> rejected, String csrf) {
        b.append("<section class=\"metric\" aria-labelledby=\"rejected\"><h2 id=\"rejected\">Rejected</h2>");
        if (rejected.isEmpty()) {
            b.append("<p>No metric is rejected.</p></section>");
            return;
        }
        b.append("<p>No agent gets these metrics and no index drafts them again. Restoring one makes it a draft to review"
                + " again.</p><table><caption>Rejected metrics</caption><thead><tr><th scope=\"col\">Metric</th>"
                + "<th scope=\"col\">Rejected by</th><th scope=\"col\">When</th><th scope=\"col\"></th></tr></thead><tbody>");
        for (DraftReview.Rejected r : rejected) {
            String name = r.metric().name();
            b.append("<tr><td id=\"r-").append(esc(name)).append("\">").append(esc(name)).append("</td><td>")
                    .append(esc(r.review() == null ? "" : r.review().by())).append("</td><td>")
                    .append(esc(r.review() == null ? "" : r.review().at())).append("</td><td>");
            form(b, "restore", csrf, name);
            b.append("<button type=\"submit\">Restore ").append(esc(name)).append("</button></form></td></tr>");
        }
        b.append("</tbody></table></section>");
    }

    /** A form's opening: posted to {@code action} with the session's token and the metric's name. */
    private static void form(StringBuilder b, String action, String csrf, String metric) {
        b.append("<form method=\"post\" action=\"").append(action).append("\" style=\"display:inline\">")
                .append("<input type=\"hidden\" name=\"csrf\" value=\"").append(esc(csrf)).append("\">")
                .append("<input type=\"hidden\" name=\"metric\" value=\"").append(esc(metric)).append("\">");
    }

    /**
     * The edit form: every value of the status column's domain as a checkbox, the currencies and the date columns as
     * radio buttons, {@code shown} ticked. Preview recomputes the answer without saving; the other button approves the
     * metric with what is ticked.
     */
    private static void editForm(StringBuilder b, String name, DraftReview.Choices choices, DraftReview.Edit shown,
                                 String csrf) {
        form(b, "preview", csrf, name);
        choices.statuses().ifPresent(st -> {
            b.append("<fieldset><legend>Count the rows of ").append(esc(name)).append(" whose ").append(esc(st.reference()))
                    .append(" is</legend>");
            st.values().forEach(v -> choice(b, "checkbox", "status", "s-" + name + "-" + v, v, v, shown.statuses().contains(v)));
            b.append("</fieldset>");
        });
        choices.currency().ifPresent(c -> {
            b.append("<fieldset><legend>Amounts in ").append(esc(c.reference())).append("</legend>");
            choice(b, "radio", "currency", "c-" + name + "-", "", "per currency (each currency its own row)",
                    shown.currency().isEmpty());
            c.values().forEach(v -> choice(b, "radio", "currency", "c-" + name + "-" + v, v, "only " + v,
                    shown.currency().filter(v::equals).isPresent()));
            b.append("</fieldset>");
        });
        choices.timeAxis().ifPresent(t -> {
            b.append("<fieldset><legend>Date its rows by</legend>");
            String dated = shown.timeAxis().orElse(t.dated());
            t.references().forEach(r -> choice(b, "radio", "time_axis", "t-" + name + "-" + r, r, r, r.equals(dated)));
            b.append("</fieldset>");
        });
        b.append("<button type=\"submit\">Preview</button>")
                .append("<button type=\"submit\" formaction=\"approve-edit\">Approve ").append(esc(name))
                .append(" with this edit</button></form>");
    }

    private static void choice(StringBuilder b, String type, String field, String id, String value, String label,
                               boolean checked) {
        b.append("<label for=\"").append(esc(id)).append("\"><input type=\"").append(type).append("\" id=\"").append(esc(id))
                .append("\" name=\"").append(field).append("\" value=\"").append(esc(value)).append('"')
                .append(checked ? " checked" : "").append("> ").append(esc(label)).append("</label> ");
    }

    /** What an edit chooses, in words: "counting paid, void; only EUR; dated by invoice.issued_at". */
    static String describe(DraftReview.Edit e) {
        List<String> parts = new ArrayList<>();
        if (!e.statuses().isEmpty()) {
            parts.add("counting " + String.join(", ", e.statuses()));
        }
        e.currency().ifPresent(c -> parts.add("only " + c));
        e.timeAxis().ifPresent(t -> parts.add("dated by " + t));
        return parts.isEmpty() ? "as it was" : String.join("; ", parts);
    }

    /** A draft's answer now beside its answer with the reviewer's edit; nothing is saved until approved. */
    static String preview(DraftReview.Comparison c, String csrf) {
        String name = c.before().metric().name();
        DraftReview.Choices choices = c.before().choices();
        StringBuilder b = new StringBuilder();
        b.append("<p role=\"status\">Nothing is saved yet. Now: ").append(esc(describe(choices.current())))
                .append(". With your edit: ").append(esc(describe(DraftReview.saved(choices, c.edit())))).append(".</p>");
        b.append("<h2>").append(esc(name)).append(' ').append(esc(c.after().period())).append("</h2>");
        List<String> errors = new ArrayList<>();
        for (DraftReview.Draft d : List.of(c.before(), c.after())) {
            JsonNode error = d.answer().path("error");
            if (!error.isMissingNode() && !error.isNull()) {
                errors.add("get_metric answered " + error.path("kind").asText() + ": " + error.path("message").asText());
            }
        }
        if (!errors.isEmpty()) {
            errors.forEach(e -> b.append("<p class=\"refused\">").append(esc(e)).append("</p>"));
        } else {
            sideBySide(b, name, c.before().answer().path("data"), c.after().answer().path("data"));
        }
        JsonNode after = c.after().answer().path("data");
        if (after.has("sql")) {
            b.append("<h3>Compiled SQL with your edit</h3><pre><code>").append(esc(after.path("sql").asText()))
                    .append("</code></pre>");
            if (!after.path("params").isEmpty()) {
                b.append("<p class=\"note\">Bound values, in order: ").append(esc(String.join(", ", texts(after.path("params")))))
                        .append("</p>");
            }
        }
        b.append("<h3>Edit its definition</h3>");
        editForm(b, name, choices, c.edit(), csrf);
        return Html.page("Preview of " + name, true, b.toString());
    }


    /**
     * Both answers in one table: the same rows (by every column but the value), the value now and with the edit. An
     * edit that changes the answer's columns (one currency instead of a row per currency) gets two tables.
     */
    private static void sideBySide(StringBuilder b, String name, JsonNode before, JsonNode after) {
        List<String> columns = texts(before.path("columns"));
        if (!texts(after.path("columns")).equals(columns)) {
            b.append("<h3>Now</h3>");
            answer(b, name, "now", before);
            b.append("<h3>With your edit</h3><div id=\"edited\">");
            answer(b, name, "with your edit", after);
            b.append("</div>");
            return;
        }
        if (columns.isEmpty()) {
            b.append("<p>No rows.</p>");
            return;
        }
        List<String> keys = columns.subList(0, columns.size() - 1);
        String value = columns.get(columns.size() - 1);
        Map<List<String>, String[]> rows = new LinkedHashMap<>();
        for (int side = 0; side < 2; side++) {
            for (JsonNode r : (side == 0 ? before : after).path("rows")) {
                List<String> key = keys.stream().map(k -> r.path(k).isNull() ? "" : r.path(k).asText()).toList();
                rows.computeIfAbsent(key, k -> new String[2])[side] = r.path(value).isNull() ? "" : r.path(value).asText();
            }
        }
        b.append("<table class=\"compare\"><caption>").append(esc(name))
                .append(": now and with your edit</caption><thead><tr>");
        keys.forEach(k -> b.append("<th scope=\"col\">").append(esc(k)).append("</th>"));
        b.append("<th scope=\"col\">Now</th><th scope=\"col\">With your edit</th></tr></thead><tbody>");
        rows.forEach((key, v) -> {
            b.append("<tr>");
            key.forEach(k -> b.append("<td>").append(esc(k)).append("</td>"));
            b.append("<td>").append(esc(v[0] == null ? "" : v[0])).append("</td><td>").append(esc(v[1] == null ? "" : v[1]))
                    .append("</td></tr>");
        });
        b.append("</tbody></table>");
        if (before.path("suppressed_groups").asInt(0) > 0 || after.path("suppressed_groups").asInt(0) > 0) {
            b.append("<p class=\"note\">Groups about too few people are left out of either answer.</p>");
        }
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
            b.append("<details class=\"assumptions\"><summary>Its assumptions, one by one</summary><dl>");
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
            b.append("</dl></details>");
        }
        b.append("<h3>Its answer ").append(esc(d.period())).append("</h3>");
        JsonNode error = d.answer().path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            b.append("<p class=\"refused\">get_metric answered ").append(esc(error.path("kind").asText())).append(": ")
                    .append(esc(error.path("message").asText())).append("</p>");
        } else {
            answer(b, name, d.period(), data);
        }
        // Folded: open, the 24 drafts of the demo made a page 44,000 pixels tall.
        if (data.has("sql")) {
            b.append("<details class=\"sql\"><summary>Compiled SQL</summary><pre><code>").append(esc(data.path("sql").asText()))
                    .append("</code></pre>");
            if (!data.path("params").isEmpty()) {
                b.append("<p class=\"note\">Bound values, in order: ").append(esc(String.join(", ", texts(data.path("params")))))
                        .append("</p>");
            }
            b.append("</details>");
        }
        if (d.choices().any()) {
            b.append("<details class=\"edit\"><summary>Edit its definition (").append(esc(editable(d.choices())))
                    .append(")</summary>");
            editForm(b, name, d.choices(), d.choices().current(), csrf);
            b.append("</details>");
        }
        b.append("<h3>Verdict</h3>");
        for (String verdict : List.of("approve", "reject")) {
            form(b, verdict, csrf, name);
            b.append("<button type=\"submit\">").append(verdict.equals("approve") ? "Approve " : "Reject ")
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
            boolean charted = false;
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
                String chart = SvgChart.bars(name + " " + period, bars);
                b.append(chart);
                charted = !chart.isEmpty();
            }
            // Folded beside a chart; open when the table is all there is to read.
            b.append("<details class=\"rows\"").append(charted ? "" : " open").append("><summary>The answer's ").append(rows.size()).append(" row")
                    .append(rows.size() == 1 ? "" : "s").append(" as a table</summary>")
                    .append("<table><caption>").append(esc(name)).append(' ').append(esc(period)).append("</caption><thead><tr>");
            columns.forEach(c -> b.append("<th scope=\"col\">").append(esc(c)).append("</th>"));
            b.append("</tr></thead><tbody>");
            for (JsonNode r : rows) {
                b.append("<tr>");
                columns.forEach(c -> b.append("<td>").append(esc(r.path(c).isNull() ? "" : r.path(c).asText())).append("</td>"));
                b.append("</tr>");
            }
            b.append("</tbody></table></details>");
        }
        if (data.path("suppressed_groups").asInt(0) > 0) {
            b.append("<p class=\"note\">").append(data.path("suppressed_groups").asInt())
                    .append(" group(s) about too few people are left out.</p>");
        }
    }

    /** What the edit form offers, in words: "statuses, currency, time axis". */
    private static String editable(DraftReview.Choices c) {
        List<String> parts = new ArrayList<>();
        c.statuses().ifPresent(x -> parts.add("statuses"));
        c.currency().ifPresent(x -> parts.add("currency"));
        c.timeAxis().ifPresent(x -> parts.add("time axis"));
        return String.join(", ", parts);
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
        perDay(b, view.rows());
        b.append("<table id=\"calls\"><caption>The newest calls, newest first").append(caller.map(c -> ", of " + esc(c)).orElse(""))
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

    /** Calls and refusals (an error kind) per day of the rows shown, oldest first: a chart and the table it draws. */
    private static void perDay(StringBuilder b, List<AuditRecord> rows) {
        TreeMap<String, long[]> days = new TreeMap<>();
        for (AuditRecord r : rows) {
            long[] n = days.computeIfAbsent(r.occurredAt().substring(0, Math.min(10, r.occurredAt().length())), d -> new long[2]);
            n[0]++;
            n[1] += r.entry().errorKind() == null ? 0 : 1;
        }
        if (days.isEmpty()) {
            return;
        }
        List<SvgChart.Split> bars = new ArrayList<>();
        days.forEach((day, n) -> bars.add(new SvgChart.Split(day, n[0], n[1])));
        b.append("<h2>Calls and refusals by day</h2>").append(SvgChart.split("Calls (blue) and refusals (red) by day", bars))
                .append("<table id=\"per-day\"><caption>Calls and refusals by day, of the rows below</caption><thead><tr>"
                        + "<th scope=\"col\">Day</th><th scope=\"col\">Calls</th><th scope=\"col\">Refused</th></tr></thead><tbody>");
        bars.forEach(x -> b.append("<tr><th scope=\"row\">").append(esc(x.label())).append("</th><td>").append(x.whole())
                .append("</td><td>").append(x.part()).append("</td></tr>"));
        b.append("</tbody></table>");
    }

}
