package dev.schemabrain.console;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.Credential;
import dev.schemabrain.error.SchemaBrainException;

import java.util.Map;
import java.util.Optional;

/**
 * Signing a team's reviewer in with the bearer credential it calls /mcp with, checked by serve's own verifier: the
 * identity and role come from the credential and nothing else, and only a role the access policy marks
 * {@code reviewer: true} gets a session. The role is checked again on every request against the policy in force,
 * and a session opened with a SchemaBrain token ends when the token is revoked.
 */
final class TeamSignIn {

    /** What a presented credential is worth to the console. */
    sealed interface Outcome {
        /** A reviewer: its identity (as in the audit chain) and its role. */
        record Reviewer(String identity, String role) implements Outcome {
        }

        /** A valid caller whose role does not review: 403, with the sentence. */
        record NotReviewer(String sentence) implements Outcome {
        }

        /** No valid credential: 401. */
        record Invalid() implements Outcome {
        }
    }

    private final AuthFilter verifier;
    private final AccessPolicySource policy;

    TeamSignIn(AuthFilter verifier, AccessPolicySource policy) {
        this.verifier = verifier;
        this.policy = policy;
    }

    /** @throws SchemaBrainException when the tokens cannot be read: nobody signs in then */
    Outcome signIn(String presented) throws SchemaBrainException {
        Optional<Credential> credential = verifier.accept(presented);
        if (credential.isEmpty()) {
            return new Outcome.Invalid();
        }
        AccessPolicy now = policy.policy();
        Caller caller = credential.get().caller(now);
        if (!now.reviews(caller)) {
            return new Outcome.NotReviewer(notReviewer(now, caller.role()));
        }
        return new Outcome.Reviewer(caller.identity(), caller.role().orElseThrow());
    }

    /**
     * Empty while {@code session}'s role reviews under the policy in force and its token is not revoked; else the
     * sentence to refuse it with (and end it).
     */
    Optional<String> refusal(ConsoleSessions.Session session) {
        try {
            if (verifier.revoked(session.reviewer(), session.role())) {
                return Optional.of("The token this session signed in with was revoked or changed; sign in again.");
            }
        } catch (SchemaBrainException e) {
            return Optional.of("The server cannot check credentials right now; sign in again shortly.");
        }
        AccessPolicy now = policy.policy();
        if (now.reviews(new Caller(session.reviewer(), session.role(), Map.of()))) {
            return Optional.empty();
        }
        return Optional.of(notReviewer(now, session.role()));
    }

    private static String notReviewer(AccessPolicy policy, Optional<String> role) {
        String roles = String.join(", ", policy.reviewerRoles());
        return (role.isPresent() ? "The role " + role.get() + " does not review" : "A credential without a role does not review")
                + (roles.isEmpty() ? "; the access policy now marks no role reviewer: true."
                : "; only " + (policy.reviewerRoles().size() == 1 ? "the role " : "the roles ") + roles
                + " may review in the console.");
    }
}
