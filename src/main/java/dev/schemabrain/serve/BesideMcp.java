package dev.schemabrain.serve;

import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.transport.http.HttpService;

import java.util.function.Function;

/**
 * An application serve mounts beside /mcp on its listener (the team's console, serve --console), built from what
 * the serve opened, so it shares the one audit chain and catalog rather than opening its own.
 */
@FunctionalInterface
public interface BesideMcp {

    /**
     * @param audit    serve's audit chain
     * @param tools    every tool over a catalog (serve's own, or one with a reviewer's edit), whatever --tools serves
     *                 to agents, audited into {@code audit}
     * @param catalogs the catalog the tools answer from
     */
    HttpService.Beside build(AuditLog audit, Function<CatalogProvider, ToolRegistry> tools, CatalogProvider catalogs);
}
