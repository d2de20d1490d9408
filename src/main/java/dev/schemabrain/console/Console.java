package dev.schemabrain.console;

import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.mcp.server.AuditedCalls;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.store.StoreLocation;

import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A running console: the source's executor, the store's audit chain (opened for appending under the operator's key,
 * as serve opens it), the tools get_metric runs through, and the web server. Closing it closes them all.
 */
public final class Console implements AutoCloseable {

    /**
     * What a console is started with.
     *
     * @param source       the database get_metric runs on; without one each draft's answer says it needs it
     * @param reviewer     who signs the verdicts
     * @param asOf         the last-12-months answers end the day before this one
     * @param piiPolicy    the PII policy file the PII page writes, as {@code policy tag --file} writes it
     * @param accessPolicy the access policy the roles page explains (serve's --access-policy); empty: none
     * @param project      the semantic project directory every verdict is also written into, as export writes it
     */
    public record Settings(StoreLocation store, Optional<SourceUrl> source, AuditKey key, String reviewer, LocalDate asOf,
                           String host, int port, Path piiPolicy, Optional<Path> accessPolicy, Optional<Path> project) {
        public Settings {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reviewer, "reviewer");
            Objects.requireNonNull(asOf, "asOf");
            Objects.requireNonNull(piiPolicy, "piiPolicy");
            Objects.requireNonNull(accessPolicy, "accessPolicy");
            Objects.requireNonNull(project, "project");
        }
    }

    private final Optional<QueryExecutor> executor;
    private final AuditLog audit;
    private final ConsoleServer server;
    /** Ctrl-C's hook and the command's own close both come here: the chain is closed once. */
    private final AtomicBoolean closed = new AtomicBoolean();

    private Console(Optional<QueryExecutor> executor, AuditLog audit, ConsoleServer server) {
        this.executor = executor;
        this.audit = audit;
        this.server = server;
    }

    public static Console start(Settings settings) throws Exception {
        Optional<QueryExecutor> executor = settings.source().map(url -> new QueryExecutor(url, ExecutorSettings.defaults()));
        AuditLog audit = null;
        try {
            audit = AuditLog.open(settings.store(), settings.key(), Optional.empty(), AuditDurability.EVERY_ROW);
            StoreCatalogProvider catalogs = new StoreCatalogProvider(settings.store(), Optional.empty());
            AuditLog chain = audit;
            Function<CatalogProvider, ToolRegistry> tools =
                    over -> StandardTools.registry(over, executor).audited(new AuditedCalls(chain, settings.key(),
                            executor.map(QueryExecutor::sourceId).orElse(null)));
            DraftReview review = new DraftReview(settings.store(), catalogs, tools, settings.project(), audit, settings.key(),
                    settings.reviewer(), settings.asOf(), Clock.systemUTC());
            PolicyRoutes policies = new PolicyRoutes(new PiiReview(settings.store(), settings.piiPolicy(), catalogs, audit,
                    settings.key()), settings.store(), settings.accessPolicy());
            ConsoleServer server = ConsoleServer.start(settings.host(), settings.port(), new ConsoleSessions(Clock.systemUTC()),
                    review, new AuditTimeline(audit, settings.store(), settings.key()), catalogs, policies);
            return new Console(executor, audit, server);
        } catch (Exception | Error e) {
            if (audit != null) {
                audit.close();
            }
            executor.ifPresent(QueryExecutor::close);
            throw e;
        }
    }

    public int port() {
        return server.port();
    }

    /** The one-time sign-in address; print it once, never log it. */
    public String loginUrl() {
        return server.loginUrl();
    }

    public void join() throws InterruptedException {
        server.join();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.close();
        audit.close();
        executor.ifPresent(QueryExecutor::close);
    }
}
