package dev.schemabrain.cli;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.engine.ColumnGrants;
import dev.schemabrain.engine.Engine;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.source.Sources;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain grants}: the database's own wall behind the gate, as column privileges. */
@Command(name = "grants", mixinStandardHelpOptions = true,
        description = {"Write the SQL that lets the serving role SELECT only the columns SchemaBrain serves, so that SQL"
                + " the gate never saw is refused by the database too (PostgreSQL, MySQL/MariaDB).",
                "For every indexed table: a REVOKE of SELECT from the role, then GRANT SELECT on the columns whose PII tag"
                        + " the block list leaves out, on the tables some role of the access policy may see. Printed for"
                        + " an administrator, or run with --apply over --admin-url-env's connection.",
                "Exit 0 done, 2 error; a SQLite or DuckDB source is an error too (its file is opened read-only and has"
                        + " no roles)."})
final class GrantsCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions source;

    @Option(names = "--role", paramLabel = "NAME", description = "The serving role to grant to (default: the source URL's"
            + " user). MySQL/MariaDB: NAME is the account 'NAME'@'%'; write NAME@HOST for another host.")
    String role;

    @Mixin
    BlockListOptions block;

    @Option(names = "--access-policy", paramLabel = "FILE", description = "The access policy serve is given: tables no"
            + " role may see get no column, and a role's PII clearance keeps the columns it may see in clear.")
    Path accessPolicy;

    @Option(names = "--apply", description = "Run the statements as the administrator of --admin-url-env instead of"
            + " printing them.")
    boolean apply;

    @Option(names = "--admin-url-env", paramLabel = "VAR", description = "With --apply: read the administrator's URL"
            + " (same engine and database; never the serving role's) from this environment variable.")
    String adminUrlEnv;

    @Override
    public Integer call() throws SchemaBrainException {
        if (apply != (adminUrlEnv != null)) {
            throw new UserError(apply ? "--apply runs the statements as an administrator: pass --admin-url-env VAR, the"
                    + " variable holding the administrator's URL (never the serving one)."
                    : "--admin-url-env is only read with --apply; add --apply to run the statements, or drop it to print them.");
        }
        if (!source.given()) {
            throw new UserError("grants needs the serving source: pass --source URL or --url-env VAR.");
        }
        SourceUrl url = source.resolve(main.env, main.err());
        Optional<Engine> engine = Engines.of(url.kind());
        Optional<ColumnGrants> grants = engine.flatMap(Engine::columnGrants);
        if (grants.isEmpty()) {
            String what = engine.map(e -> "the " + e.title() + " file is opened read-only and has no roles")
                    .orElse("a " + url.kind().wireName() + ": source is a file read offline, with no roles");
            throw new UserError("grants writes column privileges for PostgreSQL and MySQL/MariaDB only: " + what
                    + ", so there is nothing to grant.");
        }
        String name = role != null ? role : url.user();
        if (name == null) {
            throw new UserError("The source URL names no user to grant to; pass --role NAME.");
        }
        String grantee;
        try {
            grantee = grants.get().grantee(name);
        } catch (IllegalArgumentException e) {
            throw new UserError("--role: " + e.getMessage() + ".");
        }
        Optional<AccessPolicy> policy = accessPolicy == null ? Optional.empty()
                : Optional.of(AccessPolicyFile.read(accessPolicy));
        ServedColumns columns = ServedColumns.read(main.store(), url, block.blockList(), policy);
        List<String> statements = grants.get().statements(grantee, columns.tables(), columns.served());
        if (!apply) {
            print(url, grantee, columns, grants.get(), statements);
            return 0;
        }
        SourceUrl admin = Sources.resolve(null, adminUrlEnv, main.env);
        if (!admin.kind().equals(url.kind())) {
            throw new UserError("The administrator's URL in " + adminUrlEnv + " is " + admin.kind().wireName()
                    + ", the source " + url.kind().wireName() + "; give an administrator of the same server.");
        }
        if (admin.user() != null && admin.user().equals(name)) {
            throw new UserError("The administrator's URL in " + adminUrlEnv + " connects as '" + name + "', the role being"
                    + " granted; give an administrator's URL, never the serving one.");
        }
        run(engine.get(), grants.get(), admin, statements);
        main.out().println("Applied " + statements.size() + " statements as the administrator on " + admin.displayUrl()
                + ": " + grantee + " reads " + columns.servedColumns() + " columns of " + columns.served().size() + " of "
                + columns.tables().size() + " tables; " + columns.blocked().size() + " withheld. Check it with"
                + " 'schemabrain doctor' on the serving URL.");
        return 0;
    }

    private void print(SourceUrl url, String grantee, ServedColumns columns, ColumnGrants grants, List<String> statements) {
        var out = main.out();
        out.println("-- SchemaBrain's database wall for " + grantee + " on " + url.displayUrl() + ": SELECT on "
                + columns.servedColumns() + " columns of " + columns.served().size() + " of " + columns.tables().size()
                + " indexed tables (block list: " + String.join(", ", columns.block().names()) + ").");
        out.println("-- Run as an administrator, or again with --apply --admin-url-env VAR.");
        grants.notes().forEach(n -> out.println("-- " + n));
        columns.blocked().forEach(w -> out.println("-- withheld: " + w));
        statements.forEach(out::println);
    }

    /** All statements in one transaction where the engine has transactional GRANTs (PostgreSQL). */
    private static void run(Engine engine, ColumnGrants grants, SourceUrl admin, List<String> statements)
            throws UserError {
        try (Connection c = grants.admin(admin)) {
            c.setAutoCommit(false);
            String at = null;
            try (Statement st = c.createStatement()) {
                for (String sql : statements) {
                    at = sql;
                    try {
                        st.execute(sql);
                    } catch (SQLException e) {
                        if (!(sql.startsWith("REVOKE") && grants.nothingToRevoke(e))) {
                            throw e;
                        }
                    }
                }
                c.commit();
            } catch (SQLException e) {
                rollback(c);
                throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "The administrator could not run " + at
                        + " (" + reason(engine, e) + "); PostgreSQL rolled every statement back, MySQL/MariaDB kept those"
                        + " before it.");
            }
        } catch (SQLException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot connect as the administrator to "
                    + admin.displayUrl() + " (" + reason(engine, e) + "); check the URL in the --admin-url-env variable.");
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The statement's failure is the one to report; closing the connection ends the transaction anyway.
        }
    }

    /** The engine's words for a failure, without anything from the URL. */
    private static String reason(Engine engine, SQLException e) {
        Failure f = engine.classify(e);
        String kind = f == Failure.OTHER ? "" : f.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": ";
        return kind + (e.getMessage() == null ? "SQLSTATE " + e.getSQLState() : e.getMessage().strip());
    }
}
