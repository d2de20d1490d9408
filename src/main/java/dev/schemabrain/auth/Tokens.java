package dev.schemabrain.auth;

import dev.schemabrain.error.UserError;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/** Bearer tokens: how one is made, named and hashed. Only the hash is ever stored. */
public final class Tokens {

    /** Marks a SchemaBrain token, so a leaked one is recognizable (secret scanners, logs) and never taken for a JWT. */
    public static final String PREFIX = "sbt_";

    private static final int RANDOM_BYTES = 32;
    private static final int MAX_NAME = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** A new token: the prefix and 32 random bytes in URL-safe base64 (256 bits, so hashing needs no salt or stretching). */
    static String newToken() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The hex SHA-256 of the token's UTF-8 bytes: what the store keeps. */
    static String hash(String token) {
        return HexFormat.of().formatHex(digest(token));
    }

    static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.$-]*");
    private static final Pattern CLAIM = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.:-]*");
    private static final int MAX_CLAIM_VALUE = 256;
    private static final int MAX_CLAIMS = 32;

    /** Refuses a role name the access policy could not define (1 to 64 letters, digits, '_', '.', '$', '-'). */
    public static String checkRole(String role) throws UserError {
        if (role == null || role.length() > MAX_NAME || !ROLE.matcher(role).matches() || role.equals("none")) {
            throw new UserError("A role is 1 to " + MAX_NAME + " letters, digits, '_', '.', '$' or '-', as the access"
                    + " policy names it (and not none); check --role.");
        }
        return role;
    }

    /**
     * Refuses claims a row filter could not use: a name of letters, digits, '_', '.', ':', '-', a value of at
     * most 256 printable characters, at most 32 claims.
     */
    public static Map<String, String> checkClaims(Map<String, String> claims) throws UserError {
        if (claims.size() > MAX_CLAIMS) {
            throw new UserError("A credential carries at most " + MAX_CLAIMS + " claims; keep the ones the row filters use.");
        }
        for (Map.Entry<String, String> c : claims.entrySet()) {
            if (c.getKey().length() > MAX_NAME || !CLAIM.matcher(c.getKey()).matches()) {
                throw new UserError("A claim name is 1 to " + MAX_NAME + " letters, digits, '_', '.', ':' or '-';"
                        + " write --claim name=value.");
            }
            String v = c.getValue();
            if (v.isEmpty() || v.length() > MAX_CLAIM_VALUE || v.chars().anyMatch(ch -> Character.isISOControl(ch)
                    || Character.getType(ch) == Character.FORMAT)) {
                throw new UserError("The claim " + c.getKey() + " needs a value of 1 to " + MAX_CLAIM_VALUE
                        + " printable characters; write --claim " + c.getKey() + "=value.");
            }
        }
        return claims;
    }

    /** Refuses a name that is empty, too long, or has characters other than letters, digits, '.', '_' and '-'. */
    public static String checkName(String name) throws UserError {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            throw new UserError("A token name is 1 to " + MAX_NAME + " letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit; choose another name.");
        }
        return name;
    }
}
