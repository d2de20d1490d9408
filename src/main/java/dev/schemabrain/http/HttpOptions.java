package dev.schemabrain.http;

import dev.schemabrain.mcp.server.RateLimit;
import jakarta.servlet.Filter;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How {@code serve --transport http} listens.
 *
 * @param host            the address to bind (loopback unless authentication is configured)
 * @param port            the port; 0 picks a free one
 * @param allowedOrigins  browser origins allowed besides none at all (exact, or {@code http://host:*})
 * @param maxRequestBytes a request body past this is answered 413
 * @param callerRate      requests to /mcp one caller may make; past it 429 with Retry-After
 * @param statsInterval   how often the stats line is logged; zero turns it off
 * @param authFilter      authenticates callers in front of /mcp and sets {@link HttpService#CALLER_ATTRIBUTE}
 */
public record HttpOptions(String host, int port, List<String> allowedOrigins, int maxRequestBytes, RateLimit callerRate,
                          Duration statsInterval, Optional<Filter> authFilter) {

    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

    public HttpOptions {
        allowedOrigins = List.copyOf(allowedOrigins);
        if (port < 0 || port > 65_535 || maxRequestBytes < 1 || statsInterval.isNegative()) {
            throw new IllegalArgumentException("the port must be 0-65535, the request limit and stats interval positive");
        }
    }

    /** Loopback on a free port, no limits but the body's: for tests and embedding. */
    public static HttpOptions loopback() {
        return new HttpOptions("127.0.0.1", 0, List.of(), DEFAULT_MAX_REQUEST_BYTES, RateLimit.OFF, Duration.ZERO,
                Optional.empty());
    }

    public HttpOptions withCallerRate(RateLimit rate) {
        return new HttpOptions(host, port, allowedOrigins, maxRequestBytes, rate, statsInterval, authFilter);
    }

    public HttpOptions withMaxRequestBytes(int bytes) {
        return new HttpOptions(host, port, allowedOrigins, bytes, callerRate, statsInterval, authFilter);
    }

    public HttpOptions withAllowedOrigins(List<String> origins) {
        return new HttpOptions(host, port, origins, maxRequestBytes, callerRate, statsInterval, authFilter);
    }

    public HttpOptions withAuthFilter(Filter filter) {
        return new HttpOptions(host, port, allowedOrigins, maxRequestBytes, callerRate, statsInterval, Optional.of(filter));
    }

    /** Whether {@code host} names this machine only (a name that does not resolve is not loopback). */
    public static boolean isLoopback(String host) {
        try {
            for (java.net.InetAddress a : java.net.InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }
}
