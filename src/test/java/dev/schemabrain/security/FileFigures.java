package dev.schemabrain.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The figure lines of the file-hygiene suites, in target/security/files.txt: one line per figure,
 * replaced by the next run of the suite that measures it, so the closing note can quote them.
 */
final class FileFigures {

    private static final Path FILE = Path.of("target", "security", "files.txt");

    private FileFigures() {
    }

    /** Records {@code label: held / tried}. */
    static synchronized void record(String label, int held, int tried) throws IOException {
        Files.createDirectories(FILE.getParent());
        List<String> lines = new ArrayList<>(Files.exists(FILE) ? Files.readAllLines(FILE, StandardCharsets.UTF_8) : List.of());
        lines.removeIf(l -> l.startsWith(label + ":"));
        lines.add(label + ": " + held + " / " + tried);
        lines.sort(null);
        Files.write(FILE, lines, StandardCharsets.UTF_8);
    }
}
