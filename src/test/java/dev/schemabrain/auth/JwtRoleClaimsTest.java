package dev.schemabrain.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import org.junit.jupiter.api.Test;

import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a verified JWT gives the access policy: its roles, in order, and its other claims as text. */
class JwtRoleClaimsTest {

    private static final JWTClaimsSet CLAIMS = new JWTClaimsSet.Builder()
            .issuer("https://idp.example.test/").audience("schemabrain").subject("alice").jwtID("j1")
            .expirationTime(new Date(4_000_000_000_000L)).issueTime(new Date(1_000L)).notBeforeTime(new Date(1_000L))
            .claim("groups", List.of("staff", 7, "support", ""))
            .claim("roles", "  analyst   support ")
            .claim("employee_id", 3)
            .claim("ratio", 2.5)
            .claim("admin", false)
            .claim("regions", List.of("emea", "apac", List.of("nested")))
            .claim("address", Map.of("city", "Oslo"))
            .claim("scope", "schemabrain:read")
            .build();

    @Test
    void rolesComeFromTheConfiguredClaimAsAListOrASpaceSeparatedString() {
        assertEquals(List.of("analyst", "support"), JwtVerifier.roles(CLAIMS, "roles"));
        assertEquals(List.of("staff", "support"), JwtVerifier.roles(CLAIMS, "groups"), "only string entries, none blank");
        assertEquals(List.of(), JwtVerifier.roles(CLAIMS, "missing"));
        assertEquals(List.of(), JwtVerifier.roles(CLAIMS, "employee_id"), "a number names no role");
    }

    @Test
    void otherClaimsBecomeTextAndTheTokensOwnClaimsAreLeftOut() {
        Map<String, String> claims = JwtVerifier.claims(CLAIMS, "roles");
        assertEquals(Map.of("sub", "alice", "groups", "staff,7,support,", "employee_id", "3", "ratio", "2.5",
                "admin", "false", "regions", "emea,apac", "scope", "schemabrain:read"), claims);
        assertEquals("analyst support", JwtVerifier.claims(CLAIMS, "groups").get("roles").strip().replaceAll("\\s+", " "));
    }
}
