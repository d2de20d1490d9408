package dev.schemabrain.mcp.server;

/**
 * A JSON-RPC method name holding control, bidi or zero-width characters: no MCP method does, and the SDK
 * would echo it raw in "Method not found". Answered by the {@link CallGate}, over stdio and HTTP alike.
 */
public final class UnknownMethod {

    private UnknownMethod() {
    }

    /** The error message for {@code method} when it holds such characters; null for any other (or none). */
    public static String unreadable(String method) {
        if (method == null) {
            return null;
        }
        String clean = ReadableText.clean(method.length() > 64 ? method.substring(0, 64) + "…" : method);
        return clean.equals(method) ? null
                : "Method not found: '" + clean + "' (control or formatting characters shown as ?); MCP methods are"
                        + " initialize, ping, tools/list and tools/call.";
    }
}
