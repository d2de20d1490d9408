package dev.schemabrain.cli;

import dev.schemabrain.error.StoreException;
import dev.schemabrain.llm.LlmStore;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** {@code schemabrain llm ledger}: what LLM enrichment cost, per index run and model. */
@Command(name = "llm", mixinStandardHelpOptions = true, description = "LLM enrichment: the cost ledger.")
final class LlmCommand extends CommandGroup {

    @Command(name = "ledger", mixinStandardHelpOptions = true,
            description = "Print the LLM spend of every index run, per model: requests, tokens and USD.")
    int ledger() throws StoreException {
        List<LlmStore.RunTotal> rows;
        if (!Stores.exists(main.store())) {
            rows = List.of();
        } else {
            try (Store store = Stores.open(main.store())) {
                rows = store.read(LlmStore::ledger);
            }
        }
        PrintWriter out = main.out();
        if (rows.isEmpty()) {
            main.err().println("No LLM spend in " + main.store() + "; 'schemabrain index --llm anthropic|openai' records it.");
            return 0;
        }
        out.printf("%-27s %-10s %-28s %8s %12s %12s %10s%n", "run", "provider", "model", "requests", "input", "output", "usd");
        int requests = 0;
        long in = 0;
        long outTokens = 0;
        double usd = 0;
        for (LlmStore.RunTotal r : rows) {
            out.printf(Locale.ROOT, "%-27s %-10s %-28s %8d %12d %12d %10.4f%n", r.runStartedAt(), r.provider(), r.model(),
                    r.requests(), r.inputTokens(), r.outputTokens(), r.usd());
            requests += r.requests();
            in += r.inputTokens();
            outTokens += r.outputTokens();
            usd += r.usd();
        }
        out.printf(Locale.ROOT, "%-27s %-10s %-28s %8d %12d %12d %10.4f%n", "total", "", "", requests, in, outTokens, usd);
        return 0;
    }
}
