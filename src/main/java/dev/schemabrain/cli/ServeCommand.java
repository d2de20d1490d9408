package dev.schemabrain.cli;

import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.auth.AuthFilter;
import dev.schemabrain.auth.Tokens;
import dev.schemabrain.console.TeamConsole;
import dev.schemabrain.error.ExecutionException;
import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.schemabrain.access.AccessPolicySource;
import dev.schemabrain.access.Caller;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.mcp.server.Handshake;
import dev.schemabrain.mcp.transport.stdio.StdioDoor;
import dev.schemabrain.mcp.transport.stdio.StdioServer;
import dev.schemabrain.pii.BlockList;
import dev.schemabrain.serve.BesideMcp;
import dev.schemabrain.store.ServedSource;
import dev.schemabrain.pii.PiiCategory;

import dev.schemabrain.mcp.transport.http.HttpOptions;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.RateLimit;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.mcp.tools.ToolGroups;
import dev.schemabrain.serve.ServeLifecycle;
import dev.schemabrain.serve.ServeSettings;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** {@code schemabrain serve}: the MCP server over the store. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the store to an MCP client (Claude Desktop, Cursor, Claude Code, ...) over stdio,"
                + " or to many clients over Streamable HTTP (--transport http).",
                "Over stdio, stdout carries only MCP frames and the server stops when stdin closes; over HTTP it"
                + " serves /mcp, /health and /metrics until stopped (SIGTERM). Logs go to stderr.",
                "Starts even before anything is indexed: tools then answer index_not_ready."},
        resourceBundle = "dev.schemabrain.cli.ServeCommand")
final class ServeCommand implements Callable<Integer> {

    enum Transport { stdio, http }

    @ParentCommand
    Main main;

    @Option(names = "--transport", defaultValue = "stdio", paramLabel = "KIND",
            description = "How clients connect: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Transport transport;

    @Mixin
    SourceOptions.Several sources;

    @Option(names = "--statement-timeout-ms", defaultValue = "30000", paramLabel = "MS",
            description = "Stop a metric query after this long (default: ${DEFAULT-VALUE}).")
    int statementTimeoutMs;

    @Option(names = "--max-rows-per-result", defaultValue = "10000", paramLabel = "N",
            description = "Return at most this many rows; more makes the answer partial (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(names = "--max-result-bytes", defaultValue = "4194304", paramLabel = "BYTES",
            description = "Return at most this many bytes of cell data in one execute or get_metric answer; rows past it"
                    + " are left out and the answer is partial, saying where it was cut (default: ${DEFAULT-VALUE}).")
    long maxResultBytes;

    @Option(names = "--max-concurrent-queries", defaultValue = "8", paramLabel = "N",
            description = "Metric queries running at once; twice as many more wait, and calls past that are told"
                    + " source_busy at once (default: ${DEFAULT-VALUE}).")
    int maxConcurrent;

    @Option(names = "--metric-rate-limit", defaultValue = "1/s", paramLabel = "RATE",
            description = "get_metric calls one caller (one credential) may make, as N/s, N/min or N/h, or off; calls past it and the"
                    + " burst are refused (policy_blocked) with the time to retry (default: ${DEFAULT-VALUE}).")
    String metricRateLimit;

    @Option(names = "--metric-rate-burst", defaultValue = "20", paramLabel = "N",
            description = "get_metric calls one caller may make at once after a quiet spell (default: ${DEFAULT-VALUE}).")
    int metricRateBurst;

    @Option(names = "--catalog-rate-limit", defaultValue = CallerRates.DEFAULT_CATALOG_RATE, paramLabel = "RATE",
            description = "Catalog calls (describe, find, list, suggest) one caller may make, as N/s, N/min or N/h, or"
                    + " off; a separate budget from get_metric's, so exploring never spends it (default: ${DEFAULT-VALUE}).")
    String catalogRateLimit;

    @Option(names = "--catalog-rate-burst", defaultValue = "" + CallerRates.DEFAULT_CATALOG_BURST, paramLabel = "N",
            description = "Catalog calls one caller may make at once after a quiet spell (default: ${DEFAULT-VALUE}).")
    int catalogRateBurst;

    @Option(names = "--pii-block", paramLabel = "CATEGORIES", split = ",",
            description = "PII categories get_metric refuses and describe_* redact, comma-separated (default: the store's"
                    + " policy, else credential,payment_card,government_id, which are always blocked).")
    List<String> piiBlock;

    @Option(names = "--force-pii-floor", description = "Allow --pii-block to leave out credential, payment_card or"
            + " government_id; the server then aggregates over them.")
    boolean forcePiiFloor;

    @Option(names = "--min-group-size", defaultValue = "5", paramLabel = "K",
            description = "get_metric gives no value for a group of fewer than K people (small-cell suppression, computed"
                    + " in the query); 1 turns it off (default: ${DEFAULT-VALUE}).")
    int minGroupSize;

    @Option(names = "--explain-cost-cap", paramLabel = "COST",
            description = "Refuse a metric query whose EXPLAIN cost exceeds this (PostgreSQL, MySQL); default: no cap.")
    Double costCap;

    @Option(names = "--audit-key", paramLabel = "FILE", description = "The audit chain's key file (default: $"
            + AuditKey.ENV + ", else $XDG_CONFIG_HOME/schemabrain/audit.key or ~/.config/schemabrain/audit.key,"
            + " generated 0600 on first serve).")
    Path auditKey;

    @Option(names = "--audit-witness", paramLabel = "FILE", description = "Also append the audit chain's signed head to"
            + " this file after every call (best on another disk or host; default: $" + WitnessFile.ENV + "), which audit"
            + " verify reads too.")
    Path auditWitness;

    @Option(names = "--audit-fsync", paramLabel = "WHEN", defaultValue = "started-rows",
            converter = AuditFsyncConverter.class,
            description = "started-rows (default): every row is written before its answer leaves and fsynced within 10 ms"
                    + " (concurrent rows share one fsync); get_metric's started row is fsynced before its SQL leaves. A killed"
                    + " process loses no row; a power cut can lose the last 10 ms of rows. every-row: no answer leaves"
                    + " before its row is fsynced. On a PostgreSQL store every row is committed synchronously before its"
                    + " answer either way.")
    AuditDurability auditFsync = AuditDurability.STARTED_ROWS;

    @picocli.CommandLine.Mixin
    AuthOptions auth;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS", description = "HTTP: the address to"
            + " listen on; one other than loopback needs authentication (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "PORT",
            description = "HTTP: the port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--allowed-origins", paramLabel = "ORIGINS", split = ",", description = "HTTP: browser origins"
            + " allowed to call /mcp, comma-separated (http://host:port, or http://host:* for any port); others get"
            + " 403 (default: none but loopback pages on a loopback server).")
    List<String> allowedOrigins;

    @Option(names = "--max-request-bytes", defaultValue = "1048576", paramLabel = "BYTES",
            description = "HTTP: a request body larger than this is refused with 413 (default: ${DEFAULT-VALUE}).")
    int maxRequestBytes;

    @Option(names = "--rate-limit", defaultValue = "off", paramLabel = "RATE", description = "HTTP: requests one caller"
            + " may send to /mcp, as N/s, N/min or N/h, or off; past it and the burst 429 with Retry-After"
            + " (default: ${DEFAULT-VALUE}).")
    String rateLimit;

    @Option(names = "--rate-burst", defaultValue = "50", paramLabel = "N",
            description = "HTTP: requests one caller may send at once after a quiet spell (default: ${DEFAULT-VALUE}).")
    int rateBurst;

    @Option(names = "--metrics-listen", paramLabel = "ADDRESS:PORT", description = "HTTP: serve /metrics and /health's"
            + " figures on this separate listener, without a credential (keep it private); without it /metrics needs the"
            + " same credential as /mcp when authentication is on.")
    String metricsListen;

    @Option(names = "--stats-interval", defaultValue = "60", paramLabel = "SECONDS",
            description = "Log a stats line this often (over stdio: the tools/list cache's, on stderr); 0 turns it off"
                    + " (default: ${DEFAULT-VALUE}).")
    int statsIntervalSeconds;

    @Option(names = "--access-policy", paramLabel = "FILE", description = "Limit each caller to what its role allows"
            + " (tables, metrics, row filters, PII clearance, limits): a private (0600) YAML file, reread when it changes."
            + " Over HTTP the role comes from the credential; over stdio from --role.")
    Path accessPolicy;

    @Option(names = "--role", paramLabel = "ROLE", description = "stdio only, with --access-policy: the role of the one"
            + " caller over stdio; without it the policy's default_role applies.")
    String role;

    @Option(names = "--claim", paramLabel = "NAME=VALUE", description = "stdio only, with --access-policy: a claim the"
            + " role's row filters read, such as employee_id=3 (repeatable).")
    Map<String, String> claims;

    @Option(names = "--tools", paramLabel = "GROUPS", description = "Serve these groups of tools, comma-separated:"
            + " core (find_relevant_tables, describe_table, suggest_joins, list_metrics, find_relevant_metrics,"
            + " describe_entity, get_metric, execute), catalog (schemas, tables, columns, joins), semantic (entities,"
            + " joins, metrics, get_metric), sql (validate_query, execute), examples (get_example_queries), or all;"
            + " the prompts whose tools are all served follow (default: core).")
    String tools;

    @Option(names = "--console", description = "HTTP: also serve the reviewer's web console at /console/ on the same"
            + " listener, behind the same authentication: a caller signs in with its token or JWT, and only a role the"
            + " --access-policy marks reviewer: true may review; verdicts are recorded under the caller's identity.")
    boolean console;

    @Option(names = "--check-sources", description = "Connect to every source before serving and refuse to start"
            + " (exit 2) when one cannot be reached; without it, serve starts, warns on stderr and keeps serving the catalog.")
    boolean checkSources;

    @Option(names = "--compact-tools", description = "Shorter tools/list for token-priced clients: descriptions capped at"
            + " 140 characters, no description, examples, title or default in input schemas.")
    boolean compactTools;

    @Override
    public Integer call() throws InterruptedException, SchemaBrainException {
        // The HTTP shutdown hook waits for this: the JVM ends when the hook returns, and the last line comes first.
        CountDownLatch done = new CountDownLatch(1);
        try {
            return serve(done);
        } finally {
            done.countDown();
        }
    }

    /** --tools as groups; an unknown group is one sentence naming the groups there are. */
    private ToolGroups toolGroups() throws UserError {
        try {
            return ToolGroups.parse(tools);
        } catch (ToolGroups.Unknown e) {
            throw new UserError(e.getMessage());
        }
    }

    private int serve(CountDownLatch done) throws InterruptedException, SchemaBrainException {
        ToolGroups groups = tools == null ? ToolGroups.DEFAULT : toolGroups();
        Optional<HttpOptions> http = transport == Transport.http ? Optional.of(httpOptions()) : Optional.empty();
        PrintStream frames = System.out;
        // Over stdio the client's initialize is answered now, from the tools' names alone: what it waits for first is
        // the JVM's start, not the store's, the audit log's or the sources' (a call sent meanwhile waits for them).
        Optional<StdioDoor> door = Optional.empty();
        // Set once serving: a signal before that (the client has its initialize answer already) stops the start.
        AtomicReference<ServeLifecycle> serving = new AtomicReference<>();
        ShutdownHook stdioHook = null;
        if (http.isEmpty()) {
            // Nothing but frames may reach the real stdout; anything else printed lands on stderr.
            System.setOut(System.err);
            door = Optional.of(StdioDoor.open(System.in, frames, Handshake.forTools(groups.names(), Version.get())));
            stdioHook = ShutdownHook.register("schemabrain-audit-settle", () -> stopStdio(serving.get()));
        }
        try {
            return serve(groups, http, frames, door, serving, done);
        } finally {
            if (stdioHook != null) {
                stdioHook.close();
            }
        }
    }

    private int serve(ToolGroups groups, Optional<HttpOptions> http, PrintStream frames, Optional<StdioDoor> door,
                      AtomicReference<ServeLifecycle> serving, CountDownLatch done)
            throws InterruptedException, SchemaBrainException {
        Optional<AccessPolicySource> policy = accessPolicy();
        checkConsole(http, policy);
        List<SourceUrl> given = sources.resolve(main.env, main.err());
        checkStore(given);
        List<SourceUrl> urls = withStoredFiles(given);
        ServedSource.checkAll(main.store(), urls.stream().map(SourceUrl::sourceId).toList(),
                urls.stream().map(SourceUrl::displayUrl).toList());
        Optional<BlockList> blockList = blockList();
        CallerRates rates = callerRates();
        SourceExecutors executors = executors(urls);
        if (checkSources) {
            reachAll(executors);
        }
        // Without a store every tool answers index_not_ready for the life of this process: nothing is read, so
        // nothing is recorded, and no audit log or key is left behind where a store was expected.
        boolean noStore = !Stores.exists(main.store());
        // Every refusal (the key, a planted or altered log) comes before any native code runs: a JVM that
        // exits while onnxruntime loads can crash and leave an hs_err file with the command line.
        Optional<AuditKey> key = noStore ? Optional.empty() : Optional.of(auditKey());
        if (noStore) {
            main.err().println("schemabrain: there is no store at " + main.store() + ", so every tool answers"
                    + " index_not_ready; run 'schemabrain index --url-env DATABASE_URL --store " + main.store()
                    + "', then start serve again.");
            main.err().flush();
        }
        ServeSettings settings = new ServeSettings(main.store(), blockList, key,
                noStore ? Optional.empty() : WitnessFile.configured(auditWitness, main.env), auditFsync, rates,
                maxConcurrent, minGroupSize, compactTools ? ToolListing.COMPACT : ToolListing.FULL,
                Duration.ofSeconds(statsIntervalSeconds), Version.get(), http);
        settings = settings.withTools(groups);
        if (policy.isPresent()) {
            settings = settings.withAccessPolicy(policy.get(), new Caller(StdioServer.CALLER,
                    Optional.ofNullable(role), claims == null ? Map.of() : claims));
        }
        if (console) {
            settings = settings.withBeside(teamConsole(http.get(), policy.get(), key.get()));
        }
        if (http.isPresent()) {
            System.setOut(System.err);
        }
        try (ServeLifecycle serve = door.isPresent()
                ? new ServeLifecycle(settings, executors, door.get(), main.err(), ExitSignals::received, ExitSignals::stopping)
                : new ServeLifecycle(settings, executors, System.in, frames, main.err(), ExitSignals::received,
                        ExitSignals::stopping)) {
            try {
                serve.start();
            } catch (ServeLifecycle.CannotListen e) {
                String also = http.get().metricsListen().isPresent() ? " or " + metricsListen : "";
                throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot listen on " + host + ":" + port + also
                        + " (" + e.getMessage() + "); pass --port (and --metrics-listen) with a free port, or --host with an address of this machine.", e.getCause());
            }
            if (http.isPresent()) {
                serveHttp(serve, http.get(), done);
            } else {
                serveStdio(serve, serving);
            }
        }
        return 0;
    }

    /**
     * Clients stop a stdio server with SIGTERM as they close: the rows of the calls answered last must still be
     * durable and witnessed, or cutting them off the log would go unseen. Stopped by a signal, this thread never
     * returns from run(): the hook says the last line itself, or waits for this thread if stdin had closed too.
     */
    private void serveStdio(ServeLifecycle serve, AtomicReference<ServeLifecycle> serving)
            throws InterruptedException, SchemaBrainException {
        // Only once every option and file is accepted: a refusal stays one sentence.
        printRegistration();
        serving.set(serve);
        serve.awaitStop();
        serve.finish();
    }

    /**
     * The stdio serve's shutdown hook, from the moment stdin is read. Serving, the serve settles its audit log and says
     * the last line ({@link ServeLifecycle#stopNow()}); still starting, a signal is said in two lines (no call has been
     * answered, so no audit row is owed); a start refused in a sentence of its own says nothing more.
     */
    private void stopStdio(ServeLifecycle serve) {
        if (serve != null) {
            serve.stopNow();
        } else if (ExitSignals.stopping()) {
            main.err().println("schemabrain: stopping (" + ExitSignals.received() + ") while starting");
            main.err().println("schemabrain: stopped after " + ExitSignals.received() + " while starting, before any call"
                    + " was answered.");
            main.err().flush();
        }
    }

    /** Serves until SIGTERM: the shutdown hook stops Jetty, and waits for this thread to close the audit log. */
    private void serveHttp(ServeLifecycle serve, HttpOptions options, CountDownLatch done) throws InterruptedException {
        try (ShutdownHook hook = ShutdownHook.register("schemabrain-http-stop", () -> {
            serve.stopNow();
            try {
                // Until call() has closed the audit log and said so (the JVM ends when the hook returns).
                done.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })) {
            announceAndRun(serve, options);
        }
    }

    /** Says where the server listens and how to register it, then serves until stopped. */
    private void announceAndRun(ServeLifecycle serve, HttpOptions options) throws InterruptedException {
        String url = "http://" + hostForUrl(options.host()) + ":" + serve.port().getAsInt() + "/mcp";
        String metrics = serve.metricsPort().isPresent()
                ? "metrics at http://" + hostForUrl(options.metricsListen().get().getHostString()) + ":"
                        + serve.metricsPort().getAsInt() + "/metrics"
                : "metrics at /metrics" + (options.authFilter().isPresent() ? " with a credential" : "");
        main.err().println("schemabrain: serving MCP over HTTP at " + url + " (health at /health, " + metrics + ")");
        if (console) {
            main.err().println("schemabrain: the reviewer's console is at http://" + hostForUrl(options.host()) + ":"
                    + serve.port().getAsInt() + TeamConsole.PREFIX + "/ (sign in with a token or JWT of a"
                    + " reviewer role)");
        }
        main.err().println("schemabrain: register it in a client with: schemabrain init --transport http --url " + url
                + (options.authFilter().isPresent() ? " (the client sends the token in $SCHEMABRAIN_TOKEN)"
                        : " (no authentication is configured, so the client needs no token)"));
        main.err().flush();
        serve.run();
    }

    /**
     * The access policy, read now (a bad or unsafe file stops the start), and the stdio caller's role checked
     * against it. Roles over HTTP come from credentials only, never from an option or the client.
     */
    private Optional<AccessPolicySource> accessPolicy() throws SchemaBrainException {
        boolean stdioRole = role != null || (claims != null && !claims.isEmpty());
        if (stdioRole && transport == Transport.http) {
            throw new UserError("--role and --claim name the caller over stdio; over HTTP each caller's role and claims"
                    + " come from its credential (token create --role/--claim, or the JWT's role claim), so drop them.");
        }
        if (accessPolicy == null) {
            if (stdioRole) {
                throw new UserError("--role and --claim need --access-policy, the file that says what each role may reach.");
            }
            return Optional.empty();
        }
        AccessPolicySource source = AccessPolicySource.open(accessPolicy);
        if (role != null) {
            Tokens.checkRole(role);
            if (!source.policy().roles().containsKey(role)) {
                throw new UserError("--role " + role + " is not a role of the access policy " + accessPolicy + "; its roles are "
                        + String.join(", ", source.policy().roles().keySet()) + ".");
            }
        }
        if (claims != null) {
            Tokens.checkClaims(claims);
        }
        if (transport == Transport.stdio && role == null) {
            main.err().println("schemabrain: no --role given, so the stdio caller gets the access policy's default_role ("
                    + source.policy().defaultRole().orElse("none: it reaches nothing") + ").");
        }
        return Optional.of(source);
    }

    /**
     * --console serves reviewers over HTTP with a store, behind serve's authentication and an access policy that
     * names at least one reviewer role: otherwise nobody could sign in, so it refuses to start.
     */
    private void checkConsole(Optional<HttpOptions> http, Optional<AccessPolicySource> policy) throws SchemaBrainException {
        if (!console) {
            return;
        }
        if (http.isEmpty()) {
            throw new UserError("--console serves the console beside /mcp over HTTP; add --transport http, or run"
                    + " 'schemabrain console' for one person on this machine.");
        }
        if (!(http.get().authFilter().orElse(null) instanceof AuthFilter)) {
            throw new UserError("--console needs authentication, since reviewers sign in with their credential: create"
                    + " tokens with 'schemabrain token create NAME --role ROLE' or configure --jwt-issuer.");
        }
        if (policy.isEmpty() || policy.get().policy().reviewerRoles().isEmpty()) {
            throw new UserError("--console needs an --access-policy with at least one role marked reviewer: true, since"
                    + " only such a role may review; add it to a role of the policy file (docs/access.md).");
        }
        if (!Stores.exists(main.store())) {
            throw new UserError("--console reviews the store's drafts, and there is no store at " + main.store() + "; run"
                    + " 'schemabrain index' first or pass --store PATH.");
        }
    }

    /** The console on serve's own verifier and policy; the drafts' 12 months end yesterday (UTC) as serve starts. */
    private BesideMcp teamConsole(HttpOptions http, AccessPolicySource policy, AuditKey key)
            throws SchemaBrainException {
        return TeamConsole.beside(main.store(), key,
                (AuthFilter) http.authFilter().orElseThrow(), policy,
                LocalDate.now(ZoneOffset.UTC));
    }

    private static String hostForUrl(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    /**
     * The authentication in front of /mcp, when configured (the auth options are wired here). Without one,
     * the server only listens on loopback.
     */
    Optional<jakarta.servlet.Filter> authFilter() throws SchemaBrainException {
        return auth.filter(main.store()).map(f -> f);
    }

    private HttpOptions httpOptions() throws SchemaBrainException {
        Optional<jakarta.servlet.Filter> auth = authFilter();
        if (auth.isEmpty() && !HttpOptions.isLoopback(host)) {
            throw new UserError("--host " + host + " is not a loopback address, and serving beyond this machine needs"
                    + " authentication: configure it, or use --host 127.0.0.1 behind your own proxy.");
        }
        if (port < 0 || port > 65_535 || maxRequestBytes < 1 || statsIntervalSeconds < 0) {
            throw new UserError("--port must be 0-65535, --max-request-bytes positive and --stats-interval 0 or more.");
        }
        RateLimit callerRate;
        try {
            callerRate = RateLimit.parse(rateLimit, rateBurst);
        } catch (IllegalArgumentException e) {
            throw new UserError("--rate-limit " + rateLimit + " --rate-burst " + rateBurst + ": " + e.getMessage()
                    + ", for example --rate-limit 50/s --rate-burst 100.");
        }
        HttpOptions options = new HttpOptions(host, port, allowedOrigins == null ? List.of() : allowedOrigins, maxRequestBytes,
                callerRate, Duration.ofSeconds(statsIntervalSeconds), auth);
        try {
            return metricsListen == null ? options : options.withMetricsListen(metricsListen);
        } catch (IllegalArgumentException e) {
            throw new UserError("--metrics-listen " + metricsListen + ": " + e.getMessage() + ".");
        }
    }

    /** A planted store, or one indexed from another database than a --source, is refused before serving. */
    private void checkStore(List<SourceUrl> urls) throws SchemaBrainException {
        // A mistyped directory would otherwise serve an empty catalog and lose the audit log.
        Path dir = Stores.file(main.store()).map(f -> f.toAbsolutePath().getParent())
                .orElse(null);
        if (dir != null && !Files.isDirectory(dir)) {
            throw new UserError("The store's directory " + dir + " does not exist; pass --store with the file 'schemabrain index'"
                    + " wrote, or create the directory and index into it first.");
        }
        if (urls.isEmpty()) {
            ServedSource.check(main.store(), Optional.empty(), Optional.empty());   // a planted store, with no source too
        }
        for (SourceUrl url : urls) {
            ServedSource.check(main.store(), Optional.of(url.sourceId()), Optional.of(url.displayUrl()));
        }
    }

    /**
     * The client registration of exactly this invocation, on stderr (stdout carries only frames): the store made
     * absolute, a --source URL without its credentials, variables passed on from the client's environment.
     */
    private void printRegistration() throws SchemaBrainException {
        StoreLocation location = main.store();
        String store = Stores.file(location).map(f -> f.toAbsolutePath().normalize().toString())
                .orElseGet(() -> ((StoreLocation.PostgresSchema) location).url().displayUrl());
        ServerLaunch launch = ServerLaunch.ofInvocation(main.arguments, store, ServerLaunch.crashDirectory(main.home(), main.env),
                ServerLaunch.runningJar().orElse(Path.of("schemabrain.jar")));
        main.err().println("schemabrain: to register exactly this server in an MCP client (or run 'schemabrain init'):");
        main.err().println("  " + launch.claudeMcpAdd("schemabrain"));
        main.err().println("  " + launch.jsonLine("schemabrain"));
        main.err().flush();
    }

    /** The audit key, generated on first serve; outside the store and the audit file. */
    private AuditKey auditKey() throws SchemaBrainException {
        return AuditKey.resolve(Optional.ofNullable(auditKey), main.env, true);
    }

    private CallerRates callerRates() throws UserError {
        return new CallerRates(rate("--metric-rate", metricRateLimit, metricRateBurst, "2/s", 20),
                rate("--catalog-rate", catalogRateLimit, catalogRateBurst, "20/s", 400));
    }

    private static RateLimit rate(String option, String limit, int burst, String exampleLimit, int exampleBurst)
            throws UserError {
        try {
            return RateLimit.parse(limit, burst);
        } catch (IllegalArgumentException e) {
            throw new UserError(option + "-limit " + limit + " " + option + "-burst " + burst + ": " + e.getMessage()
                    + ", for example " + option + "-limit " + exampleLimit + " " + option + "-burst " + exampleBurst + ".");
        }
    }

    private Optional<BlockList> blockList() throws UserError {
        if (piiBlock == null) {
            return Optional.empty();
        }
        try {
            BlockList block = BlockList.parse(String.join(",", piiBlock), forcePiiFloor);
            if (forcePiiFloor && !block.categories().containsAll(PiiCategory.CATASTROPHIC_FLOOR)) {
                main.err().println("warning: the PII block list leaves out part of the catastrophic floor; get_metric may"
                        + " aggregate over " + PiiCategory.CATASTROPHIC_FLOOR.stream().filter(c -> !block.blocks(c)).sorted()
                        .map(PiiCategory::wireName).toList() + ".");
            }
            return Optional.of(block);
        } catch (IllegalArgumentException e) {
            throw new UserError("--pii-block: " + e.getMessage().replace("the force flag", "--force-pii-floor") + ".");
        }
    }

    /** Given any source, the store's other file sources too, opened from the path it records (ServedSource.storedFiles). */
    private List<SourceUrl> withStoredFiles(List<SourceUrl> given) throws SchemaBrainException {
        List<SourceUrl> all = new ArrayList<>(given);
        for (SourceUrl file : ServedSource.storedFiles(main.store(), given.stream().map(SourceUrl::sourceId).toList())) {
            all.add(file);
            main.err().println("schemabrain: serving " + file.displayUrl() + " too, from the path the store records.");
        }
        return all;
    }

    /** --check-sources: one session per source opened now; the first that fails stops the start in one sentence. */
    private static void reachAll(SourceExecutors executors) throws UserError {
        for (QueryExecutor e : executors.all()) {
            try {
                e.openIdleSession();
            } catch (ExecutionException x) {
                executors.close();
                throw new UserError("serve cannot reach " + e.displayUrl() + " (" + x.getMessage() + "); check its URL and"
                        + " password with 'schemabrain doctor', or start without --check-sources to serve the catalog anyway.");
            }
        }
    }

    private SourceExecutors executors(List<SourceUrl> urls) throws UserError {
        if (statementTimeoutMs < 1 || maxRows < 1 || maxResultBytes < 1 || maxConcurrent < 1 || minGroupSize < 1
                || (costCap != null && costCap <= 0)) {
            throw new UserError("--statement-timeout-ms, --max-rows-per-result, --max-result-bytes, --max-concurrent-queries, --min-group-size and "
                    + "--explain-cost-cap must be positive numbers.");
        }
        List<QueryExecutor> executors = new ArrayList<>();
        try {
            for (SourceUrl url : urls) {
                // Each source its own pool, lanes, read-only session and statement timeout.
                executors.add(new QueryExecutor(url, new ExecutorSettings(statementTimeoutMs, maxRows, maxConcurrent,
                        2_000, costCap, maxResultBytes)));
            }
        } catch (IllegalArgumentException e) {
            executors.forEach(QueryExecutor::close);
            throw new UserError(e.getMessage());
        }
        return SourceExecutors.of(executors);
    }

    /** {@code every-row} / {@code started-rows}, one sentence for anything else. */
    static final class AuditFsyncConverter implements picocli.CommandLine.ITypeConverter<AuditDurability> {
        @Override
        public AuditDurability convert(String value) {
            return switch (value) {
                case "every-row" -> AuditDurability.EVERY_ROW;
                case "started-rows" -> AuditDurability.STARTED_ROWS;
                default -> throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a choice; use every-row or started-rows");
            };
        }
    }
}
