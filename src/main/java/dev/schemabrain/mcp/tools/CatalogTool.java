package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolSpec;

import java.util.Optional;

/**
 * A tool that answers from the indexed catalog: index_not_ready when nothing is indexed or the catalog is still
 * loading past the bound a call waits for it, otherwise
 * {@link #answer} on the current snapshot.
 */
abstract class CatalogTool implements Tool {

    private final ToolSpec spec;
    private final CatalogProvider catalogs;

    CatalogTool(ToolSpec spec, CatalogProvider catalogs) {
        this.spec = spec;
        this.catalogs = catalogs;
    }

    @Override
    public final ToolSpec spec() {
        return spec;
    }

    @Override
    public final Envelope call(Arguments arguments, ToolCall call) {
        Optional<ServedCatalog> served;
        try {
            served = catalogs.current();
        } catch (CatalogProvider.StillLoading e) {
            return Replies.stillLoading(spec.name(), arguments.raw());
        }
        // Every tool answers from the caller's view: what its role may not see is not there to list, score or suggest.
        return served.isEmpty() ? Replies.indexNotReady() : answer(arguments, served.get().scopedTo(call.access()), call);
    }

    /** Answers a validated call against a non-empty catalog; a tool that sends SQL overrides this one. */
    Envelope answer(Arguments arguments, ServedCatalog served, ToolCall call) {
        return answer(arguments, served);
    }

    /** Answers a validated call against a non-empty catalog. */
    abstract Envelope answer(Arguments arguments, ServedCatalog served);
}
