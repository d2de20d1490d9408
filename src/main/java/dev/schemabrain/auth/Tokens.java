package dev.schemabrain.auth;

import dev.schemabrain.error.UserError;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
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

    /** Refuses a name that is empty, too long, or has characters other than letters, digits, '.', '_' and '-'. */
    public static String checkName(String name) throws UserError {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            throw new UserError("A token name is 1 to " + MAX_NAME + " letters, digits, '.', '_' or '-', starting with a"
                    + " letter or digit; choose another name.");
        }
        return name;
    }
}
