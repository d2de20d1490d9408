package dev.schemabrain.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.SchemaBrainException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Lets a request to the MCP endpoint through only with a valid credential in {@code Authorization:
 * Bearer}: a SchemaBrain token ({@code sbt_…}) or a JWT from the configured authorization server,
 * whichever are configured. An accepted request carries its caller in the request attribute
 * {@value #CALLER_ATTRIBUTE} ({@code token:NAME} or {@code jwt:ISSUER#SUB}, the sub cleaned), and its roles and
 * claims in {@link Credential#ATTRIBUTE}; any other is answered
 * here, per RFC 6750 and RFC 9728: 401 with {@code WWW-Authenticate: Bearer resource_metadata="…"}
 * (and {@code error="invalid_token"} when a credential was given), or 403 {@code insufficient_scope}.
 * The credential itself is never logged, stored, echoed or put in a message.
 */
public final class AuthFilter implements Filter {

    /** The request attribute naming the authenticated caller (a String); the HTTP server audits and rate-limits it. */
    public static final String CALLER_ATTRIBUTE = "dev.schemabrain.caller";
    /** The endpoint the filter protects; the metadata's {@code resource} names it. */
    public static final String MCP_PATH = "/mcp";
    /** Where {@link #metadataServlet()} belongs: /.well-known/oauth-protected-resource, and RFC 9728's path-suffixed form for {@code /mcp}. */
    public static final List<String> METADATA_PATHS = List.of("/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource" + MCP_PATH);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BEARER = "bearer ";

    private final Optional<BearerTokens> tokens;
    private final Optional<JwtVerifier> jwt;

    public AuthFilter(Optional<BearerTokens> tokens, Optional<JwtVerifier> jwt) {
        if (tokens.isEmpty() && jwt.isEmpty()) {
            throw new IllegalArgumentException("an auth filter needs bearer tokens or a JWT verifier");
        }
        this.tokens = tokens;
        this.jwt = jwt;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest req) || !(response instanceof HttpServletResponse res)) {
            throw new ServletException("the auth filter serves HTTP only");
        }
        Optional<String> credential = credential(req);
        if (credential.isEmpty()) {
            refuse(req, res, HttpServletResponse.SC_UNAUTHORIZED, null, "Authentication is required: send Authorization: Bearer"
                    + " with a SchemaBrain token or an access token from the authorization server.");
            return;
        }
        Verdict verdict;
        try {
            verdict = verdict(credential.get());
        } catch (SchemaBrainException e) {
            // The token source cannot be read: refuse everyone rather than let anyone in.
            writeJson(res, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "temporarily_unavailable",
                    "The server cannot check credentials right now; retry shortly.");
            return;
        }
        if (verdict instanceof Verdict.Caller caller) {
            req.setAttribute(CALLER_ATTRIBUTE, caller.name());
            req.setAttribute(Credential.ATTRIBUTE, caller.credential());
            chain.doFilter(req, res);
        } else if (verdict instanceof Verdict.InsufficientScope missing) {
            refuse(req, res, HttpServletResponse.SC_FORBIDDEN, "insufficient_scope",
                    "The access token lacks the scope " + missing.scope() + " this server requires.");
        } else {
            refuse(req, res, HttpServletResponse.SC_UNAUTHORIZED, "invalid_token",
                    "The bearer token is not valid here: unknown, revoked, expired, badly signed, or for another server.");
        }
    }

    /**
     * The identity a valid credential on {@code req} names, without answering the request: for a page that
     * shows more to a caller than to anyone (/health's figures). Empty for none, an invalid one, a missing
     * scope, or a token source that cannot be read.
     */
    public Optional<String> identify(HttpServletRequest req) {
        Optional<String> credential = credential(req);
        if (credential.isEmpty()) {
            return Optional.empty();
        }
        try {
            return verdict(credential.get()) instanceof Verdict.Caller caller ? Optional.of(caller.name()) : Optional.empty();
        } catch (SchemaBrainException e) {
            return Optional.empty();
        }
    }

    /**
     * The credential a sign-in form carried (the console's), checked exactly as a request's header is: its
     * identity, roles and claims when valid; empty when unknown, revoked, expired, badly signed, for another
     * server or without the required scope.
     *
     * @throws SchemaBrainException when the token source cannot be read (nobody is let in then)
     */
    public Optional<Credential> accept(String presented) throws SchemaBrainException {
        if (presented == null || presented.isBlank()) {
            return Optional.empty();
        }
        return verdict(presented.strip()) instanceof Verdict.Caller caller ? Optional.of(caller.credential()) : Optional.empty();
    }

    /**
     * Whether what a credential naming {@code identity} with {@code role} signed in to has ended: its SchemaBrain token
     * was revoked, or made again with another role. A JWT's identity is never reported (it cannot be checked again
     * without the token itself, which is not kept); it ends with its session.
     *
     * @throws SchemaBrainException when the token source cannot be read
     */
    public boolean revoked(String identity, Optional<String> role) throws SchemaBrainException {
        String prefix = "token:";
        if (!identity.startsWith(prefix) || tokens.isEmpty()) {
            return false;
        }
        Optional<TokenEntry> entry = tokens.get().named(identity.substring(prefix.length()));
        return entry.isEmpty() || !entry.get().role().equals(role);
    }

    /** Checks one credential: a SchemaBrain token by its prefix, anything else as a JWT. */
    Verdict verdict(String credential) throws SchemaBrainException {
        if (credential.startsWith(Tokens.PREFIX)) {
            return tokens.isPresent() ? tokens.get().check(credential) : new Verdict.Invalid();
        }
        return jwt.isPresent() ? jwt.get().check(credential) : new Verdict.Invalid();
    }

    /** The credential of an {@code Authorization: Bearer} header; a header of another scheme counts as none. */
    private static Optional<String> credential(HttpServletRequest req) {
        String header = req.getHeader("Authorization");
        if (header == null || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        return Optional.of(header.substring(BEARER.length()).strip());
    }

    private void refuse(HttpServletRequest req, HttpServletResponse res, int status, String error, String description) throws IOException {
        StringBuilder challenge = new StringBuilder("Bearer ");
        if (error != null) {
            challenge.append("error=\"").append(error).append("\", ");
        }
        Optional<String> scope = jwt.flatMap(j -> j.settings().scope());
        if (scope.isPresent() && (error == null || error.equals("insufficient_scope"))) {
            challenge.append("scope=\"").append(scope.get()).append("\", ");
        }
        challenge.append("resource_metadata=\"").append(baseUrl(req)).append(METADATA_PATHS.get(0)).append('"');
        res.setHeader("WWW-Authenticate", challenge.toString());
        writeJson(res, status, error == null ? "unauthorized" : error, description);
    }

    private static void writeJson(HttpServletResponse res, int status, String error, String description) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("error", error).put("error_description", description);
        send(res, status, body);
    }

    private static void send(HttpServletResponse res, int status, ObjectNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        res.setStatus(status);
        res.setHeader("Cache-Control", "no-store");
        res.setContentType("application/json");
        res.setCharacterEncoding(StandardCharsets.UTF_8.name());
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
    }

    /** The scheme, host and port the client used (the Host header, which the container has checked). */
    static String baseUrl(HttpServletRequest req) {
        String scheme = req.getScheme();
        int port = req.getServerPort();
        boolean defaultPort = port <= 0 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
        String host = req.getServerName();
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }

    /**
     * The RFC 9728 protected resource metadata: the resource (the JWT audience when it is a URL, as
     * RFC 8707 resource indicators make it, otherwise this server's {@code /mcp}), the authorization
     * server, the scope, and that tokens travel in the header only.
     */
    ObjectNode metadata(HttpServletRequest req) {
        String audience = jwt.map(j -> j.settings().audience()).orElse("");
        boolean audienceIsUrl = audience.startsWith("https://") || audience.startsWith("http://");
        ObjectNode doc = JSON.createObjectNode().put("resource", audienceIsUrl ? audience : baseUrl(req) + MCP_PATH);
        jwt.ifPresent(j -> doc.putArray("authorization_servers").add(j.settings().issuer()));
        jwt.flatMap(j -> j.settings().scope()).ifPresent(s -> doc.putArray("scopes_supported").add(s));
        doc.putArray("bearer_methods_supported").add("header");
        doc.put("resource_name", "SchemaBrain");
        return doc;
    }

    /** The servlet answering GET on {@link #METADATA_PATHS} with {@link #metadata}; it needs no credential. */
    public HttpServlet metadataServlet() {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
                send(res, HttpServletResponse.SC_OK, metadata(req));
            }
        };
    }

    @Override
    public String toString() {
        return "AuthFilter[tokens=" + tokens.map(Object::toString).orElse("off") + ", jwt=" + jwt.map(Object::toString).orElse("off") + "]";
    }
}
