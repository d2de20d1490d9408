package dev.schemabrain.serve;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tools.ToolGroups;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.store.StoreLocation;

import java.time.Duration;
import java.util.Optional;

/**
 * What a serve runs with, every option already validated.
 *
 * @param auditKey empty when there is no store: every tool then answers index_not_ready, nothing is read, so
 *                 nothing is recorded and no audit log is opened
 * @param http     empty to serve over stdio
 * @param accessPolicy the roles callers are limited to (serve --access-policy); empty: no limits
 * @param stdioCaller the one caller over stdio: {@code stdio}, with serve --role and --claim
 * @param tools    the groups of tools served (serve --tools)
 * @param beside   over HTTP with a store, an application served beside /mcp (serve --console)
 */
public record ServeSettings(StoreLocation store, Optional<BlockList> blockList, Optional<AuditKey> auditKey,
                            Optional<WitnessFile> witness, AuditDurability auditFsync, CallerRates rates,
                            int maxConcurrentQueries, int minGroupSize, ToolListing listing, Duration statsInterval,
                            String version, Optional<HttpOptions> http, Optional<AccessPolicySource> accessPolicy,
                            Caller stdioCaller, ToolGroups tools, Optional<BesideMcp> beside) {

    /** Without an access policy: every caller reaches everything, as before roles existed. */
    public ServeSettings(StoreLocation store, Optional<BlockList> blockList, Optional<AuditKey> auditKey,
                         Optional<WitnessFile> witness, AuditDurability auditFsync, CallerRates rates,
                         int maxConcurrentQueries, int minGroupSize, ToolListing listing, Duration statsInterval,
                         String version, Optional<HttpOptions> http) {
        this(store, blockList, auditKey, witness, auditFsync, rates, maxConcurrentQueries, minGroupSize, listing,
                statsInterval, version, http, Optional.empty(), Caller.named(StdioServer.CALLER), ToolGroups.ALL,
                Optional.empty());
    }

    /** The same settings under {@code policy}, with {@code stdioCaller} the one caller over stdio. */
    public ServeSettings withAccessPolicy(AccessPolicySource policy, Caller stdioCaller) {
        return new ServeSettings(store, blockList, auditKey, witness, auditFsync, rates, maxConcurrentQueries,
                minGroupSize, listing, statsInterval, version, http, Optional.of(policy), stdioCaller, tools, beside);
    }

    /** The same settings serving only the tools of {@code groups}. */
    public ServeSettings withTools(ToolGroups groups) {
        return new ServeSettings(store, blockList, auditKey, witness, auditFsync, rates, maxConcurrentQueries,
                minGroupSize, listing, statsInterval, version, http, accessPolicy, stdioCaller, groups, beside);
    }

    /** The same settings with {@code app} served beside /mcp. */
    public ServeSettings withBeside(BesideMcp app) {
        return new ServeSettings(store, blockList, auditKey, witness, auditFsync, rates, maxConcurrentQueries,
                minGroupSize, listing, statsInterval, version, http, accessPolicy, stdioCaller, tools, Optional.of(app));
    }

    /** Whether calls are served from a store (and recorded in its audit log). */
    public boolean hasStore() {
        return auditKey.isPresent();
    }
}
