package dev.schemabrain.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates JWT access tokens with Nimbus JOSE+JWT: signed with RS256 or ES256 by a key from the JWKS
 * (unsigned tokens and every HMAC algorithm are refused, so a public key can never serve as an HMAC
 * secret), issuer and audience equal to the configured ones, {@code exp} present and {@code nbf}
 * honoured with 60 seconds of clock skew, a {@code sub}. A remote JWKS is fetched with short timeouts
 * and a size limit, cached for five minutes and refetched (rate-limited) when a token names an unknown key.
 */
public final class JwtVerifier {

    static final int CLOCK_SKEW_SECONDS = 60;
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 2_000;
    private static final int JWKS_SIZE_LIMIT = 256 * 1024;
    private static final long CACHE_TTL_MS = Duration.ofMinutes(5).toMillis();
    private static final long CACHE_REFRESH_TIMEOUT_MS = Duration.ofSeconds(5).toMillis();
    /** RFC 9068 access tokens say {@code at+jwt}; many servers say {@code JWT} or nothing. */
    private static final JOSEObjectType ACCESS_TOKEN = new JOSEObjectType("at+jwt");

    /** How long an accepted token's verdict is reused; a key removed from the JWKS stops counting within this. */
    private static final long REUSE_MILLIS = 60_000;
    private static final int REUSE_MAX = 10_000;

    private final JwtSettings settings;
    private final DefaultJWTProcessor<SecurityContext> processor;
    /** Verdicts of tokens that verified, by the token's SHA-256: a client sends one token on many calls. */
    private final Map<String, Reused> reused = new ConcurrentHashMap<>();

    private record Reused(Verdict verdict, long untilMillis) {
    }

    private JwtVerifier(JwtSettings settings, JWKSource<SecurityContext> keys) {
        this.settings = settings;
        DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
        p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, ACCESS_TOKEN, null));
        p.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256), keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(settings.audience()),
                new JWTClaimsSet.Builder().issuer(settings.issuer()).build(), Set.of("sub", "exp"), null);
        claims.setMaxClockSkew(CLOCK_SKEW_SECONDS);
        p.setJWTClaimsSetVerifier(claims);
        this.processor = p;
    }

    /** A verifier for {@code settings}; a JWKS file is read now, a URL on first use. */
    public static JwtVerifier of(JwtSettings settings) throws SchemaBrainException {
        if (settings.issuer().isBlank() || settings.audience().isBlank()) {
            throw new UserError("--jwt-issuer and --jwt-audience must not be empty; give the values your authorization server puts in iss and aud.");
        }
        return new JwtVerifier(settings, keys(settings.jwks()));
    }

    public JwtSettings settings() {
        return settings;
    }

    /**
     * Checks a token. A token that verified is not verified again for a minute (nor past its {@code exp}):
     * an ES256 signature costs about a millisecond on this JDK, more than the rest of a call.
     */
    Verdict check(String jwt) {
        String key = Tokens.hash(jwt);
        long now = System.currentTimeMillis();
        Reused hit = reused.get(key);
        if (hit != null && now < hit.untilMillis()) {
            return hit.verdict();
        }
        JWTClaimsSet claims;
        try {
            claims = processor.process(jwt, null);
        } catch (ParseException | BadJOSEException | JOSEException | RuntimeException rejected) {
            // The reason is not passed on: Nimbus messages can quote claims of the token.
            return new Verdict.Invalid();
        }
        String sub = claims.getSubject();
        if (sub == null || sub.isBlank()) {
            return new Verdict.Invalid();
        }
        Verdict verdict = settings.scope().isPresent() && !scopes(claims).contains(settings.scope().get())
                ? new Verdict.InsufficientScope(settings.scope().get())
                : Verdict.Caller.jwt(settings.issuer(), sub).with(roles(claims, settings.roleClaim()),
                        claims(claims, settings.roleClaim()));
        if (reused.size() >= REUSE_MAX) {
            reused.clear();   // a crude bound: many distinct valid tokens only cost re-verification
        }
        reused.put(key, new Reused(verdict, Math.min(now + REUSE_MILLIS, claims.getExpirationTime().getTime())));
        return verdict;
    }

    /** Claims that say which token this is, not who bears it: never a row filter's value. */
    private static final Set<String> REGISTERED = Set.of("iss", "aud", "exp", "nbf", "iat", "jti");

    /** The bearer's roles, in the claim's order: a JSON list, or a space-separated string. */
    static List<String> roles(JWTClaimsSet claims, String roleClaim) {
        Object value = claims.getClaim(roleClaim);
        if (value instanceof String s) {
            return Arrays.stream(s.trim().split("\\s+")).filter(r -> !r.isEmpty()).toList();
        }
        if (value instanceof List<?> list) {
            return list.stream().filter(String.class::isInstance).map(String.class::cast).filter(r -> !r.isBlank()).toList();
        }
        return List.of();
    }

    /**
     * Every other claim as text, for row filters: strings as they are, numbers and booleans as written, a
     * list's values joined with commas; objects are left out (no row filter compares with one).
     */
    static Map<String, String> claims(JWTClaimsSet claims, String roleClaim) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Object> c : claims.getClaims().entrySet()) {
            if (REGISTERED.contains(c.getKey()) || c.getKey().equals(roleClaim)) {
                continue;
            }
            String text = text(c.getValue());
            if (text != null) {
                out.put(c.getKey(), text);
            }
        }
        return out;
    }

    private static String text(Object value) {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object v : list) {
                String t = v instanceof List<?> ? null : text(v);
                if (t != null) {
                    parts.add(t);
                }
            }
            return String.join(",", parts);
        }
        return null;
    }

    /** The scopes granted: the space-separated {@code scope} claim (RFC 9068), or {@code scp} as a list or string. */
    static List<String> scopes(JWTClaimsSet claims) {
        Object scope = claims.getClaim("scope");
        if (scope == null) {
            scope = claims.getClaim("scp");
        }
        if (scope instanceof String s) {
            return Arrays.asList(s.trim().split("\\s+"));
        }
        if (scope instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    private static JWKSource<SecurityContext> keys(String jwks) throws SchemaBrainException {
        if (jwks.startsWith("https://") || jwks.startsWith("http://")) {
            URL url = url(jwks);
            return JWKSourceBuilder.<SecurityContext>create(url,
                            new DefaultResourceRetriever(CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, JWKS_SIZE_LIMIT))
                    .cache(CACHE_TTL_MS, CACHE_REFRESH_TIMEOUT_MS)
                    .build();
        }
        Path file = Path.of(jwks);
        try {
            // Public keys only: a private key in the file is not needed to verify, and must not sit in memory.
            return new ImmutableJWKSet<>(JWKSet.parse(Files.readString(file)).toPublicJWKSet());
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot read the JWKS file " + file
                    + "; check --jwt-jwks (an https URL or a file).", e);
        } catch (ParseException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "The JWKS file " + file + " is not a JSON Web Key Set;"
                    + " give the file or URL your authorization server publishes its keys at.", e);
        }
    }

    /** An https URL, or http only to this machine: keys fetched in clear text over a network could be swapped. */
    private static URL url(String jwks) throws UserError {
        try {
            URI uri = URI.create(jwks);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("no host");
            }
            if (uri.getScheme().equals("http") && !InetAddress.getByName(uri.getHost()).isLoopbackAddress()) {
                throw new UserError("--jwt-jwks " + jwks + " is plain http to another machine, where the keys could be"
                        + " swapped on the way; use its https URL.");
            }
            return uri.toURL();
        } catch (IllegalArgumentException | IOException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "--jwt-jwks " + jwks + " is not a valid URL;"
                    + " give an https URL or a file.", e);
        }
    }

    @Override
    public String toString() {
        return "JwtVerifier[issuer=" + settings.issuer() + ", audience=" + settings.audience() + "]";
    }
}
