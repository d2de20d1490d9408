package dev.schemabrain.cli;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.LogFiles;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.mining.LogAnalysis;
import dev.schemabrain.mining.QueryLogMiner;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code schemabrain mine-queries}: the source's query log into the store. */
@Command(name = "mine-queries", mixinStandardHelpOptions = true,
        description = {"Read the source's statement statistics (PostgreSQL pg_stat_statements, MySQL/MariaDB"
                + " performance_schema digests) into the store: examples for get_example_queries, observed joins for"
                + " suggest_joins and the semantic layer.",
                "With --log-file, read a PostgreSQL server log instead (csvlog, jsonlog or stderr, written with"
                        + " log_statement = 'all' or log_min_duration_statement = 0): it keeps the constants that"
                        + " pg_stat_statements replaces, so more examples run as they are.",
                "Index the source first. Literals never reach the store, except ordinals, date units and formats, and"
                        + " values the catalog already shows for a non-PII column. Unqualified names resolve through each"
                        + " role's search_path or the statement's default database. Re-running adds only what ran since;"
                        + " counts survive a statistics reset."})
final class MineQueriesCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions source;

    @Option(names = "--log-file", paramLabel = "PATH",
            description = "A PostgreSQL server log file to read instead of pg_stat_statements; repeatable, and the file"
                    + " name may be a glob (quote it: 'pg_log/postgresql-*.csv'). Only the source's database is read.")
    List<String> logFiles = new ArrayList<>();

    @Option(names = "--log-line-prefix", paramLabel = "PREFIX",
            description = "The server's log_line_prefix, for stderr-format files; it must have %%u and %%d. Default:"
                    + " recognise '%%m [%%p] %%q%%u@%%d ' and pgBadger's 'user=%%u,db=%%d' prefixes.")
    String logLinePrefix;

    @Override
    public Integer call() throws SourceException, StoreException, UserError {
        if (!source.given()) {
            throw new UserError("mine-queries needs the source: pass --source URL or --url-env VAR.");
        }
        SourceUrl url = source.resolve(main.env, main.err());
        QueryLogMiner.requireQueryLog(url);
        Optional<LogFiles> serverLog = Optional.empty();
        if (!logFiles.isEmpty()) {
            // A bad file refuses before the store opens.
            serverLog = Optional.of(QueryLogMiner.readLogFiles(url, logFiles, logLinePrefix));
        } else if (logLinePrefix != null) {
            throw new UserError("--log-line-prefix describes the files of --log-file; pass the log files too.");
        }
        QueryLogMiner.Report report;
        try (Store store = Stores.open(main.store())) {
            report = new QueryLogMiner().mine(url, store, serverLog);
        }
        print(main.out(), report);
        return 0;
    }

    static void print(PrintWriter out, QueryLogMiner.Report r) {
        LogAnalysis.Result a = r.analysis();
        out.printf("Mined the query log of %s%n", r.displayUrl());
        r.serverLog().ifPresent(l -> out.printf("  server log        %7d statements run in %d file(s): %d in other databases,"
                        + " left out; %d prepare/bind steps not counted%n", l.figures().statements(), l.figures().files(),
                l.elsewhere(), l.figures().steps()));
        out.printf("  statements read   %7d (%d SchemaBrain's own, skipped)%n", a.read(), a.own());
        out.printf("  parsed            %7d, %d not parsed: parse rate %s%%%n", a.parsed(), a.failed(),
                String.format(Locale.ROOT, "%.1f", 100 * a.parseRate()));
        out.printf("  not about tables  %7d (session, DDL, system catalogs, other schemas)%n", a.elsewhere());
        out.printf("  skipped           %7d with a table name no indexed schema has, %d with a name several schemas have%n",
                a.unresolved(), a.ambiguous());
        out.printf("  examples stored   %7d SELECT, %d write statements%n", a.examples(), a.writes());
        out.printf("  joins observed    %7d%n", a.joins());
        out.printf("  observations      %7d added (%d new statements, %d seen before)%s%n", r.merge().observationsAdded(),
                r.merge().inserted(), r.merge().updated(),
                r.merge().resetDetected() ? "; a statistics reset was detected and counting continued" : "");
        out.printf("  filters observed  %7d%n", r.filters().size());
        r.filters().stream().limit(TOP_FILTERS).forEach(f -> out.printf("    %s  (%d statements, %d observations, last seen %s)%n",
                f.describe(), f.statements(), f.observations(), f.lastSeen()));
    }

    /** The most used filters the summary lists: enough to see what segments the workload implies. */
    private static final int TOP_FILTERS = 5;
}
