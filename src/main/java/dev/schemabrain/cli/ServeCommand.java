package dev.schemabrain.cli;

import dev.schemabrain.mcp.server.StdioServer;
import dev.schemabrain.mcp.tools.ServedCatalog;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.mcp.tools.StoreCatalogProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code schemabrain serve}: the MCP server over the store. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the store to an MCP client (Claude Desktop, Cursor, Claude Code, ...) over stdio.",
                "stdout carries only MCP frames; logs go to stderr. Stops when stdin closes.",
                "Starts even before anything is indexed: tools then answer index_not_ready."})
final class ServeCommand implements Callable<Integer> {

    enum Transport { stdio }

    @ParentCommand
    Main main;

    @Option(names = "--transport", defaultValue = "stdio", paramLabel = "KIND",
            description = "How clients connect: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Transport transport;

    @Override
    public Integer call() throws InterruptedException {
        StoreCatalogProvider catalogs = new StoreCatalogProvider(main.store);
        // Load the catalog, the embedding model and the search index while the client initializes, so the
        // first tool call does not pay for them.
        Thread warm = new Thread(() -> catalogs.current().ifPresent(ServedCatalog::retriever), "schemabrain-warm");
        warm.setDaemon(true);
        warm.start();
        PrintStream frames = System.out;
        // Nothing but the SDK may write to the real stdout; anything else printed lands on stderr.
        System.setOut(System.err);
        StdioServer.run(StandardTools.registry(catalogs), Version.get(), System.in, frames);
        return 0;
    }
}
