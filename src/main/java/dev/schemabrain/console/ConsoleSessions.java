package dev.schemabrain.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Who may use the console: a one-time login token (printed once, as Jupyter does) that is exchanged for a session
 * and is then spent, or (for a team) a session opened for a verified caller; sessions by their cookie value, and
 * each session's synchronizer token for forms.
 */
final class ConsoleSessions {

    /** The cookie that carries the session id: HttpOnly and SameSite=Strict, so no script or other site sends it. */
    static final String COOKIE = "schemabrain_console";
    /** A session unused this long is gone; the reviewer asks for a new token by restarting the console. */
    static final Duration IDLE = Duration.ofHours(8);

    /**
     * A signed-in reviewer's session; {@code csrf} goes in every form and must come back with it.
     *
     * @param reviewer who signs its verdicts: the console's reviewer, or a team caller's identity from its credential
     * @param role     a team caller's role, checked against the policy in force on each request; empty on loopback
     */
    record Session(String id, String csrf, Instant lastSeen, String reviewer, Optional<String> role) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final AtomicReference<String> loginToken;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    ConsoleSessions(Clock clock) {
        this(clock, true);
    }

    private ConsoleSessions(Clock clock, boolean oneTimeToken) {
        this.clock = clock;
        this.loginToken = new AtomicReference<>(oneTimeToken ? random() : null);
    }

    /** A team's sessions: there is no one-time token, each session is opened for a verified caller. */
    static ConsoleSessions withoutToken(Clock clock) {
        return new ConsoleSessions(clock, false);
    }

    /** The token to print; null once it is spent. Never logged. */
    String loginToken() {
        return loginToken.get();
    }

    /** A new session signed by {@code reviewer} for the right, unspent token (which is spent by this call); empty for any other. */
    Optional<Session> exchange(String token, String reviewer) {
        String expected = loginToken.get();
        if (token == null || expected == null || !same(token, expected) || !loginToken.compareAndSet(expected, null)) {
            return Optional.empty();
        }
        return Optional.of(open(reviewer, Optional.empty()));
    }

    /** A new session for a caller whose credential was verified and whose role reviews. */
    Session open(String reviewer, Optional<String> role) {
        Session s = new Session(random(), random(), clock.instant(), reviewer, role);
        sessions.put(s.id(), s);
        return s;
    }

    /** Ends a session (its holder's role no longer reviews). */
    void drop(String id) {
        sessions.remove(id);
    }

    /** The live session whose id the cookie carried; a use keeps it alive. */
    Optional<Session> find(String id) {
        if (id == null) {
            return Optional.empty();
        }
        Session s = sessions.get(id);
        if (s == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (s.lastSeen().plus(IDLE).isBefore(now)) {
            sessions.remove(id);
            return Optional.empty();
        }
        Session seen = new Session(s.id(), s.csrf(), now, s.reviewer(), s.role());
        sessions.put(id, seen);
        return Optional.of(seen);
    }

    /** Whether {@code given} is the session's form token; compared in constant time. */
    static boolean csrfMatches(Session session, String given) {
        return given != null && same(given, session.csrf());
    }

    private static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static String random() {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }
}
