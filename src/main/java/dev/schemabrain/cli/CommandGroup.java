package dev.schemabrain.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParentCommand;

/** A command that only groups subcommands ({@code entities list}, {@code import dbt}): alone, it prints its usage. */
abstract class CommandGroup implements Runnable {

    @ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
