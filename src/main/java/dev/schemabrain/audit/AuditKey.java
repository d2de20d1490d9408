package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.error.UnsafeFileException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The secret that keys the audit chain, kept outside the audit file and the store: from the
 * environment variable {@value #ENV}, or from a key file (0600 in a 0700 directory; by default
 * {@code $XDG_CONFIG_HOME/schemabrain/audit.key}, else {@code ~/.config/schemabrain/audit.key}).
 * Keys are given as hex or base64 (standard or URL-safe) text of at least 32 bytes. Separate keys are
 * derived for the chain, the argument hashes, the SQL fingerprints and the witness, so one use can never answer for another.
 * The key itself is never printed: {@link #toString()} shows only its id.
 */
public final class AuditKey {

    public static final String ENV = "SCHEMABRAIN_AUDIT_KEY";
    public static final int MIN_BYTES = 32;

    private final byte[] chain;
    private final byte[] args;
    private final byte[] witness;
    private final byte[] fingerprint;
    private final String id;

    private AuditKey(byte[] master) {
        this.chain = hmac(master, bytes("schemabrain audit chain v1"));
        this.args = hmac(master, bytes("schemabrain audit arguments v1"));
        this.witness = hmac(master, bytes("schemabrain audit witness v1"));
        this.fingerprint = hmac(master, bytes("schemabrain audit sql fingerprint v1"));
        this.id = HexFormat.of().formatHex(hmac(master, bytes("schemabrain audit key id v1")), 0, 8);
        Arrays.fill(master, (byte) 0);
    }

    /** A key from its raw bytes (at least {@value #MIN_BYTES}). */
    public static AuditKey of(byte[] master) {
        if (master.length < MIN_BYTES) {
            throw new IllegalArgumentException("an audit key needs at least " + MIN_BYTES + " bytes");
        }
        return new AuditKey(master.clone());
    }

    /** A public, stable name of the key: the first 8 bytes of an HMAC of a constant, in hex. */
    public String id() {
        return id;
    }

    /** HMAC-SHA256 of the parts under the chain key. */
    byte[] chainMac(byte[]... parts) {
        return hmac(chain, parts);
    }

    byte[] argsMac(byte[] part) {
        return hmac(args, part);
    }

    byte[] witnessMac(byte[] part) {
        return hmac(witness, part);
    }

    byte[] fingerprintMac(byte[] part) {
        return hmac(fingerprint, part);
    }

    @Override
    public String toString() {
        return "AuditKey[" + id + "]";
    }

    /** Where the key file is when no --audit-key names one. */
    public static Path defaultFile(Map<String, String> env) {
        String xdg = env.get("XDG_CONFIG_HOME");
        Path config = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".config");
        return config.resolve("schemabrain").resolve("audit.key");
    }

    /**
     * The key for a command: the file named by {@code --audit-key}, else the environment variable, else
     * the default file. {@code create}: a missing key file is generated (only {@code serve} does that).
     */
    public static AuditKey resolve(Optional<Path> keyFile, Map<String, String> env, boolean create) throws AuditException {
        if (keyFile.isEmpty()) {
            String fromEnv = env.get(ENV);
            if (fromEnv != null && !fromEnv.isBlank()) {
                return new AuditKey(decode(fromEnv, "the environment variable " + ENV));
            }
        }
        Path file = keyFile.orElseGet(() -> defaultFile(env));
        try {
            PrivateFiles.checkSecret(file);
            if (!Files.exists(file)) {
                if (!create) {
                    throw new AuditException("There is no audit key at " + file + " (and " + ENV + " is not set); pass the key"
                            + " the log was written with: --audit-key FILE or " + ENV + ".", null);
                }
                generate(file);
                PrivateFiles.checkSecret(file);
            }
            return new AuditKey(decode(Files.readString(file, StandardCharsets.US_ASCII), "the key file " + file));
        } catch (UnsafeFileException e) {
            throw new AuditException(e.getMessage(), e);
        } catch (IOException e) {
            throw new AuditException("The audit key file " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + "); check the file and its permissions.", e);
        }
    }

    /**
     * Writes a fresh key unless another process just did: the key is written to a private temporary
     * file and linked into place, which fails if the file exists, so two first serves agree on one key.
     */
    private static void generate(Path file) throws UnsafeFileException, IOException {
        byte[] fresh = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(fresh);
        Path dir = PrivateFiles.directory(file.toAbsolutePath().getParent());
        Path tmp = dir.resolve("." + file.getFileName() + "." + HexFormat.of().formatHex(fresh, 0, 4) + ".tmp");
        PrivateFiles.write(tmp, (HexFormat.of().formatHex(fresh) + "\n").getBytes(StandardCharsets.US_ASCII));
        Arrays.fill(fresh, (byte) 0);
        try {
            Files.createLink(file, tmp);
        } catch (FileAlreadyExistsException anotherServeWon) {
            // Its key is read below, like any existing key.
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Hex, or base64 (standard or URL-safe, padded or not); at least 32 bytes. The text is never echoed. */
    static byte[] decode(String text, String where) throws AuditException {
        String t = text.strip();
        byte[] key = null;
        if (t.matches("[0-9a-fA-F]+") && t.length() % 2 == 0) {
            key = HexFormat.of().parseHex(t);
        } else {
            for (Base64.Decoder d : new Base64.Decoder[]{Base64.getDecoder(), Base64.getUrlDecoder()}) {
                try {
                    key = d.decode(t);
                    break;
                } catch (IllegalArgumentException notThis) {
                    // try the other alphabet
                }
            }
        }
        if (key == null || key.length < MIN_BYTES) {
            throw new AuditException("The audit key in " + where + " is not at least " + MIN_BYTES + " bytes of hex or base64;"
                    + " generate one with: head -c 32 /dev/urandom | base64.", null);
        }
        return key;
    }

    static byte[] hmac(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] p : parts) {
                mac.update(p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
