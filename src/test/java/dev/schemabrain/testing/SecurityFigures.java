package dev.schemabrain.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The figure lines of the mining, LLM and store-ownership suites (issue 29, items 13–15), in
 * target/security/mining-llm-store.txt: one line per figure, replaced by the next run that measures it.
 */
public final class SecurityFigures {

    private static final Path FILE = Path.of("target", "security", "mining-llm-store.txt");

    private SecurityFigures() {
    }

    /** Records {@code label: held / tried}. */
    public static synchronized void record(String label, int held, int tried) throws IOException {
        Files.createDirectories(FILE.getParent());
        List<String> lines = new ArrayList<>(Files.exists(FILE) ? Files.readAllLines(FILE, StandardCharsets.UTF_8) : List.of());
        lines.removeIf(l -> l.startsWith(label + ":"));
        lines.add(label + ": " + held + " / " + tried);
        lines.sort(null);
        Files.write(FILE, lines, StandardCharsets.UTF_8);
    }
}
