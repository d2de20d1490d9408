package dev.schemabrain.docs;

import dev.schemabrain.cli.Main;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/cli.md says it is generated from the jar's help: every fenced block under a "## `schemabrain X`" (or
 * "### `schemabrain X Y`") heading must equal what {@code schemabrain X --help} prints now, and the first block
 * the root help. {@code mvn test -Dtest=CliReferenceTest -Dcli.docs.write=true} rewrites the page's blocks.
 */
class CliReferenceTest {

    private static final Path DOC = Path.of("docs", "cli.md");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{2,3} `schemabrain ([a-z -]+)`\\s*\\n\\s*\\n```\\n");

    @Test
    void everyCommandBlockIsItsHelp() throws Exception {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        List<String> stale = new ArrayList<>();
        StringBuilder rewritten = new StringBuilder();
        int copied = 0;
        int blocks = 0;
        // The root help is the page's first block.
        int rootOpen = doc.indexOf("```\nUsage: schemabrain [");
        assertTrue(rootOpen >= 0, "docs/cli.md has no block with the root help");
        List<int[]> spans = new ArrayList<>();
        List<String[]> commands = new ArrayList<>();
        spans.add(new int[]{rootOpen + 4, doc.indexOf("\n```", rootOpen + 4) + 1});
        commands.add(new String[0]);
        Matcher m = HEADING.matcher(doc);
        while (m.find()) {
            int start = m.end();
            spans.add(new int[]{start, doc.indexOf("\n```", start) + 1});
            commands.add(m.group(1).trim().split(" "));
        }
        for (int i = 0; i < spans.size(); i++) {
            int[] span = spans.get(i);
            String[] command = commands.get(i);
            String documented = doc.substring(span[0], span[1]);
            String actual = help(command);
            blocks++;
            if (!documented.equals(actual)) {
                stale.add(command.length == 0 ? "schemabrain" : "schemabrain " + String.join(" ", command));
            }
            rewritten.append(doc, copied, span[0]).append(actual);
            copied = span[1];
        }
        rewritten.append(doc.substring(copied));
        if (Boolean.getBoolean("cli.docs.write") && !stale.isEmpty()) {
            Files.writeString(DOC, rewritten.toString(), StandardCharsets.UTF_8);
            return;
        }
        assertTrue(blocks > 20, "docs/cli.md should document every command; found " + blocks + " blocks");
        assertEquals(List.of(), stale, "docs/cli.md differs from --help for these commands; regenerate with"
                + " mvn test -Dtest=CliReferenceTest -Dcli.docs.write=true");
    }

    /** What {@code schemabrain COMMAND --help} prints, with a trailing newline. */
    private static String help(String[] command) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Arrays.copyOf(command, command.length + 1);
        args[command.length] = "--help";
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), Map.of(), args);
        assertEquals(0, code, "schemabrain " + String.join(" ", args) + " failed: " + err);
        String text = out.toString().replace("\r\n", "\n");
        return text.endsWith("\n") ? text : text + "\n";
    }
}
