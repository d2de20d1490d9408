package dev.schemabrain.console;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What every console request passes before a page: the Host and Origin checks, and the headers every answer carries. */
final class ConsoleRequests {

    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");

    private ConsoleRequests() {
    }

    /**
     * A refusal sentence for a request a rebound DNS name or another site's page made, or empty. The console listens
     * on loopback only, so the Host must name loopback; an Origin, when sent, must be this same host and port.
     */
    static Optional<String> hostOrOriginRefusal(HttpServletRequest request) {
        String host = request.getHeader("Host");
        if (host == null || !LOOPBACK.contains(hostPart(host))) {
            return Optional.of("This Host is not the loopback address the console listens on; open it as localhost or 127.0.0.1.");
        }
        String origin = request.getHeader("Origin");
        if (origin != null && !origin.equals("http://" + host)) {
            return Optional.of("A page from another origin may not use the console; open it from the URL it printed.");
        }
        if ("cross-site".equals(request.getHeader("Sec-Fetch-Site")) && !"GET".equals(request.getMethod())) {
            return Optional.of("A page from another site may not use the console; open it from the URL it printed.");
        }
        return Optional.empty();
    }

    /**
     * A team's console sits behind serve's own Host/Origin check (HostCheck, with --allowed-origins); on top of it a
     * form may come from this very origin only: an Origin, when sent, names the Host the request was sent to, and a
     * browser that says a write is cross-site is refused.
     */
    static Optional<String> crossOriginRefusal(HttpServletRequest request) {
        String origin = request.getHeader("Origin");
        String host = request.getHeader("Host");
        if (origin != null && (host == null || !authority(origin).equalsIgnoreCase(host.strip()))) {
            return Optional.of("A page from another origin may not use the console; open it from its own address.");
        }
        if ("cross-site".equals(request.getHeader("Sec-Fetch-Site")) && !"GET".equals(request.getMethod())) {
            return Optional.of("A page from another site may not use the console; open it from its own address.");
        }
        return Optional.empty();
    }

    /** host[:port] of an origin such as https://review.example.com:8443; the scheme may differ behind a TLS proxy. */
    private static String authority(String origin) {
        int scheme = origin.indexOf("://");
        return scheme < 0 ? "" : origin.substring(scheme + 3);
    }

    private static String hostPart(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    /** The session cookie's value, if sent. */
    static Optional<String> sessionId(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie c : cookies) {
            if (ConsoleSessions.COOKIE.equals(c.getName())) {
                return Optional.of(c.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure when the request came
     * over HTTPS, and sent back only under the console's own path.
     */
    static void setSession(HttpServletRequest request, HttpServletResponse response, String path, String id) {
        response.addHeader("Set-Cookie", ConsoleSessions.COOKIE + "=" + id + "; Path=" + path + "; HttpOnly; SameSite=Strict"
                + (overHttps(request) ? "; Secure" : "") + "; Max-Age=" + ConsoleSessions.IDLE.toSeconds());
    }

    /**
     * Whether the browser used HTTPS: to this server, or to the TLS proxy in front of it (X-Forwarded-Proto, or the
     * form's Origin). Believing a false claim only makes a browser keep its own cookie off plain HTTP.
     */
    private static boolean overHttps(HttpServletRequest request) {
        String origin = request.getHeader("Origin");
        return request.isSecure() || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"))
                || (origin != null && origin.startsWith("https://"));
    }

    /**
     * A page: no script may run, no other page may frame it, nothing is cached, and no URL leaks in a Referer to
     * another site. Not no-referrer: under it a browser sends its forms with {@code Origin: null}, which the Origin
     * check must refuse; same-origin keeps the console's own origin on its forms.
     */
    static void html(HttpServletResponse response, int status, String html) throws IOException {
        response.setStatus(status);
        response.setContentType("text/html; charset=utf-8");
        response.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self';"
                + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
        byte[] body = html.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** A redirect within the console (after login: the token leaves the address bar). */
    static void seeOther(HttpServletResponse response, String path) {
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", URI.create(path).toString());
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cache-Control", "no-store");
    }
}
