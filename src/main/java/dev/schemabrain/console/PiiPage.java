package dev.schemabrain.console;

import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.SubjectClass;

import java.util.List;
import java.util.Set;

import static dev.schemabrain.console.Html.esc;

/** The PII page: tags and their evidence, every entity's data subject, and a form per change. Never a value. */
final class PiiPage {

    private PiiPage() {
    }

    /**
     * @param notice what the last change did, or null
     * @param refused whether {@code notice} is a refusal
     */
    static String render(PiiReview.View view, String csrf, String notice, boolean refused) {
        StringBuilder b = new StringBuilder();
        if (notice != null) {
            b.append(refused ? "<p class=\"refused\" role=\"alert\">" : "<p role=\"status\">").append(esc(notice)).append("</p>");
        }
        b.append("<p>Every column tagged as personal or sensitive, with why, and every entity's data subject. Blocked"
                + " categories never reach an answer: ").append(esc(String.join(", ", view.block().names())))
                .append(". Each change is written to <code>").append(esc(view.file()))
                .append("</code> as <code>schemabrain policy tag</code> writes it, applied at once, and recorded in the audit"
                        + " chain under your name. No value of any column is shown here.</p>");
        columns(b, view.tagged(), view, csrf);
        untagged(b, view, csrf);
        subjects(b, view.subjects(), csrf);
        return Html.page("PII and data subjects", true, b.toString());
    }

    private static void columns(StringBuilder b, List<PiiTags.Entry> tagged, PiiReview.View view, String csrf) {
        b.append("<h2 id=\"columns\">Tagged columns</h2>");
        if (tagged.isEmpty()) {
            b.append("<p>No column is tagged: nothing looked like PII when the store was indexed.</p>");
            return;
        }
        head(b, "columns", "Column", "Sensitivity", "Categories", "Blocked", "Tagged by", "Evidence", "Change");
        for (PiiTags.Entry e : tagged) {
            String column = e.qualifiedColumn();
            boolean blocked = e.tag().categories().stream().anyMatch(view.block()::blocks);
            b.append("<tr><th scope=\"row\">").append(esc(column)).append("</th><td>").append(esc(e.tag().sensitivity().wireName()))
                    .append("</td><td>").append(esc(String.join(", ", e.tag().categoryNames()))).append("</td><td>")
                    .append(blocked ? "yes" : "no").append("</td><td>").append(esc(e.origin().wireName())).append("</td><td>")
                    .append(esc(evidence(e, view))).append("</td><td>");
            form(b, "pii-confirm", csrf, "column", column, "Confirm");
            form(b, "pii-untag", csrf, "column", column, "Untag");
            retag(b, column, e.tag().categories(), csrf);
            b.append("</td></tr>");
        }
        b.append("</tbody></table>");
    }

    /** The rules that fired; for the operator's tag, also what the classifier had found. */
    private static String evidence(PiiTags.Entry e, PiiReview.View view) {
        List<String> found = view.classifier().getOrDefault(e.qualifiedColumn(), List.of());
        if (e.origin() == PiiTags.Origin.HEURISTIC) {
            return String.join("; ", e.tag().reasons());
        }
        return "set in the policy file" + (found.isEmpty() ? "; the classifier found nothing"
                : "; the classifier had found " + String.join("; ", found));
    }

    /** The operator's "not PII" columns, so an untag can be undone here. */
    private static void untagged(StringBuilder b, PiiReview.View view, String csrf) {
        if (view.untagged().isEmpty()) {
            return;
        }
        b.append("<h2 id=\"untagged\">Marked as holding no PII</h2>");
        head(b, "untagged", "Column", "Evidence", "Change");
        for (PiiTags.Entry e : view.untagged()) {
            b.append("<tr><th scope=\"row\">").append(esc(e.qualifiedColumn())).append("</th><td>").append(esc(evidence(e, view)))
                    .append("</td><td>");
            retag(b, e.qualifiedColumn(), Set.of(), csrf);
            b.append("</td></tr>");
        }
        b.append("</tbody></table>");
    }

    private static void retag(StringBuilder b, String column, Set<PiiCategory> now, String csrf) {
        open(b, "pii-retag", csrf, "column", column);
        b.append("<label>Retag ").append(esc(column)).append(" as <select name=\"category\">");
        for (PiiCategory c : PiiCategory.values()) {
            b.append("<option value=\"").append(c.wireName()).append('"').append(now.contains(c) ? " selected" : "").append('>')
                    .append(c.wireName()).append("</option>");
        }
        b.append("</select></label> <button type=\"submit\" aria-label=\"Retag ").append(esc(column)).append("\">Retag</button></form>");
    }

    private static void subjects(StringBuilder b, List<PiiReview.Subject> subjects, String csrf) {
        b.append("<h2 id=\"subjects\">Data subjects</h2><p>Whose rows each entity holds: small groups are counted in"
                + " persons, so a fact is suppressed by how few people it is about.</p>");
        if (subjects.isEmpty()) {
            b.append("<p>The semantic layer has no entities yet.</p>");
            return;
        }
        head(b, "subjects", "Entity", "Table", "Subject", "Set by", "Why", "Rows are about", "Change");
        for (PiiReview.Subject s : subjects) {
            String entity = s.assigned().entity();
            b.append("<tr><th scope=\"row\">").append(esc(entity)).append("</th><td>").append(esc(s.assigned().table()))
                    .append("</td><td>").append(esc(s.assigned().subjectClass().wireName())).append("</td><td>")
                    .append(esc(s.assigned().origin())).append("</td><td>").append(esc(s.assigned().evidence()))
                    .append("</td><td>").append(esc(s.about().orElse(""))).append("</td><td>");
            open(b, "pii-subject", csrf, "entity", entity);
            b.append("<label>Subject of ").append(esc(entity)).append(" <select name=\"subject\">");
            for (SubjectClass c : SubjectClass.values()) {
                b.append("<option value=\"").append(c.wireName()).append('"')
                        .append(c == s.assigned().subjectClass() ? " selected" : "").append('>').append(c.wireName()).append("</option>");
            }
            b.append("</select></label> <button type=\"submit\" aria-label=\"Set the subject of ").append(esc(entity))
                    .append("\">Set</button></form></td></tr>");
        }
        b.append("</tbody></table>");
    }

    /** A table's opening, labelled by the heading {@code id}, with its column headings. */
    private static void head(StringBuilder b, String id, String... columns) {
        b.append("<table aria-labelledby=\"").append(id).append("\"><thead><tr>");
        for (String c : columns) {
            b.append("<th scope=\"col\">").append(esc(c)).append("</th>");
        }
        b.append("</tr></thead><tbody>");
    }

    private static void form(StringBuilder b, String action, String csrf, String name, String value, String button) {
        open(b, action, csrf, name, value);
        b.append("<button type=\"submit\" aria-label=\"").append(esc(button + " " + value)).append("\">").append(esc(button))
                .append("</button></form> ");
    }

    private static void open(StringBuilder b, String action, String csrf, String name, String value) {
        b.append("<form method=\"post\" action=\"").append(action).append("\" style=\"display:inline\">")
                .append("<input type=\"hidden\" name=\"csrf\" value=\"").append(esc(csrf)).append("\">")
                .append("<input type=\"hidden\" name=\"").append(name).append("\" value=\"").append(esc(value)).append("\">");
    }
}
