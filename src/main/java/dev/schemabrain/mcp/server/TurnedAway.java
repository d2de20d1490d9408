package dev.schemabrain.mcp.server;

import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The answers of a call the dispatcher does not run: the source lane is full, or the caller is over its rate. */
public final class TurnedAway {

    /** Arguments longer than this (as text) are not repeated in a recovery. */
    private static final int MAX_ECHOED_ARGUMENT = 200;

    private TurnedAway() {
    }

    /** error + source_busy: load, not a verdict on the call; the same call later should work. */
    static Envelope sourceBusy(String tool, Map<String, Object> arguments, DispatchCapacity capacity, List<String> hints) {
        String message = "The source is busy: " + capacity.sourceThreads() + " " + tool + " calls are running and "
                + capacity.sourceQueue() + " are waiting, so this one was not queued; retry in a few seconds, "
                + "or send fewer calls at once.";
        return Envelope.error(ToolError.of(ErrorKind.SOURCE_BUSY, message, Recovery.call(tool, echoable(arguments))), hints);
    }

    /**
     * refused + policy_blocked: the operator's rate limit chose not to run the call (so it is counted with
     * the refusals in the audit log, where an extraction attempt shows); the message says when to retry.
     */
    public static Envelope overRate(String tool, Map<String, Object> arguments, RateLimit limit, long retryAfterMillis,
                             List<String> hints) {
        String wait = retryAfterMillis < 1_000 ? retryAfterMillis + " ms" : Math.ceil(retryAfterMillis / 100.0) / 10 + " s";
        String message = tool + " is limited to " + limit.describe() + " per caller (bursts of up to " + limit.burst()
                + "), and this caller (its credential) has used its allowance; retry in " + wait + ".";
        Recovery recovery = new Recovery(tool, echoable(arguments), List.of(),
                "wait " + wait + " before calling " + tool + " again, and send fewer calls", null);
        return Envelope.error(new ToolError(ErrorKind.POLICY_BLOCKED, message, recovery, List.of()), hints);
    }

    private static Map<String, Object> echoable(Map<String, Object> arguments) {
        Map<String, Object> keep = new LinkedHashMap<>();
        if (arguments != null) {
            arguments.forEach((key, value) -> {
                if (key.length() <= 64 && String.valueOf(value).length() <= MAX_ECHOED_ARGUMENT) {
                    keep.put(key, value);
                }
            });
        }
        return keep;
    }
}
