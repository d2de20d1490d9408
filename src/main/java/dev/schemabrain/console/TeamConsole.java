package dev.schemabrain.console;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.transport.http.HttpService;
import dev.schemabrain.pii.PiiPolicy;
import dev.schemabrain.serve.BesideMcp;
import dev.schemabrain.store.StoreLocation;
import jakarta.servlet.http.HttpServlet;

import java.time.Clock;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The console for a team, served by {@code serve --transport http --console} beside /mcp on the same listener: it
 * shares serve's audit chain, tools and catalog, and signs reviewers in with serve's own credential verifier.
 */
public final class TeamConsole {

    /** Where serve mounts it. */
    public static final String PREFIX = "/console";

    /**
     * What the console is built from, all of it serve's own.
     *
     * @param tools    every tool over a catalog, audited into {@code audit} (get_metric answers the drafts and previews)
     * @param verifier the authentication in front of /mcp: a reviewer's credential is checked by it and nothing else
     * @param policy   the access policy in force: which roles review
     * @param asOf     the drafts' last 12 months end the day before this one
     */
    public record Parts(StoreLocation store, AuditLog audit, AuditKey key, Function<CatalogProvider, ToolRegistry> tools,
                        CatalogProvider catalogs,
                        AuthFilter verifier, AccessPolicySource policy, LocalDate asOf) {
        public Parts {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(audit, "audit");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(verifier, "verifier");
            Objects.requireNonNull(policy, "policy");
        }
    }

    private TeamConsole() {
    }

    /** What {@code serve --console} mounts: the console under {@link #PREFIX}, on serve's audit chain, tools and catalog. */
    public static BesideMcp beside(StoreLocation store, AuditKey key, AuthFilter verifier, AccessPolicySource policy,
                                   LocalDate asOf) {
        return (audit, tools, catalogs) -> new HttpService.Beside(PREFIX + "/",
                servlet(new Parts(store, audit, key, tools, catalogs, verifier, policy, asOf)));
    }

    /** The servlet to map at {@code PREFIX + "/*"}. */
    public static HttpServlet servlet(Parts parts) {
        Clock clock = Clock.systemUTC();
        // Each verdict is signed by the session's caller (DraftReview.signedBy); this name signs none.
        DraftReview review = new DraftReview(parts.store(), parts.catalogs(), parts.tools(), Optional.empty(), parts.audit(),
                parts.key(), "console", parts.asOf(), clock);
        // The PII page writes the policy file where the policy commands look for it, under serve's directory.
        PolicyRoutes policies = new PolicyRoutes(new PiiReview(parts.store(), PiiPolicy.DEFAULT_FILE, parts.catalogs(),
                parts.audit(), parts.key()), parts.store(), Optional.of(parts.policy().file()));
        return new ConsoleServlet(ConsoleSessions.withoutToken(clock), review,
                new AuditTimeline(parts.audit(), parts.store(), parts.key()), policies, PREFIX,
                Optional.of(new TeamSignIn(parts.verifier(), parts.policy())));
    }
}
