package dev.schemabrain.access;

import dev.schemabrain.error.SchemaBrainException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The access policy a server enforces now: read from its file at start (a bad or unsafe file stops the
 * start), then looked at again at most once a second, by one caller while the others go on with the policy
 * in force. A changed file (its modification time, size, file key or permissions) is read again; a reload that fails
 * keeps the old policy and says why once on stderr, one sentence, until the file changes again.
 */
public final class AccessPolicySource {

    static final long CHECK_NANOS = 1_000_000_000L;

    private record Stamp(long modifiedMillis, long size, Object key, Object permissions) {
    }

    private record Loaded(AccessPolicy policy, Stamp stamp) {
    }

    private final Path file;
    private final Consumer<String> warn;
    private final LongSupplier nanoClock;
    private final ReentrantLock checking = new ReentrantLock();
    private volatile Loaded loaded;
    private volatile long checkedAt;
    /** The stamp of the file whose reload failed, so its sentence is said once. */
    private Stamp refused;

    private AccessPolicySource(Path file, Consumer<String> warn, LongSupplier nanoClock, Loaded first) {
        this.file = file;
        this.warn = warn;
        this.nanoClock = nanoClock;
        this.loaded = first;
        this.checkedAt = nanoClock.getAsLong();
    }

    /** Reads {@code file} now; a missing, unsafe or invalid policy is refused with one sentence. */
    public static AccessPolicySource open(Path file) throws SchemaBrainException {
        return open(file, System.err::println, System::nanoTime);
    }

    static AccessPolicySource open(Path file, Consumer<String> warn, LongSupplier nanoClock) throws SchemaBrainException {
        Objects.requireNonNull(file, "file");
        Stamp stamp = stamp(file);
        AccessPolicy policy = AccessPolicyFile.read(file);
        return new AccessPolicySource(file, warn, nanoClock, new Loaded(policy, stamp));
    }

    public Path file() {
        return file;
    }

    /** The policy in force: the file's, as last read successfully. */
    public AccessPolicy policy() {
        long now = nanoClock.getAsLong();
        if (now - checkedAt >= CHECK_NANOS && checking.tryLock()) {
            try {
                if (now - checkedAt >= CHECK_NANOS) {
                    reloadIfChanged();
                    checkedAt = nanoClock.getAsLong();
                }
            } finally {
                checking.unlock();
            }
        }
        return loaded.policy();
    }

    /** What {@code caller} may reach under the policy in force. */
    public Access resolve(Caller caller) {
        return policy().resolve(caller);
    }

    private void reloadIfChanged() {
        Stamp now = stamp(file);
        if (now.equals(loaded.stamp()) || now.equals(refused)) {
            return;
        }
        try {
            AccessPolicy policy = AccessPolicyFile.read(file);
            loaded = new Loaded(policy, now);
            refused = null;
            warn.accept("The access policy " + file + " changed and was reloaded: " + policy.roles().size() + " role"
                    + (policy.roles().size() == 1 ? "" : "s") + ".");
        } catch (SchemaBrainException e) {
            refused = now;
            String why = e.getMessage();
            warn.accept("Keeping the previous access policy because " + Character.toLowerCase(why.charAt(0)) + why.substring(1));
        }
    }

    /**
     * What tells a change, from one stat: modification time, size, the file key (a replaced file) and the
     * permissions (a file made private again); a missing file is a stamp too.
     */
    private static Stamp stamp(Path file) {
        try {
            BasicFileAttributes a;
            Object permissions = null;
            try {
                PosixFileAttributes posix = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                permissions = posix.permissions();
                a = posix;
            } catch (UnsupportedOperationException notPosix) {
                a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
            return new Stamp(a.lastModifiedTime().toMillis(), a.size(), a.fileKey(), permissions);
        } catch (IOException e) {
            return new Stamp(-1, -1, null, null);
        }
    }
}
