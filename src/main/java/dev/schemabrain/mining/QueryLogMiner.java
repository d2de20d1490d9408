package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.LogFiles;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.QueryLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.PiiRepository;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code mine-queries}: reads the source's statement statistics, analyses them against the catalog the store
 * holds for that source, merges them into the store and re-drafts the semantic joins (observed joins become
 * drafts where no foreign key joins the two entities).
 */
public final class QueryLogMiner {

    /**
     * A run's figures, as the command prints them.
     *
     * @param filters the analysis's observed filters, each with when its statements were last seen in the store
     */
    public record Report(String displayUrl, LogAnalysis.Result analysis, QueryLogRepository.MergeResult merge,
                         List<ObservedFilter> filters, Optional<ServerLogRead> serverLog) {
    }

    /**
     * What the server log files held.
     *
     * @param elsewhere statement runs of other databases, left out
     */
    public record ServerLogRead(LogFiles.Figures figures, long elsewhere) {
    }

    /**
     * What the engine reported: statements, the path of statements run by no known role or database, each role's
     * configured search_path, the reset token.
     */
    private record Logged(List<LoggedStatement> statements, List<String> searchPath, Map<String, List<String>> rolePaths,
                          Optional<String> resetToken, Optional<ServerLogRead> serverLog) {
    }

    /** Refuses a source whose engine keeps no statement statistics (before any store is opened). */
    public static void requireQueryLog(SourceUrl url) throws UserError {
        queryLog(url);
    }

    private static QueryLog queryLog(SourceUrl url) throws UserError {
        List<String> readable = Engines.all().stream().filter(e -> e.queryLog().isPresent()).map(Engine::title).toList();
        return Engines.of(url.kind()).flatMap(Engine::queryLog).orElseThrow(() -> new UserError("mine-queries reads "
                + String.join(" and ", readable) + " sources only; " + url.displayUrl() + " has no query log to read."));
    }

    /** How the engine reads statements under the server's defaults, as its log records them. */
    static Lexical loggedLexical(SourceUrl url) {
        return Engines.of(url.kind()).flatMap(Engine::sqlRules).orElseThrow(() -> new IllegalStateException(
                "an engine with a query log has SQL rules")).logged();
    }

    /** Refuses server log files for a source whose engine writes none SchemaBrain reads (before any file or store is opened). */
    public static void requireServerLog(SourceUrl url) throws UserError {
        if (!Engines.of(url.kind()).flatMap(Engine::queryLog).map(QueryLog::readsServerLog).orElse(false)) {
            throw new UserError("--log-file reads a PostgreSQL server log; " + url.displayUrl()
                    + " is not PostgreSQL, so mine its statement digests without --log-file.");
        }
    }

    /** The server log files {@code patterns} name, read by the source's engine (before any store is opened). */
    public static LogFiles readLogFiles(SourceUrl url, List<String> patterns, String prefix) throws UserError {
        requireServerLog(url);
        return queryLog(url).readLogFiles(patterns, prefix);
    }

    /** Mines {@code serverLog} when given (an engine that reads one), else the source's statement statistics. */
    public Report mine(SourceUrl url, Store store, Optional<LogFiles> serverLog) throws SourceException, StoreException, UserError {
        QueryLog log = queryLog(url);
        String sourceId = url.sourceId();
        Catalog catalog = store.read(c -> CatalogRepository.catalog(c, sourceId));
        if (catalog.tables().isEmpty()) {
            throw new UserError("The store " + store.describe() + " has no catalog for " + url.displayUrl()
                    + "; run 'schemabrain index' on that source first.");
        }
        PiiTags pii = store.read(PiiRepository::tags);
        Logged logged = read(url, log, catalog, serverLog);
        Lexical lexical = loggedLexical(url);
        LogAnalysis.Result analysis = LogAnalysis.analyze(logged.statements(), catalog, logged.searchPath(),
                logged.rolePaths(), pii, lexical);
        Instant now = Instant.now();
        QueryLogRepository.MergeResult merge = store.write(c -> {
            QueryLogRepository.deleteWhere(c, sourceId, LogAnalysis.storedByAnOlderNormalizer(catalog, logged.searchPath(), pii, lexical));
            QueryLogRepository.MergeResult r = QueryLogRepository.merge(c, sourceId, logged.resetToken(),
                    analysis.statements(), now);
            SemanticLayer.refreshDrafts(c);
            return r;
        });
        Map<String, String> lastSeen = new HashMap<>();
        store.read(c -> QueryLogRepository.all(c, sourceId)).forEach(e -> lastSeen.put(e.fingerprint(), e.lastSeenAt()));
        return new Report(url.displayUrl(), analysis, merge, ObservedFilters.seen(analysis.observedFilters(), lastSeen),
                logged.serverLog());
    }

    private static Logged read(SourceUrl url, QueryLog log, Catalog catalog, Optional<LogFiles> serverLog)
            throws SourceException {
        Engine engine = Engines.of(url.kind()).orElseThrow();
        try (Connection c = engine.connect(url, Purpose.introspection())) {
            if (serverLog.isPresent()) {
                // The log covers every database of the server: only the source's own is read. No reset token: the
                // files' counts act as a counter (the same files again add nothing; rotated-away ones count as a reset).
                String database = c.getCatalog();
                LogFiles file = serverLog.get();
                return new Logged(file.statements(database), List.of(), log.rolePaths(c), Optional.empty(),
                        Optional.of(new ServerLogRead(file.figures(), file.elsewhere(database))));
            }
            Set<String> schemas = new LinkedHashSet<>();
            catalog.tables().forEach(t -> schemas.add(t.name().schema()));
            QueryLog.Read read = log.read(c, url, schemas);
            return new Logged(read.statements(), read.searchPath(), read.rolePaths(), read.resetToken(), Optional.empty());
        } catch (SQLException e) {
            throw failure(e, url, engine, log);
        }
    }

    private static SourceException failure(SQLException e, SourceUrl url, Engine engine, QueryLog log) {
        Failure failure = engine.classify(e);
        String reason = e.getMessage() == null ? "no detail" : e.getMessage().strip().lines().findFirst().orElse("");
        if (url.hasPassword()) {
            reason = reason.replace(url.password(), "****");
        }
        String hint = switch (failure) {
            case AUTH_FAILED -> "check the user name and password";
            case UNKNOWN_HOST, UNREACHABLE -> "check that the server is running and the host and port are right";
            case PERMISSION -> log.grantHint();
            default -> "check the URL and the server log";
        };
        return new SourceException("Could not read the query log of " + url.displayUrl() + " (" + reason + "); " + hint + ".", e);
    }
}
