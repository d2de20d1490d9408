package dev.schemabrain.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What checking a credential costs per request: a JWT verified for the first time (RS256, ES256), the
 * same JWT again (its verdict reused), and a bearer token among 100 stored. Run with
 * {@code mvn -Pbench test -Dtest=AuthCostBenchmark}; figures go to target/bench/auth.txt.
 */
@Tag("benchmark")
class AuthCostBenchmark {

    private static final int N = 2_000;

    @TempDir
    Path dir;

    @Test
    void credentialChecks() throws Exception {
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("r").generate();
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("e").generate();
        Path jwks = dir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(List.of(rsa, ec)).toPublicJWKSet().toString());
        JwtVerifier verifier = JwtVerifier.of(new JwtSettings(jwks.toString(), "iss", "aud", Optional.of("s")));
        TokenStore store = new StoreTokens(dir.resolve("schemabrain.db"));
        String token = store.create("a");
        for (int i = 0; i < 99; i++) {
            store.create("n" + i);
        }
        BearerTokens tokens = new BearerTokens(store);
        StringBuilder out = new StringBuilder("credential check, microseconds (p50 / p99), " + N + " checks each\n");
        for (JWSAlgorithm alg : List.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256)) {
            JWSSigner signer = alg == JWSAlgorithm.RS256 ? new RSASSASigner(rsa) : new ECDSASigner(ec);
            List<String> jwts = distinct(alg, alg == JWSAlgorithm.RS256 ? "r" : "e", signer);
            out.append(line(alg + " first check", jwts, verifier, tokens));
            out.append(line(alg + " again (reused)", jwts, verifier, tokens));
        }
        out.append(line("bearer token, 100 stored", Collections.nCopies(N, token), verifier, tokens));
        Files.createDirectories(Path.of("target", "bench"));
        Files.writeString(Path.of("target", "bench", "auth.txt"), out);
        System.out.print(out);
    }

    private static List<String> distinct(JWSAlgorithm alg, String kid, JWSSigner signer) throws Exception {
        List<String> jwts = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).build(), new JWTClaimsSet.Builder().issuer("iss")
                    .audience("aud").subject("alice").claim("scope", "s").jwtID("j" + i)
                    .expirationTime(new Date(System.currentTimeMillis() + 600_000)).build());
            jwt.sign(signer);
            jwts.add(jwt.serialize());
        }
        return jwts;
    }

    private static String line(String what, List<String> credentials, JwtVerifier verifier, BearerTokens tokens) throws Exception {
        long[] t = new long[credentials.size()];
        for (int i = 0; i < t.length; i++) {
            String c = credentials.get(i);
            long start = System.nanoTime();
            Verdict v = c.startsWith(Tokens.PREFIX) ? tokens.check(c) : verifier.check(c);
            t[i] = System.nanoTime() - start;
            assertEquals(Verdict.Caller.class, v.getClass());
        }
        Arrays.sort(t);
        return String.format("%-28s %8.1f / %8.1f%n", what, t[t.length / 2] / 1e3, t[t.length * 99 / 100] / 1e3);
    }
}
