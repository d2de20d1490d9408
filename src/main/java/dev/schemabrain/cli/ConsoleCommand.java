package dev.schemabrain.cli;

import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.console.Console;
import dev.schemabrain.console.ConsoleServer;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schemabrain console}: the reviewer's web console on loopback, for one person. */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = {"Start the reviewer's web console on this machine: draft metrics with their assumptions, a real"
                + " answer for the last 12 months and the compiled SQL, each approved (after choosing the statuses it"
                + " counts, if need be) or rejected on its own; the audit chain; the tagged PII columns and data"
                + " subjects, confirmed, untagged or retagged into the PII policy file; what each role of the access"
                + " policy reaches. It prints a URL with a one-time token: open it in a browser on this machine (the"
                + " token signs in once). Stop it with Ctrl-C."})
final class ConsoleCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Mixin
    SourceOptions source;

    @Option(names = "--reviewer", paramLabel = "NAME",
            description = "Who reviews, recorded with the time on each metric approved and in the audit chain"
                    + " (default: the login user name).")
    String reviewer;

    @Option(names = "--as-of", paramLabel = "DATE",
            description = "The last 12 months end the day before DATE, as 2025-01-01 (default: today, UTC).")
    String asOf;

    @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "A loopback address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8765", paramLabel = "PORT",
            description = "The port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--project", paramLabel = "DIR",
            description = "A semantic project directory: each verdict is also written there as"
                    + " DIR/metrics/NAME.yaml, as export writes it, so the project can be kept in git"
                    + " (default: the store only).")
    Path project;

    @Option(names = "--audit-key", paramLabel = "FILE", description = "The audit chain's key file, as serve takes it"
            + " (default: $" + AuditKey.ENV + ", else the file serve uses, generated on first use).")
    Path auditKey;

    @Option(names = "--pii-policy", paramLabel = "FILE", defaultValue = "schemabrain/pii_policy.yaml",
            description = "The PII policy file the PII page writes and applies, as policy tag --file does"
                    + " (default: ${DEFAULT-VALUE}).")
    Path piiPolicy;

    @Option(names = "--access-policy", paramLabel = "FILE",
            description = "The access policy serve --access-policy reads: the roles page shows what each role reaches"
                    + " (default: none; the page then says every caller sees everything).")
    Path accessPolicy;

    @Override
    public Integer call() throws Exception {
        if (!ConsoleServer.loopback(host)) {
            throw new UserError("--host " + host + " is not a loopback address; the console serves one person on this"
                    + " machine, so use 127.0.0.1 or localhost.");
        }
        if (port < 0 || port > 65_535) {
            throw new UserError("--port " + port + " is not a port; use a number from 0 to 65535.");
        }
        if (accessPolicy != null) {
            AccessPolicyFile.read(accessPolicy);   // a broken policy is one sentence now, not a broken page later
        }
        if (!Stores.exists(main.store())) {
            throw new UserError("There is no store at " + main.store() + "; run 'schemabrain index --source URL' first or pass --store PATH.");
        }
        Optional<SourceUrl> url = source.given() ? Optional.of(source.resolve(main.env, main.err())) : Optional.empty();
        AuditKey key = AuditKey.resolve(Optional.ofNullable(auditKey), main.env, true);
        Console.Settings settings = new Console.Settings(main.store(), url, key, ApplyCommand.reviewer(reviewer), day(), host,
                port, piiPolicy, Optional.ofNullable(accessPolicy), Optional.ofNullable(project));
        Console console;
        try {
            console = Console.start(settings);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot listen on " + host + ":" + port + " ("
                    + e.getMessage() + "); pass --port with a free port, or --port 0.", e);
        }
        try (console; ShutdownHook hook = ShutdownHook.register("schemabrain-console-stop", console::close)) {
            // The one place the token appears: this terminal, as Jupyter prints its URL.
            main.out().println("schemabrain: the console is at " + console.loginUrl());
            main.out().println("schemabrain: open that URL once in a browser on this machine; it signs you in and is then spent.");
            main.out().flush();
            console.join();
        }
        return 0;
    }

    private LocalDate day() throws UserError {
        if (asOf == null) {
            return LocalDate.now(ZoneOffset.UTC);
        }
        try {
            return LocalDate.parse(asOf.strip());
        } catch (DateTimeParseException e) {
            throw new UserError("--as-of " + asOf + " is not a date; write it as 2025-01-01.");
        }
    }
}
