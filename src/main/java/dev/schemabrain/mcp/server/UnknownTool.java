package dev.schemabrain.mcp.server;

import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.NameSyntax;

import java.util.Collection;
import java.util.List;

/** The answer to a tools/call naming no served tool, the same over stdio and HTTP: the closest name, if any. */
public final class UnknownTool {

    private UnknownTool() {
    }

    public static String message(String name, Collection<String> toolNames) {
        List<String> close = Fuzzy.best(name, toolNames, 1);
        return "Unknown tool '" + ReadableText.clean(NameSyntax.excerpt(name)) + "'" + (close.isEmpty() ? "" : "; did you mean " + close.get(0) + "?")
                + " tools/list shows the " + toolNames.size() + " tools.";
    }
}
