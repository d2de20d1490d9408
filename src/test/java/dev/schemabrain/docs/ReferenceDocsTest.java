package dev.schemabrain.docs;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reference pages a user reads name every tool, argument and error kind the server really has. */
class ReferenceDocsTest {

    private static final ToolRegistry TOOLS = StandardTools.registry(new StoreCatalogProvider(Path.of("target", "no-store.db")), Optional.empty());

    @Test
    void theToolReferenceHasASectionPerToolNamingEachArgument() throws Exception {
        String doc = Files.readString(Path.of("docs", "tools.md"));
        for (Tool tool : TOOLS.tools()) {
            String name = tool.spec().name();
            int at = doc.indexOf("## `" + name + "`");
            assertTrue(at >= 0, "docs/tools.md has no section for " + name);
            int next = doc.indexOf("\n## ", at + 1);
            String section = doc.substring(at, next < 0 ? doc.length() : next);
            for (String arg : tool.spec().arguments().args().keySet()) {
                assertTrue(section.contains("`" + arg + "`"), "docs/tools.md does not describe " + name + "'s argument " + arg);
            }
        }
    }

    @Test
    void theEnvelopeContractNamesEveryErrorKind() throws Exception {
        String doc = Files.readString(Path.of("docs", "envelope.md"));
        for (ErrorKind kind : ErrorKind.values()) {
            assertTrue(doc.contains("`" + kind.wireName() + "`"), "docs/envelope.md does not name the error kind " + kind.wireName());
        }
    }
}
