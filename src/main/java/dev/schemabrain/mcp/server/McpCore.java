package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The MCP server's parts, assembled once and handed to whichever transport serves them: the tools, how tools/list
 * presents them (and its cache), the dispatcher's lanes, the prompts and their completions, the instructions and the
 * capabilities. Stdio and HTTP build only their own SDK server around these, and their doors ({@link CallGate},
 * {@link ModernEra}) from {@link #callGate} and {@link #modernEra}, so the two cannot drift apart.
 */
public final class McpCore implements AutoCloseable {

    private final ToolRegistry registry;
    private final ToolListing listing;
    private final String version;
    private final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    private final ToolListCache toolList;
    private final ToolDispatcher dispatcher;
    private final Prompts prompts;
    private final Completions completions;
    private final Handshake handshake;

    private McpCore(ToolRegistry registry, DispatchCapacity capacity, CallerRates rates, ToolListing listing,
                    CatalogProvider catalogs, String version) {
        this.registry = registry;
        this.listing = listing;
        this.version = version;
        McpToolAdapter.warmCodecAside(json);
        this.toolList = new ToolListCache(catalogVersion -> McpToolAdapter.definitions(registry, listing), json);
        this.dispatcher = new ToolDispatcher(registry, capacity, rates);
        this.prompts = Prompts.forTools(registry.names());
        this.completions = new Completions(catalogs, prompts);
        this.handshake = Handshake.forTools(registry.names(), version);
    }

    /**
     * @param capacity threads and queues of the catalog and source lanes
     * @param rates    how many get_metric and catalog calls one caller may make
     * @param listing  how tools/list presents the tools (full, or compact for token-priced clients)
     * @param catalogs the catalog the prompts' arguments complete from
     */
    public static McpCore of(ToolRegistry registry, DispatchCapacity capacity, CallerRates rates, ToolListing listing,
                             CatalogProvider catalogs, String version) {
        return new McpCore(registry, capacity, rates, listing, catalogs, version);
    }

    /** What initialize answers; a transport may answer it from this before the server is built. */
    public Handshake handshake() {
        return handshake;
    }

    public McpSchema.ServerCapabilities capabilities() {
        return handshake.capabilities();
    }

    /** The door's checks, for a transport whose caller is known per call ({@code access}) or per request (empty). */
    public CallGate callGate(Supplier<byte[]> listed, Optional<Supplier<Access>> access) {
        return access.map(a -> new CallGate(registry, listed, a)).orElseGet(() -> new CallGate(registry, listed));
    }

    /** The 2026-07-28 protocol's stateless requests, answered from the same parts. */
    public ModernEra modernEra(CallGate gate, Supplier<byte[]> listed, Supplier<String> catalogVersion) {
        return new ModernEra(gate, listed, catalogVersion, handshake.instructions(), version, prompts, completions);
    }

    public ToolRegistry registry() {
        return registry;
    }

    public ToolListing listing() {
        return listing;
    }

    public String version() {
        return version;
    }

    public McpJsonMapper json() {
        return json;
    }

    public ToolListCache toolList() {
        return toolList;
    }

    public ToolDispatcher dispatcher() {
        return dispatcher;
    }

    public Prompts prompts() {
        return prompts;
    }

    public Completions completions() {
        return completions;
    }

    public String instructions() {
        return handshake.instructions();
    }

    /** Stops the dispatcher's lanes. */
    @Override
    public void close() {
        dispatcher.close();
    }
}
