package dev.schemabrain.console;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.pii.SubjectClass;
import dev.schemabrain.policy.PiiPolicyStore;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The PII and roles pages and the PII page's forms, for the servlet to hand over to once the session and the form
 * token are checked. A form with a missing or made-up field is refused with one sentence and changes nothing.
 */
final class PolicyRoutes {

    private final PiiReview pii;
    private final StoreLocation store;
    private final Optional<Path> accessPolicy;

    /** @param accessPolicy the file serve --access-policy reads; reread for every page, as serve rereads it */
    PolicyRoutes(PiiReview pii, StoreLocation store, Optional<Path> accessPolicy) {
        this.pii = pii;
        this.store = store;
        this.accessPolicy = accessPolicy;
    }

    void piiPage(HttpServletResponse response, String csrf) throws IOException, DraftReview.Refused {
        ConsoleRequests.html(response, 200, PiiPage.render(pii.view(), csrf, null, false));
    }

    void rolesPage(HttpServletResponse response) throws IOException {
        if (accessPolicy.isEmpty()) {
            ConsoleRequests.html(response, 200, RolesPage.unrestricted());
            return;
        }
        Path file = accessPolicy.get();
        AccessPolicy policy;
        Optional<PiiPolicyStore.Stored> stored;
        try {
            policy = AccessPolicyFile.read(file);
            stored = Stores.exists(store) ? Optional.of(PiiPolicyStore.read(store)) : Optional.empty();
        } catch (SchemaBrainException e) {
            ConsoleRequests.html(response, 200, RolesPage.unreadable(file, e.getMessage()));
            return;
        }
        ConsoleRequests.html(response, 200, RolesPage.render(file, policy, stored));
    }

    /** POST /pii-confirm, /pii-untag, /pii-retag or /pii-subject; answers the PII page with what was done. */
    void post(String path, HttpServletRequest request, HttpServletResponse response, String csrf, String reviewer)
            throws IOException, DraftReview.Refused {
        String column = field(request, "column");
        String entity = field(request, "entity");
        try {
            String done = switch (path) {
                case "/pii-confirm" -> {
                    PiiTags.Entry e = pii.confirm(reviewer, need(column, "column"));
                    yield "Confirmed " + e.qualifiedColumn() + " as " + String.join(", ", e.tag().categoryNames())
                            + ": it is now the operator's tag and survives every re-index.";
                }
                case "/pii-untag" -> {
                    PiiTags.Entry e = pii.untag(reviewer, need(column, "column"));
                    yield "Untagged " + e.qualifiedColumn() + ": it is served as holding no personal data.";
                }
                case "/pii-retag" -> {
                    PiiCategory category = category(field(request, "category"));
                    PiiTags.Entry e = pii.retag(reviewer, need(column, "column"), category);
                    yield "Retagged " + e.qualifiedColumn() + " as " + category.wireName() + ".";
                }
                case "/pii-subject" -> {
                    SubjectClass subject = subject(field(request, "subject"));
                    String name = need(entity, "entity");
                    pii.subject(reviewer, name, subject);
                    yield "Set the data subject of " + name + " to " + subject.wireName() + ".";
                }
                default -> throw new BadForm("There is no console form at this address.", HttpServletResponse.SC_NOT_FOUND);
            };
            ConsoleRequests.html(response, 200, PiiPage.render(pii.view(), csrf, done + " Written to " + pii.file()
                    + " and recorded in the audit chain under " + reviewer + ".", false));
        } catch (BadForm e) {
            ConsoleRequests.html(response, e.status, PiiPage.render(pii.view(), csrf, e.getMessage(), true));
        } catch (DraftReview.Refused e) {
            ConsoleRequests.html(response, HttpServletResponse.SC_CONFLICT, PiiPage.render(pii.view(), csrf, e.getMessage(), true));
        }
    }

    private static String field(HttpServletRequest request, String name) {
        String v = request.getParameter(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static String need(String value, String name) throws BadForm {
        if (value == null) {
            throw new BadForm("The form named no " + name + "; reload the page and use that " + name + "'s own button.",
                    HttpServletResponse.SC_BAD_REQUEST);
        }
        return value;
    }

    /** One of the known categories, else a refusal that names none of what was sent. */
    private static PiiCategory category(String name) throws BadForm {
        for (PiiCategory c : PiiCategory.values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        throw new BadForm("That is not a PII category; pick one of " + String.join(", ",
                Arrays.stream(PiiCategory.values()).map(PiiCategory::wireName).toList()) + ".", HttpServletResponse.SC_BAD_REQUEST);
    }

    private static SubjectClass subject(String name) throws BadForm {
        for (SubjectClass c : SubjectClass.values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        throw new BadForm("That is not a data-subject class; pick person, organisation or none.", HttpServletResponse.SC_BAD_REQUEST);
    }

    /** A form the page never sends: one sentence and its status. */
    private static final class BadForm extends Exception {
        private final int status;

        BadForm(String sentence, int status) {
            super(sentence, null, false, false);
            this.status = status;
        }
    }
}
