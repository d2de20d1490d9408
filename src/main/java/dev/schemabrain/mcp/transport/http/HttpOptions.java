package dev.schemabrain.mcp.transport.http;

import dev.schemabrain.mcp.server.RateLimit;
import jakarta.servlet.Filter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
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
 * @param authFilter      authenticates callers in front of /mcp (and /metrics) and sets {@link HttpService#CALLER_ATTRIBUTE}
 * @param metricsListen   where /metrics and /health's figures are served without a credential, apart from /mcp
 *                        ({@code --metrics-listen}); empty: on the main listener, behind the credential
 */
public record HttpOptions(String host, int port, List<String> allowedOrigins, int maxRequestBytes, RateLimit callerRate,
                          Duration statsInterval, Optional<Filter> authFilter, Optional<InetSocketAddress> metricsListen) {

    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

    public HttpOptions {
        allowedOrigins = List.copyOf(allowedOrigins);
        if (port < 0 || port > 65_535 || maxRequestBytes < 1 || statsInterval.isNegative()) {
            throw new IllegalArgumentException("the port must be 0-65535, the request limit and stats interval positive");
        }
    }

    public HttpOptions(String host, int port, List<String> allowedOrigins, int maxRequestBytes, RateLimit callerRate,
                       Duration statsInterval, Optional<Filter> authFilter) {
        this(host, port, allowedOrigins, maxRequestBytes, callerRate, statsInterval, authFilter, Optional.empty());
    }

    /**
     * {@code ADDRESS:PORT} ({@code [::1]:9090} for IPv6) as an unresolved address.
     *
     * @throws IllegalArgumentException with a sentence saying what is accepted
     */
    public static InetSocketAddress listenAddress(String text) {
        String t = text == null ? "" : text.strip();
        int colon = t.lastIndexOf(':');
        String host = colon <= 0 ? "" : t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            int port = Integer.parseInt(t.substring(colon + 1));
            if (!host.isEmpty() && port >= 0 && port <= 65_535) {
                return InetSocketAddress.createUnresolved(host, port);
            }
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            // the sentence below
        }
        throw new IllegalArgumentException("a listen address is written ADDRESS:PORT, for example 127.0.0.1:9464");
    }

    public HttpOptions withMetricsListen(String address) {
        return new HttpOptions(host, port, allowedOrigins, maxRequestBytes, callerRate, statsInterval, authFilter,
                Optional.of(listenAddress(address)));
    }

    /** Loopback on a free port, no limits but the body's: for tests and embedding. */
    public static HttpOptions loopback() {
        return new HttpOptions("127.0.0.1", 0, List.of(), DEFAULT_MAX_REQUEST_BYTES, RateLimit.OFF, Duration.ZERO,
                Optional.empty());
    }

    public HttpOptions withCallerRate(RateLimit rate) {
        return new HttpOptions(host, port, allowedOrigins, maxRequestBytes, rate, statsInterval, authFilter, metricsListen);
    }

    public HttpOptions withMaxRequestBytes(int bytes) {
        return new HttpOptions(host, port, allowedOrigins, bytes, callerRate, statsInterval, authFilter, metricsListen);
    }

    public HttpOptions withAllowedOrigins(List<String> origins) {
        return new HttpOptions(host, port, origins, maxRequestBytes, callerRate, statsInterval, authFilter, metricsListen);
    }

    public HttpOptions withAuthFilter(Filter filter) {
        return new HttpOptions(host, port, allowedOrigins, maxRequestBytes, callerRate, statsInterval, Optional.of(filter),
                metricsListen);
    }

    /** Whether {@code host} names this machine only (a name that does not resolve is not loopback). */
    public static boolean isLoopback(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
