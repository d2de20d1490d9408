package dev.schemabrain.mcp.transport.http;

import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HeaderAccessor;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Origin and Host check (DNS rebinding) in front of every path of a listener: /mcp, and /health and
 * /metrics too, whose latencies, per-tool counts and error rates a rebound page could otherwise read.
 */
final class HostCheck implements Filter {

    private final DefaultServerTransportSecurityValidator validator;

    /** @param loopback whether the listener is on loopback: then only a loopback Host (and Origin) is served */
    HostCheck(List<String> allowedOrigins, boolean loopback) {
        DefaultServerTransportSecurityValidator.Builder b = DefaultServerTransportSecurityValidator.builder()
                .allowedOrigins(allowedOrigins);
        if (loopback) {
            // A page on this machine may call a loopback server; a page from elsewhere (a rebound DNS name)
            // arrives with its own Host and Origin and is refused.
            for (String host : List.of("localhost", "127.0.0.1", "[::1]")) {
                b.allowedOrigin("http://" + host + ":*").allowedHost(host + ":*");
            }
        }
        this.validator = b.build();
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : List.of("Origin", "Host")) {
            List<String> values = new ArrayList<>();
            request.getHeaders(name).asIterator().forEachRemaining(values::add);
            if (!values.isEmpty()) {
                headers.put(name, values);
            }
        }
        try {
            validator.validate(new HeaderAccessor() {
                @Override
                public List<String> getHeader(String name) {
                    return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
                            .map(Map.Entry::getValue).orElse(List.of());
                }

                @Override
                public List<String> getHeaderNames() {
                    return List.copyOf(headers.keySet());
                }
            });
        } catch (ServerTransportSecurityException e) {
            boolean origin = e.getStatusCode() == HttpServletResponse.SC_FORBIDDEN;
            Replies.refuse((HttpServletResponse) res, e.getStatusCode(), origin
                    ? "This Origin is not allowed to call the server; the operator can add it with --allowed-origins."
                    : "This Host is not the loopback address the server listens on; call it as localhost or 127.0.0.1.");
            return;
        }
        chain.doFilter(req, res);
    }
}
