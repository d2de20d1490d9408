package dev.schemabrain.console;

import dev.schemabrain.mcp.tools.CatalogProvider;
import dev.schemabrain.semantic.model.MetricReview;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The console's routes. Every request passes the Host/Origin check; every route but /login needs a session; every
 * POST but /login needs the session's form token. Failures are one sentence, never a stack trace.
 */
final class ConsoleServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServlet.class);

    private final transient ConsoleSessions sessions;
    private final transient DraftReview review;
    private final transient AuditTimeline audit;
    private final transient CatalogProvider catalogs;
    private final transient PolicyRoutes policies;

    ConsoleServlet(ConsoleSessions sessions, DraftReview review, AuditTimeline audit, CatalogProvider catalogs,
                   PolicyRoutes policies) {
        this.sessions = sessions;
        this.review = review;
        this.audit = audit;
        this.catalogs = catalogs;
        this.policies = policies;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            route(request, response);
        } catch (DraftReview.Refused e) {
            ConsoleRequests.html(response, HttpServletResponse.SC_CONFLICT, Pages.message("Not done", e.getMessage()));
        } catch (Exception e) {
            // The path only: a query string may hold the login token, which is never logged.
            LOG.warn("console {} {} failed", request.getMethod(), request.getRequestURI(), e);
            if (!response.isCommitted()) {
                ConsoleRequests.html(response, HttpServletResponse.SC_INTERNAL_SERVER_ERROR, Pages.message("Something failed",
                        "The console could not answer this (" + e.getClass().getSimpleName() + "); its log says more."));
            }
        }
    }

    private void route(HttpServletRequest request, HttpServletResponse response) throws Exception {
        Optional<String> refused = ConsoleRequests.hostOrOriginRefusal(request);
        if (refused.isPresent()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.message("Refused", refused.get()));
            return;
        }
        String path = request.getRequestURI();
        String method = request.getMethod();
        if (path.equals("/login")) {
            login(request, response, method);
            return;
        }
        Optional<ConsoleSessions.Session> session = ConsoleRequests.sessionId(request).flatMap(sessions::find);
        if (session.isEmpty()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_UNAUTHORIZED,
                    Pages.login("Sign in first: this page needs the token schemabrain console printed."));
            return;
        }
        if (method.equals("POST")) {
            if (!ConsoleSessions.csrfMatches(session.get(), request.getParameter("csrf"))) {
                ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.message("Refused",
                        "This form's security token is missing or wrong; reload the page and submit it again."));
                return;
            }
            if (path.startsWith("/pii/")) {
                policies.post(path, request, response, session.get().csrf(), review.reviewer());
                return;
            }
            verdict(request, response, path);
            return;
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            ConsoleRequests.html(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                    Pages.message("Not allowed", "The console's pages are read with GET and its forms are sent with POST."));
            return;
        }
        switch (path) {
            case "/" -> ConsoleRequests.html(response, 200, Pages.drafts(review.drafts(), review.rejected(), review.reviewer(),
                    session.get().csrf(), null));
            case "/audit" -> {
                Optional<String> caller = Optional.ofNullable(request.getParameter("caller")).filter(c -> !c.isEmpty());
                ConsoleRequests.html(response, 200, Pages.audit(audit.read(caller), caller));
            }
            case "/pii" -> policies.piiPage(response, session.get().csrf());
            case "/roles" -> policies.rolesPage(response);
            default -> ConsoleRequests.html(response, HttpServletResponse.SC_NOT_FOUND,
                    Pages.message("Not found", "There is no console page at this address."));
        }
    }

    /** GET /login?token=… (the printed URL) or POST /login with the form: the token is spent on its first use. */
    private void login(HttpServletRequest request, HttpServletResponse response, String method) throws IOException {
        String token = request.getParameter("token");
        if (token == null && method.equals("GET")) {
            ConsoleRequests.html(response, 200, Pages.login(null));
            return;
        }
        Optional<ConsoleSessions.Session> s = sessions.exchange(token);
        if (s.isEmpty()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_UNAUTHORIZED, Pages.login("That token is wrong or was already"
                    + " used; each token signs in once. Restart schemabrain console for a new one."));
            return;
        }
        ConsoleRequests.setSession(response, s.get().id());
        ConsoleRequests.seeOther(response, "/");
    }

    private void verdict(HttpServletRequest request, HttpServletResponse response, String path) throws Exception {
        String metric = request.getParameter("metric");
        if (!List.of("/approve", "/reject", "/preview", "/approve-statuses", "/restore").contains(path)) {
            ConsoleRequests.html(response, HttpServletResponse.SC_NOT_FOUND, Pages.message("Not found",
                    "There is no console form at this address."));
            return;
        }
        if (metric == null || metric.isBlank()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_BAD_REQUEST, Pages.message("Not done",
                    "The form named no metric; reload the page and use a metric's own button."));
            return;
        }
        // Checkboxes: each value chosen is one "status" field; none chosen sends none.
        List<String> statuses = request.getParameterValues("status") == null ? List.of()
                : List.of(request.getParameterValues("status"));
        if (path.equals("/preview")) {
            // The form's token was checked above: the page's own forms carry it on.
            ConsoleRequests.html(response, 200, Pages.preview(review.compare(metric, statuses), request.getParameter("csrf")));
        } else if (path.equals("/approve-statuses")) {
            MetricReview r = review.approve(metric, statuses);
            ConsoleRequests.html(response, 200, Pages.message("Approved", "Approved " + metric + " counting "
                    + String.join(", ", statuses) + ": it is now the reviewer's, confirmed, reviewed by " + r.by() + " at "
                    + r.at() + "."));
        } else if (path.equals("/restore")) {
            review.restore(metric);
            ConsoleRequests.html(response, 200, Pages.message("Restored", "Restored " + metric + ": it is a draft to"
                    + " review again, and agents get it as a draft."));
        } else if (path.equals("/approve")) {
            MetricReview r = review.approve(metric);
            ConsoleRequests.html(response, 200, Pages.message("Approved", "Approved " + metric + ": it is now confirmed,"
                    + " reviewed by " + r.by() + " at " + r.at() + "."));
        } else {
            review.reject(metric);
            ConsoleRequests.html(response, 200, Pages.message("Rejected", "Rejected " + metric + ": agents no longer get it"
                    + " and no index drafts it again; it is on the Rejected list, and the audit chain records that "
                    + review.reviewer() + " rejected it."));
        }
    }
}
