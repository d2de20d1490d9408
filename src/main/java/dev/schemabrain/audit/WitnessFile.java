package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.error.UnsafeFileException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The witness file an operator names with {@code --audit-witness}: one line per append, appended and
 * fsynced, 0600. Best kept on another disk or machine, or rotated by something the audited host cannot
 * rewrite. Lines of several servers may interleave out of order; each one is checked on its own.
 */
public final class WitnessFile {

    /** Names the witness file for serve, verify, rotate and doctor when --audit-witness does not. */
    public static final String ENV = "SCHEMABRAIN_AUDIT_WITNESS";

    private final Path file;

    /** The witness file: {@code --audit-witness}, else {@value #ENV}; empty when neither names one. */
    public static Optional<WitnessFile> configured(Path flag, Map<String, String> env) {
        if (flag != null) {
            return Optional.of(new WitnessFile(flag));
        }
        String named = env.get(ENV);
        return named == null || named.isBlank() ? Optional.empty() : Optional.of(new WitnessFile(Path.of(named.strip())));
    }

    public WitnessFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** Makes sure the file exists, private, before the first append. */
    void prepare() throws AuditException {
        try {
            PrivateFiles.create(file);
        } catch (UnsafeFileException e) {
            throw new AuditException(e.getMessage(), e);
        }
    }

    synchronized void append(Witness w) throws AuditException {
        try {
            PrivateFiles.check(file);
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new AuditException("The audit witness file " + file + " disappeared while the server ran; restore it"
                        + " or restart the server after schemabrain audit verify.", null);
            }
            Files.write(file, (w.line() + "\n").getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND,
                    StandardOpenOption.SYNC, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsafeFileException e) {
            throw new AuditException(e.getMessage(), e);
        } catch (IOException e) {
            throw new AuditException("The audit witness file " + file + " cannot be written (" + e.getClass().getSimpleName()
                    + "); check the disk and the file's permissions.", e);
        }
    }

    /** Every line; a line that is not a witness is reported as unreadable. */
    public record Lines(List<Witness> witnesses, List<Integer> unreadable) {
    }

    public Lines read() throws AuditException {
        try {
            PrivateFiles.check(file);
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new AuditException("There is no audit witness file at " + file + "; pass the file the server was"
                        + " started with (--audit-witness).", null);
            }
            List<Witness> out = new ArrayList<>();
            List<Integer> bad = new ArrayList<>();
            int n = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                var w = Witness.parseLine(line);
                if (w.isPresent()) {
                    out.add(w.get());
                } else {
                    bad.add(n);
                }
            }
            return new Lines(out, bad);
        } catch (UnsafeFileException e) {
            throw new AuditException(e.getMessage(), e);
        } catch (IOException e) {
            throw new AuditException("The audit witness file " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + ").", e);
        }
    }
}
