package dev.schemabrain.cli;

import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.mcp.lint.DemoLint;
import dev.schemabrain.mcp.lint.Finding;
import dev.schemabrain.error.SchemaBrainException;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schemabrain lint}: the lint over every served tool: descriptions and happy-path answers. */
@Command(name = "lint", mixinStandardHelpOptions = true,
        description = {"Check every MCP tool: its description and its answers.",
                "A description must start \"Use this when\", say when to use another tool instead, name a tool it"
                        + " composes with and stay within 500 characters; each tool's happy path on a fresh demo database"
                        + " must answer with an envelope valid against the strict envelope schema (and so against the"
                        + " published outputSchema). Exit 0 clean, 1 with findings, 2 on error. Does not touch --store."})
final class LintCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Override
    public Integer call() throws IOException, SchemaBrainException {
        PrintWriter out = main.out();
        DemoLint.Report report = DemoLint.run(DemoDatabase::ensure);
        for (String tool : report.tools()) {
            List<Finding> own = report.findings().stream().filter(f -> f.tool().equals(tool)).toList();
            out.println((own.isEmpty() ? "ok    " : "FAIL  ") + tool);
            own.forEach(f -> out.println("      " + f.rule() + ": " + f.message()));
        }
        int n = report.findings().size();
        out.println(report.tools().size() + " tools, " + n + " finding" + (n == 1 ? "" : "s") + ".");
        return n == 0 ? 0 : 1;
    }
}
