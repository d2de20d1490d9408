package dev.schemabrain.mcp.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * Which notifications reach the SDK. The SDK logs one it has no handler for whole, params and all, at WARN: a
 * tools/call sent as a notification put its SQL in the server's log. Only those the server uses go on; the rest are
 * dropped here, and an unknown one is logged by its method name alone.
 */
final class Notifications {

    /** Dropped unanswered, as every notification is: the transports write nothing back for it. */
    static final CallGate.Refusal DROPPED = new CallGate.Refusal(JsonRpcFrames.INVALID_REQUEST, "notification dropped");

    private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);
    private static final Set<String> FORWARDED = Set.of("notifications/initialized", "notifications/roots/list_changed");
    /** Sent by ordinary clients; the server has no use for them, and they are not worth a line. */
    private static final Set<String> IGNORED = Set.of("notifications/cancelled", "notifications/progress");
    private static final int MAX_LOGGED = 64;

    private Notifications() {
    }

    /** Whether the SDK handles {@code method}; logs (the name only) one it drops that no client should send. */
    static boolean forwarded(String method) {
        if (FORWARDED.contains(method)) {
            return true;
        }
        if (!IGNORED.contains(method)) {
            LOG.warn("dropped a notification of a method the server does not handle: {}",
                    method.length() <= MAX_LOGGED ? method : method.substring(0, MAX_LOGGED) + "…");
        }
        return false;
    }
}
