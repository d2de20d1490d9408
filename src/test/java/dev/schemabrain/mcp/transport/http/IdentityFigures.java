package dev.schemabrain.mcp.transport.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The figure lines of the identity and HTTP suite, in target/security/identity.txt: one line per figure,
 * replaced by the next run that measures it, so a report can quote them.
 */
final class IdentityFigures {

    private static final Path FILE = Path.of("target", "security", "identity.txt");

    private IdentityFigures() {
    }

    /** Records {@code label: held / tried}. */
    static synchronized void record(String label, int held, int tried) {
        try {
            Files.createDirectories(FILE.getParent());
            List<String> lines = new ArrayList<>(Files.exists(FILE) ? Files.readAllLines(FILE, StandardCharsets.UTF_8) : List.of());
            lines.removeIf(l -> l.startsWith(label + ":"));
            lines.add(label + ": " + held + " / " + tried);
            lines.sort(null);
            Files.write(FILE, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
