package dev.schemabrain.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.Role;
import dev.schemabrain.audit.WitnessFile;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.embed.Embedders;
import dev.schemabrain.engine.ColumnGrants;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.QueryLog;
import dev.schemabrain.engine.RoleCheck;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.CatalogRepository;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.StoreOwnership;
import dev.schemabrain.store.StoreSnapshot;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code schemabrain doctor}: one line per check of what serving needs. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check what serving needs, one line each: Java, the store (readable, indexed), the embedding model,"
                + " the source (reachable; the keys the role sees, and the GRANT it lacks where it sees none; the role read-only, else the GRANTs of a read-only role; the database wall: no"
                + " superuser or server-file power, the columns serve withholds refused; pg_stat_statements or"
                + " performance_schema) and the MCP clients' entries. With --source or --url-env repeated, the source"
                + " checks run for each, under its display URL.",
                "Exit 0 all pass, 1 warnings, 2 failures."})
final class DoctorCommand implements Callable<Integer> {

    /** HEAD is no check: the line naming the source whose checks follow, when several are given. */
    enum Status { OK, WARN, FAIL, SKIP, HEAD }

    /** One check's outcome; {@code detail} lines are printed indented under it. */
    record Check(Status status, String text, List<String> detail) {
        Check(Status status, String text) {
            this(status, text, List.of());
        }
    }

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions.Several sources;

    @Option(names = "--name", defaultValue = "schemabrain", paramLabel = "NAME",
            description = "The server's name in the MCP clients (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--audit-witness", paramLabel = "FILE", description = "The witness file serve is given"
            + " (default: $" + WitnessFile.ENV + ").")
    Path auditWitness;

    @Option(names = "--access-policy", paramLabel = "FILE", description = "The access policy serve is given: checked"
            + " (private, valid) and each role's tables matched against the store.")
    Path accessPolicy;

    @Mixin
    BlockListOptions block;

    /** At most this many withheld columns are tried on the source: enough to find a wall with a gap, quick on any. */
    private static final int TRIED = 50;

    @Override
    public Integer call() {
        List<Check> checks = new ArrayList<>();
        checks.add(java());
        // Each source given: its URL, or why it could not be resolved.
        List<SourceUrl> urls = new ArrayList<>();
        List<Check> blocks = new ArrayList<>();
        boolean several = sources.choices.size() > 1;
        for (SourceOptions one : sources.each()) {
            try {
                SourceUrl url = one.resolve(main.env, main.err());
                urls.add(url);
                if (several) {
                    blocks.add(new Check(Status.HEAD, url.displayUrl() + ":"));
                }
                blocks.addAll(source(url));
            } catch (SchemaBrainException e) {
                if (several) {
                    // Never the --source text itself: it may hold the password that made it unreadable.
                    blocks.add(new Check(Status.HEAD, (one.choice.urlEnv != null ? "--url-env " + one.choice.urlEnv
                            : "a --source given") + ":"));
                }
                blocks.add(new Check(Status.FAIL, e.getMessage()));
            }
        }
        checks.add(store(urls));
        storeOwnership().ifPresent(checks::add);
        checks.add(embeddings());
        checks.add(auditWitness());
        accessPolicy().ifPresent(checks::add);
        if (!sources.given()) {
            checks.add(new Check(Status.SKIP, "source: none given; pass --source URL or --url-env VAR to check it."));
        }
        checks.addAll(blocks);
        // An entry's source is compared with the one given; with several given, which one it meant is unknown.
        checks.addAll(clients(urls.size() == 1 && !several ? Optional.of(urls.get(0)) : Optional.empty()));
        for (Check c : checks) {
            if (c.status() == Status.HEAD) {
                main.out().println(c.text());
                continue;
            }
            // A failure stands out in capitals; the others read as words.
            String status = c.status() == Status.FAIL ? "FAIL" : c.status().name().toLowerCase(Locale.ROOT);
            main.out().println(String.format("%-4s  %s", status, c.text()));
            c.detail().forEach(d -> main.out().println("        " + d));
        }
        boolean failed = checks.stream().anyMatch(c -> c.status() == Status.FAIL);
        boolean warned = checks.stream().anyMatch(c -> c.status() == Status.WARN);
        return failed ? 2 : warned ? 1 : 0;
    }

    /**
     * The access policy, when given: private and valid (the same refusal serve would give, with file and line),
     * and each role's allow list matched against the store: a role that reaches no indexed table is a typo.
     */
    private Optional<Check> accessPolicy() {
        if (accessPolicy == null) {
            return Optional.empty();
        }
        AccessPolicy policy;
        try {
            policy = AccessPolicyFile.read(accessPolicy);
        } catch (SchemaBrainException e) {
            return Optional.of(new Check(Status.FAIL, "access policy: " + e.getMessage()));
        }
        String summary = "access policy: " + accessPolicy + ", " + policy.roles().size() + " role"
                + (policy.roles().size() == 1 ? "" : "s") + " (" + String.join(", ", policy.roles().keySet())
                + "), default_role " + policy.defaultRole().orElse("none");
        List<String> empty = new ArrayList<>();
        try {
            if (Stores.exists(main.store())) {
                Catalog catalog;
                try (Store store = Stores.open(main.store())) {
                    catalog = store.read(c -> StoreSnapshot.read(c).catalog());
                }
                for (Role r : policy.roles().values()) {
                    if (catalog.tables().stream().noneMatch(t -> r.allows(t.name()))) {
                        empty.add(r.name());
                    }
                }
            }
        } catch (SchemaBrainException e) {
            return Optional.of(new Check(Status.OK, summary + " (the store cannot be read to match its tables)"));
        }
        if (!empty.isEmpty()) {
            return Optional.of(new Check(Status.WARN, summary + "; role" + (empty.size() == 1 ? " " : "s ")
                    + String.join(", ", empty) + " allow no indexed table: check the schema.table patterns against"
                    + " 'schemabrain policy explain --role ROLE --access-policy " + accessPolicy + "'."));
        }
        return Optional.of(new Check(Status.OK, summary));
    }

    private static Check java() {
        Runtime.Version v = Runtime.version();
        String where = ServerLaunch.javaOfThisJvm();
        return v.feature() >= 17 ? new Check(Status.OK, "java: " + v + " at " + where)
                : new Check(Status.FAIL, "java: " + v + " at " + where + " is older than 17; install Java 17 or newer.");
    }

    private Check store(List<SourceUrl> urls) {
        try {
            StoreLocation location = main.store();
            if (!Stores.exists(location)) {
                return new Check(Status.FAIL, "store: there is none at " + location + "; run 'schemabrain index' into it,"
                        + " or pass --store with the file it wrote.");
            }
            Map<String, String> sources;
            Map<SourceUrl, int[]> counts = new LinkedHashMap<>();
            try (Store store = Stores.open(location)) {
                sources = store.read(CatalogRepository::sourceUrls);
                for (SourceUrl url : urls) {
                    if (sources.containsKey(url.sourceId())) {
                        counts.put(url, store.read(c -> CatalogRepository.liveCounts(c, url.sourceId())));
                    }
                }
            }
            if (sources.isEmpty()) {
                return new Check(Status.WARN, "store: " + location + " has nothing indexed yet; run 'schemabrain index'.");
            }
            List<String> missing = urls.stream().filter(u -> !counts.containsKey(u)).map(SourceUrl::displayUrl).toList();
            if (!missing.isEmpty()) {
                return new Check(Status.FAIL, "store: " + location + " was indexed from " + String.join(", ", sources.values())
                        + ", not from " + String.join(", ", missing) + "; index " + (missing.size() == 1 ? "that source"
                        : "those sources") + " into it (serve refuses to start).");
            }
            String counted = counts.entrySet().stream().map(e -> (counts.size() == 1 ? "" : e.getKey().displayUrl() + ": ")
                    + e.getValue()[0] + " tables, " + e.getValue()[1] + " columns").collect(Collectors.joining("; "));
            return new Check(Status.OK, "store: " + location + " indexed from " + String.join(", ", sources.values())
                    + (counts.isEmpty() ? "" : " (" + counted + ")"));
        } catch (SchemaBrainException e) {
            return new Check(Status.FAIL, "store: " + e.getMessage());
        }
    }

    /**
     * The audit log and the store can be rolled back together to an older backup; only a head kept
     * outside both shows it, so a server without one gets a warning.
     */
    private Check auditWitness() {
        Optional<WitnessFile> w = WitnessFile.configured(auditWitness, main.env);
        if (w.isEmpty()) {
            return new Check(Status.WARN, "audit witness: none outside the store, so rolling the store and its audit log"
                    + " back together to an older backup would go unseen; set " + WitnessFile.ENV
                    + "=FILE on another disk or host for serve and audit verify, or publish 'schemabrain audit head"
                    + " --publish TARGET' from cron (docs/operations.md).");
        }
        Path file = w.get().path();
        Path parent = file.toAbsolutePath().getParent();
        if (!Files.exists(file) && (parent == null || !Files.isWritable(parent))) {
            return new Check(Status.FAIL, "audit witness: " + file + " does not exist and its directory is not writable;"
                    + " create the directory or name another file, else serve cannot start.");
        }
        return new Check(Status.OK, "audit witness: " + file + (Files.exists(file) ? "" : " (serve creates it)"));
    }

    /** A PostgreSQL store another role can write is refused by serve: the same failure here, with the REVOKE to run. */
    private Optional<Check> storeOwnership() {
        try {
            if (!(main.store() instanceof StoreLocation.PostgresSchema location)) {
                return Optional.empty();
            }
            try (Store store = Stores.open(location)) {
                StoreOwnership.check(store);
            }
            return Optional.of(new Check(Status.OK, "store: only its owner role can write it"));
        } catch (SchemaBrainException e) {
            return Optional.of(new Check(Status.FAIL, "store: " + e.getMessage()));
        }
    }

    private static Check embeddings() {
        try {
            int dimension = Embedders.shared().embedQuery("doctor").length;
            return new Check(Status.OK, "embeddings: " + Embedders.MODEL_ID + " loads (" + dimension + " dimensions)");
        } catch (RuntimeException e) {
            return new Check(Status.FAIL, embeddingsFailure(Embedders.choice(), e.getMessage()));
        } finally {
            // No native code may run while the JVM exits (see Embedders).
            Embedders.closeShared();
        }
    }

    /** The line for an embedder that does not load: only bge-small runs native code (onnxruntime). */
    static String embeddingsFailure(String choice, String message) {
        if (!Embedders.BGE_SMALL.equals(choice) && !Embedders.STATIC.equals(choice)) {
            return "embeddings: " + message + " Until then search falls back to keywords only.";
        }
        String advice = Embedders.STATIC.equals(choice) ? "check the jar is whole."
                : "check the jar is whole and the platform is one onnxruntime supports, or choose the static embedder ("
                + Embedders.CHOICE_ENV + "=" + Embedders.STATIC + ", no native code) and index the store again.";
        return "embeddings: the model does not load (" + message + "); search falls back to keywords only: " + advice;
    }

    private List<Check> source(SourceUrl url) {
        List<Check> out = new ArrayList<>();
        Catalog live;
        Optional<String> unreadKeys;
        try (SchemaSource schemaSource = Sources.open(url)) {
            live = schemaSource.introspect(IntrospectionOptions.withoutSamples());
            unreadKeys = schemaSource.unreadKeys();
        } catch (SchemaBrainException e) {
            out.add(new Check(Status.FAIL, "source: " + e.getMessage()));
            return out;
        }
        out.add(new Check(Status.OK, "source: " + url.displayUrl() + " is reachable (" + live.tables().size() + " tables)"));
        out.add(keys(live, unreadKeys));
        Optional<Engine> engine = Engines.of(url.kind());
        if (engine.isEmpty()) {
            out.add(new Check(Status.SKIP, "role: " + url.kind().name().toLowerCase(Locale.ROOT)
                    + " is a file read offline; there is no database role."));
            return out;
        }
        Optional<Engine.Roles> roles = engine.get().roles();
        if (roles.isEmpty()) {
            out.add(new Check(Status.OK, "role: " + engine.get().withoutRoles()));
            return out;
        }
        try (Connection c = engine.get().connect(url, Purpose.introspection())) {
            out.add(role(url, roles.get().check(c, url)));
            Optional<ColumnGrants> grants = engine.get().columnGrants();
            if (grants.isPresent()) {
                out.addAll(wall(url, engine.get(), grants.get(), c));
            }
            Optional<QueryLog> log = engine.get().queryLog();
            if (log.isPresent()) {
                out.add(queryLog(log.get(), c));
            }
        } catch (SQLException e) {
            out.add(new Check(Status.WARN, "role: the privileges could not be read (SQLSTATE " + e.getSQLState()
                    + "); rerun with -v, or check them by hand."));
        }
        return out;
    }

    /**
     * What the source showed of its keys: joins are drafted from foreign keys and entities from primary keys, so a role
     * that cannot see them indexes tables with no joins between them, without any error.
     */
    private static Check keys(Catalog live, Optional<String> unreadKeys) {
        List<Table> tables = live.tables().stream()
                .filter(t -> t.kind() == TableKind.TABLE
                        || t.kind() == TableKind.PARTITIONED).toList();
        long primaryKeys = tables.stream().filter(t -> !t.primaryKey().isEmpty()).count();
        String seen = "keys: " + primaryKeys + " of " + tables.size() + " tables have a primary key, "
                + live.foreignKeyCount() + " foreign key" + (live.foreignKeyCount() == 1 ? "" : "s") + " in all";
        return unreadKeys.map(m -> new Check(Status.WARN, seen + "; " + m))
                .orElseGet(() -> new Check(Status.OK, seen));
    }

    /**
     * The database's own wall behind the gate: the serving role holds no power that reads past column
     * privileges, and the database refuses it the columns serve withholds, tried with a query that reads no row.
     */
    private List<Check> wall(SourceUrl url, Engine engine, ColumnGrants grants, Connection c) {
        String user = url.user() == null ? "the connecting role" : "role '" + url.user() + "'";
        String grantsCommand = "schemabrain grants --url-env VAR" + (url.user() == null ? " --role NAME" : "")
                + " --apply --admin-url-env ADMIN_VAR";
        List<Check> out = new ArrayList<>();
        try {
            List<ColumnGrants.Power> powers = grants.powers(c);
            if (!powers.isEmpty()) {
                List<String> detail = new ArrayList<>(List.of("-- as an administrator:"));
                powers.forEach(p -> detail.add(p.revoke()));
                out.add(new Check(Status.WARN, "wall: " + user + " holds " + String.join(", ", powers.stream()
                        .map(ColumnGrants.Power::what).toList()) + (powers.size() == 1 ? ", which reads" : ", which read")
                        + " past any column privilege; the serving role should hold none of it.", detail));
            }
            Optional<ServedColumns> served = served(url);
            if (served.isEmpty()) {
                out.add(new Check(Status.SKIP, "wall: the store holds no catalog of this source, so no withheld column is"
                        + " known to try."));
                return out;
            }
            List<ServedColumns.Withheld> withheld = served.get().blocked();
            if (withheld.isEmpty()) {
                out.add(new Check(Status.OK, "wall: no indexed column is blocked, so column privileges have nothing to"
                        + " keep out"));
                return out;
            }
            List<ServedColumns.Withheld> tried = withheld.subList(0, Math.min(TRIED, withheld.size()));
            List<ServedColumns.Withheld> readable = readable(engine, grants, c, tried);
            if (readable.isEmpty()) {
                out.add(new Check(Status.OK, "wall: " + user + " is refused by the database itself the " + tried.size()
                        + " withheld column" + (tried.size() == 1 ? "" : "s") + " doctor tried"));
                return out;
            }
            List<String> detail = new ArrayList<>();
            List<ColumnGrants.Power> broad = grants.broadReads(c);
            if (!broad.isEmpty()) {
                detail.add("-- " + String.join(", ", broad.stream().map(ColumnGrants.Power::what).toList())
                        + " reaches every column; as an administrator:");
                broad.forEach(b -> detail.add(b.revoke()));
            }
            detail.add((broad.isEmpty() ? "-- as an administrator, leave" : "-- then leave") + " it SELECT on the served"
                    + " columns only (REVOKE, then GRANT SELECT (columns)):");
            detail.add(grantsCommand);
            out.add(new Check(Status.WARN, "wall: " + user + " can read " + readable.get(0)
                    + (readable.size() > 1 ? " and " + (readable.size() - 1) + " more withheld column"
                    + (readable.size() > 2 ? "s" : "") : "") + "; the gate refuses it, but SQL the gate never saw"
                    + " would be answered.", detail));
        } catch (SQLException e) {
            out.add(new Check(Status.WARN, "wall: the role's privileges could not be read (SQLSTATE " + e.getSQLState()
                    + "); rerun with -v, or check them by hand."));
        }
        return out;
    }

    /** What serve withholds of this source, or empty when the store holds no catalog of it. */
    private Optional<ServedColumns> served(SourceUrl url) {
        try {
            Optional<AccessPolicy> policy = accessPolicy == null ? Optional.empty()
                    : Optional.of(AccessPolicyFile.read(accessPolicy));
            return Optional.of(ServedColumns.read(main.store(), url, block.blockList(), policy));
        } catch (SchemaBrainException e) {
            return Optional.empty();   // the store and access policy lines already say what is wrong
        }
    }

    /** The columns of {@code tried} the connected role can read: a query of no row, refused by a working wall. */
    private static List<ServedColumns.Withheld> readable(Engine engine, ColumnGrants grants, Connection c,
                                                         List<ServedColumns.Withheld> tried) throws SQLException {
        List<ServedColumns.Withheld> out = new ArrayList<>();
        for (ServedColumns.Withheld w : tried) {
            String sql = "SELECT " + engine.quote(w.column()) + " FROM " + engine.qualified(w.table()) + " WHERE 1 = 0";
            try (Statement st = c.createStatement()) {
                st.executeQuery(sql).close();
                out.add(w);
            } catch (SQLException e) {
                if (!c.getAutoCommit()) {
                    c.rollback();   // PostgreSQL: a failed statement ends the transaction's use
                }
                if (!grants.denied(e) && engine.classify(e).unavailable()) {
                    throw e;
                }
                // Refused is the wall working; any other failure (a table dropped since the index) proves nothing.
            }
        }
        return out;
    }

    private static Check queryLog(QueryLog log, Connection c) throws SQLException {
        // Optional: only mine-queries reads it, and turning it on may need a restart a newcomer cannot make, so its
        // absence is said but does not fail doctor.
        return log.problem(c).map(p -> new Check(Status.SKIP, "query log (optional, for mine-queries): " + p + log.instead()))
                .orElseGet(() -> new Check(Status.OK, "query log: " + log.name() + " readable for mine-queries"));
    }

    private static Check role(SourceUrl url, RoleCheck role) {
        String user = url.user() == null ? "the connecting role" : "role '" + url.user() + "'";
        if (!role.canWrite()) {
            return new Check(Status.OK, "role: " + user + " cannot write (and SchemaBrain's sessions are read-only)");
        }
        List<String> detail = new ArrayList<>(List.of("-- a read-only role, as an administrator:"));
        detail.addAll(role.readOnlyGrants());
        return new Check(Status.WARN, "role: " + user + " can write (" + String.join(", ", role.writes())
                + (role.moreWrites() > 0 ? ", and " + role.moreWrites() + " more" : "") + "); SchemaBrain's sessions are"
                + " read-only, but a read-only role is the stronger guard: create one and use it in the source URL.", detail);
    }

    /** The clients whose configuration exists: each should have this server, on this store. */
    private List<Check> clients(Optional<SourceUrl> url) {
        List<Check> out = new ArrayList<>();
        Path home = main.home();
        Optional<Path> store = storeFile();
        for (McpClient client : McpClient.values()) {
            Path file = client.configFile(home, main.env);
            if (!Files.exists(file)) {
                continue;
            }
            try {
                Optional<JsonNode> entry = ClientConfigFile.entry(file, client.serversKey, name);
                out.add(entry.map(e -> wiring(client, file, e, store, url)).orElseGet(() -> new Check(Status.WARN, "client: "
                        + client.title + " (" + file + ") has no '" + name + "' server; run 'schemabrain init --client "
                        + client.id + "'.")));
            } catch (SchemaBrainException e) {
                out.add(new Check(Status.WARN, "client: " + client.title + ": " + e.getMessage()));
            }
        }
        if (out.isEmpty()) {
            out.add(new Check(Status.SKIP, "client: no MCP client configuration found under " + home
                    + "; 'schemabrain init' writes one."));
        }
        return out;
    }

    private Optional<Path> storeFile() {
        try {
            return Stores.file(main.store()).map(p -> p.toAbsolutePath().normalize());
        } catch (SchemaBrainException e) {
            return Optional.empty();   // the store line already says what is wrong with it
        }
    }

    private static Check wiring(McpClient client, Path file, JsonNode entry, Optional<Path> store, Optional<SourceUrl> url) {
        List<String> args = new ArrayList<>();
        entry.path("args").forEach(a -> args.add(a.asText()));
        if (args.isEmpty()) {
            return new Check(Status.OK, "client: " + client.title + " connects to '" + entry.path("url").asText(
                    entry.path("serverUrl").asText("?")) + "' over HTTP");
        }
        int jarAt = args.indexOf("-jar");
        if (jarAt < 0 || jarAt + 1 >= args.size() || !Files.isRegularFile(Path.of(args.get(jarAt + 1)))) {
            return new Check(Status.WARN, "client: " + client.title + "'s entry in " + file + " runs no jar that exists;"
                    + " run 'schemabrain init --client " + client.id + "' again.");
        }
        int storeAt = args.indexOf("--store");
        if (store.isPresent() && (storeAt < 0 || storeAt + 1 >= args.size()
                || !Path.of(args.get(storeAt + 1)).equals(store.get()))) {
            return new Check(Status.WARN, "client: " + client.title + " serves another store than " + store.get()
                    + "; run 'schemabrain init --client " + client.id + "' with this --store to change it.");
        }
        Optional<Check> otherSource = url.flatMap(u -> otherSource(client, file, entry, args, u));
        return otherSource.orElseGet(() -> new Check(Status.OK, "client: " + client.title + " starts this server (" + file + ")"));
    }

    /**
     * The entry's source, when its env block holds the URL itself (a client that reads no variables) and that URL is
     * not the one given here: another database, another user or another password. Only display forms are shown.
     */
    private static Optional<Check> otherSource(McpClient client, Path file, JsonNode entry, List<String> args, SourceUrl given) {
        int varAt = args.indexOf("--url-env");
        if (varAt < 0 || varAt + 1 >= args.size()) {
            return Optional.empty();
        }
        String var = args.get(varAt + 1);
        String value = entry.path("env").path(var).asText("");
        if (value.isBlank() || value.contains("${")) {
            return Optional.empty();   // a reference: the client's own variable decides, which doctor cannot see
        }
        SourceUrl held;
        try {
            held = SourceUrl.parse(value);
        } catch (SchemaBrainException e) {
            return Optional.of(new Check(Status.WARN, "client: " + client.title + "'s entry in " + file + " sets " + var
                    + " to no source URL; run 'schemabrain init --client " + client.id + " --url-env " + var + "' again."));
        }
        if (login(held).equals(login(given)) && Objects.equals(held.password(), given.password())) {
            return Optional.empty();
        }
        String differs = login(held).equals(login(given)) ? "with another password than the source given here"
                : login(held) + ", not " + login(given) + " as given here";
        return Optional.of(new Check(Status.WARN, "client: " + client.title + "'s entry in " + file + " connects to "
                + differs + "; run 'schemabrain init --client " + client.id + " --url-env " + var + "' with " + var
                + " holding the current URL to replace it."));
    }

    /** The display URL and the user: what tells two sources apart without a password. */
    private static String login(SourceUrl url) {
        return url.displayUrl() + (url.user() == null ? "" : " as user '" + url.user() + "'");
    }
}
