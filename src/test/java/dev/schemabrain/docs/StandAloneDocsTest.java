package dev.schemabrain.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README.md and docs/ stand alone: they cite no document a reader of the repository does not have
 * (a specification's sections, a charter, a seed document, the project's issue numbers).
 */
class StandAloneDocsTest {

    // SPEC in capitals (the MCP spec is a public one); "charter" as a word, not the envelope's charter_version field; an upstream "java-sdk issue #936" is a link, not ours.
    private static final Pattern OUTSIDE = Pattern.compile(
            "\\bSPEC\\b|§|(?i:\\bcharter\\b|\\bthe seed\\b|\\bseed-\\d|\\bissue \\d+)");

    @Test
    void readmeAndDocsCiteNoOutsideDocument() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> found = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                var m = OUTSIDE.matcher(lines.get(i));
                if (m.find()) {
                    found.add(page + ":" + (i + 1) + ": \"" + m.group() + "\"");
                }
            }
        }
        assertTrue(pages.size() > 5, "docs/ was not read: " + pages);
        assertTrue(found.isEmpty(), "README/docs cite documents the repository does not have (say it in place instead):\n"
                + String.join("\n", found));
    }
}
