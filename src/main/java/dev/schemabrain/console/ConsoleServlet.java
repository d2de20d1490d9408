package dev.schemabrain.console;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.served.CatalogProvider;
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
 * POST but /login needs the session's form token. Failures are one sentence, never a stack trace. On loopback one
 * person signs in with the printed one-time token; for a team ({@link TeamSignIn}) each reviewer signs in with its own
 * credential, and its role is checked on every request. Routes are read below {@code prefix} ("" on loopback,
 * {@code /console} beside /mcp); the pages link relatively, so they work under either.
 */
final class ConsoleServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServlet.class);

    private final transient ConsoleSessions sessions;
    private final transient DraftReview review;
    private final transient AuditTimeline audit;
    private final transient PolicyRoutes policies;
    private final String prefix;
    private final transient Optional<TeamSignIn> team;

    ConsoleServlet(ConsoleSessions sessions, DraftReview review, AuditTimeline audit, PolicyRoutes policies) {
        this(sessions, review, audit, policies, "", Optional.empty());
    }

    /**
     * @param prefix where the console is mounted: "" or a path such as {@code /console}, without a trailing '/'
     * @param team   a team's sign-in; empty for the loopback console's one-time token
     */
    ConsoleServlet(ConsoleSessions sessions, DraftReview review, AuditTimeline audit, PolicyRoutes policies, String prefix,
                   Optional<TeamSignIn> team) {
        this.sessions = sessions;
        this.review = review;
        this.audit = audit;
        this.policies = policies;
        this.prefix = prefix;
        this.team = team;
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
        Optional<String> refused = team.isPresent() ? ConsoleRequests.crossOriginRefusal(request)
                : ConsoleRequests.hostOrOriginRefusal(request);
        if (refused.isPresent()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.message("Refused", refused.get()));
            return;
        }
        String method = request.getMethod();
        if (request.getPathInfo() == null) {
            // /console without its slash: the pages' relative links need it.
            ConsoleRequests.seeOther(response, prefix + "/");
            return;
        }
        String path = request.getPathInfo();
        if (path.equals("/login")) {
            if (team.isPresent()) {
                teamLogin(request, response, method, team.get());
            } else {
                login(request, response, method);
            }
            return;
        }
        Optional<ConsoleSessions.Session> session = ConsoleRequests.sessionId(request).flatMap(sessions::find);
        if (session.isEmpty()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_UNAUTHORIZED, team.isPresent()
                    ? Pages.teamLogin("Sign in first: this page needs a reviewer's credential.")
                    : Pages.login("Sign in first: this page needs the token schemabrain console printed."));
            return;
        }
        Optional<String> noLongerReviews = team.flatMap(t -> t.refusal(session.get()));
        if (noLongerReviews.isPresent()) {
            sessions.drop(session.get().id());
            ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.teamLogin(noLongerReviews.get()));
            return;
        }
        DraftReview review = this.review.signedBy(session.get().reviewer());
        if (method.equals("POST")) {
            if (!ConsoleSessions.csrfMatches(session.get(), request.getParameter("csrf"))) {
                ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.message("Refused",
                        "This form's security token is missing or wrong; reload the page and submit it again."));
                return;
            }
            if (path.startsWith("/pii-")) {
                policies.post(path, request, response, session.get().csrf(), review.reviewer());
                return;
            }
            verdict(request, response, path, review);
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
        Optional<ConsoleSessions.Session> s = sessions.exchange(token, review.reviewer());
        if (s.isEmpty()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_UNAUTHORIZED, Pages.login("That token is wrong or was already"
                    + " used; each token signs in once. Restart schemabrain console for a new one."));
            return;
        }
        ConsoleRequests.setSession(request, response, prefix + "/", s.get().id());
        ConsoleRequests.seeOther(response, prefix + "/");
    }

    /** GET /login shows the form; POST /login with the caller's credential in the body (never in the address). */
    private void teamLogin(HttpServletRequest request, HttpServletResponse response, String method, TeamSignIn signIn)
            throws Exception {
        if (!method.equals("POST")) {
            ConsoleRequests.html(response, 200, Pages.teamLogin(null));
            return;
        }
        TeamSignIn.Outcome outcome;
        try {
            outcome = signIn.signIn(request.getParameter("credential"));
        } catch (SchemaBrainException e) {
            ConsoleRequests.html(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, Pages.teamLogin("The server cannot"
                    + " check credentials right now; retry shortly."));
            return;
        }
        if (outcome instanceof TeamSignIn.Outcome.Reviewer r) {
            ConsoleSessions.Session s = sessions.open(r.identity(), Optional.of(r.role()));
            ConsoleRequests.setSession(request, response, prefix + "/", s.id());
            ConsoleRequests.seeOther(response, prefix + "/");
        } else if (outcome instanceof TeamSignIn.Outcome.NotReviewer n) {
            ConsoleRequests.html(response, HttpServletResponse.SC_FORBIDDEN, Pages.teamLogin(n.sentence()));
        } else {
            ConsoleRequests.html(response, HttpServletResponse.SC_UNAUTHORIZED, Pages.teamLogin("That credential is not valid"
                    + " here: unknown, revoked, expired, badly signed, or for another server."));
        }
    }

    private void verdict(HttpServletRequest request, HttpServletResponse response, String path, DraftReview review)
            throws Exception {
        String metric = request.getParameter("metric");
        if (!List.of("/approve", "/reject", "/preview", "/approve-edit", "/restore").contains(path)) {
            ConsoleRequests.html(response, HttpServletResponse.SC_NOT_FOUND, Pages.message("Not found",
                    "There is no console form at this address."));
            return;
        }
        if (metric == null || metric.isBlank()) {
            ConsoleRequests.html(response, HttpServletResponse.SC_BAD_REQUEST, Pages.message("Not done",
                    "The form named no metric; reload the page and use a metric's own button."));
            return;
        }
        DraftReview.Edit edit = edit(request);
        if (path.equals("/preview")) {
            // The form's token was checked above: the page's own forms carry it on.
            ConsoleRequests.html(response, 200, Pages.preview(review.compare(metric, edit), request.getParameter("csrf")));
        } else if (path.equals("/approve-edit")) {
            DraftReview.Approval a = review.approve(metric, edit);
            ConsoleRequests.html(response, 200, Pages.message("Approved", "Approved " + metric + " with your edit ("
                    + Pages.describe(a.edit()) + "): it is now the reviewer's, confirmed, reviewed by " + a.review().by()
                    + " at " + a.review().at() + "."));
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

    /**
     * The edit form's fields: each status ticked is one "status" field (none ticked sends none); "currency" is empty
     * for per currency; "time_axis" names the date column chosen.
     */
    private static DraftReview.Edit edit(HttpServletRequest request) {
        String[] statuses = request.getParameterValues("status");
        String currency = request.getParameter("currency");
        String time = request.getParameter("time_axis");
        return new DraftReview.Edit(statuses == null ? List.of() : List.of(statuses),
                Optional.ofNullable(currency).filter(c -> !c.isBlank()), Optional.ofNullable(time).filter(t -> !t.isBlank()));
    }
}
