package dev.schemabrain.cli;

import dev.schemabrain.error.UserError;
import dev.schemabrain.llm.KeyRoute;
import dev.schemabrain.llm.LlmOptions;
import dev.schemabrain.llm.LlmProvider;
import dev.schemabrain.llm.LlmSummary;
import dev.schemabrain.llm.PriceTable;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/** {@code index}'s LLM options; without --llm, or without a key for a vendor endpoint, nothing is asked. */
final class LlmIndexOptions {

    @Option(names = "--llm", paramLabel = "anthropic|openai", description = "Describe changed tables with a model:"
            + " the Anthropic Messages API or any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio).")
    String provider;

    @Option(names = "--no-llm", description = "Keep the offline describer (the default without --llm).")
    boolean noLlm;

    @Option(names = "--model", paramLabel = "M", description = "The model (default claude-haiku-4-5 for anthropic, gpt-4o-mini for openai).")
    String model;

    @Option(names = "--strong-model", paramLabel = "M", description = "The model for tables whose column names are cryptic"
            + " (few words, short abbreviations).")
    String strongModel;

    @Option(names = "--llm-url", paramLabel = "URL", description = "The endpoint's base URL (default the vendor's);"
            + " a local one such as http://localhost:11434 needs no key and costs nothing.")
    String url;

    @Option(names = "--llm-key-env", paramLabel = "VAR", description = "Read the API key from this environment variable"
            + " (default ANTHROPIC_API_KEY or OPENAI_API_KEY).")
    String keyEnv;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "4", description = "Concurrent requests (default ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--max-cost", paramLabel = "USD", defaultValue = "1.00", description = "Hard cap on this run's LLM spend"
            + " (default ${DEFAULT-VALUE}); tables left over are asked by the next run.")
    double maxCost;

    @Option(names = "--price-in", paramLabel = "USD", description = "USD per million input tokens, for a model the price table does not know.")
    Double priceIn;

    @Option(names = "--price-out", paramLabel = "USD", description = "USD per million output tokens, for a model the price table does not know.")
    Double priceOut;

    @Option(names = "--llm-timeout-ms", paramLabel = "MS", defaultValue = "60000", description = "Wait this long for one answer (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    /** The first back-off delay; tests shorten it. */
    @Option(names = "--llm-backoff-ms", hidden = true, defaultValue = "1000")
    long backoffMs;

    LlmOptions options(Map<String, String> env, PrintWriter err) throws UserError {
        if (noLlm || provider == null) {
            return LlmOptions.off();
        }
        String kind = provider.toLowerCase(Locale.ROOT);
        if (!kind.equals("anthropic") && !kind.equals("openai")) {
            throw new UserError("--llm takes anthropic or openai, not '" + provider + "'.");
        }
        if (workers < 1 || maxCost < 0 || timeoutMs < 1) {
            throw new UserError("--workers and --llm-timeout-ms must be at least 1 and --max-cost at least 0.");
        }
        String var = keyEnv != null ? keyEnv : kind.equals("anthropic") ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
        String key = env.get(var) == null ? null : env.get(var).strip();
        if (key != null && key.isEmpty()) {
            key = null;
        }
        if (key != null && key.chars().anyMatch(ch -> ch < 0x21 || ch > 0x7e)) {
            throw new UserError("The key in $" + var + " holds spaces or control characters; set it to the key alone.");
        }
        if (url != null && !validUrl(url)) {
            throw new UserError("--llm-url must be an http:// or https:// URL such as http://localhost:11434.");
        }
        if (key != null) {
            KeyRoute.Decision route = KeyRoute.decide(kind, url, key, var, keyEnv != null);
            route.warning().ifPresent(w -> err.println("warning: " + w));
            key = route.key();
        }
        if (key == null && (url == null || keyEnv != null)) {
            err.println("warning: no API key in $" + var + " for --llm " + kind
                    + "; indexing with the offline describer (set it, or give --llm-url for a local server).");
            return LlmOptions.off();
        }
        String m = model != null ? model : LlmOptions.defaultModel(kind);
        boolean local = LlmOptions.local(url);
        PriceTable prices = price(m, local);
        PriceTable strongPrices = strongModel == null ? prices : price(strongModel, local);
        LlmProvider p = LlmOptions.provider(kind, url, key, Duration.ofMillis(timeoutMs), Duration.ofMillis(backoffMs));
        return new LlmOptions(p, m, strongModel, prices, strongPrices, workers, maxCost);
    }

    private static boolean validUrl(String url) {
        try {
            URI u = URI.create(url);
            return ("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private PriceTable price(String m, boolean local) throws UserError {
        return PriceTable.of(m, local, priceIn, priceOut).orElseThrow(() -> new UserError("The price of model " + m
                + " is unknown, so --max-cost cannot hold; give --price-in and --price-out (USD per million tokens)."));
    }

    static void printSummary(PrintWriter out, PrintWriter err, LlmSummary s) {
        if (!s.asked()) {
            return;
        }
        if (s.dryRun()) {
            out.printf(Locale.ROOT, "  llm      %d of %d tables to describe with %s: about %d input and %d output tokens,"
                            + " estimated $%.4f (cap $%.2f); %d unchanged since their last description%n",
                    s.tables() - s.cached(), s.tables(), s.model(), s.estimatedInput(), s.estimatedOutput(),
                    s.estimatedUsd(), s.cap(), s.cached());
            return;
        }
        out.printf(Locale.ROOT, "  llm      %d requests to %s (%s), %d input and %d output tokens, $%.2f%s; %d tables unchanged"
                        + " since their last description%s%s%n",
                s.requests(), s.provider(), s.model(), s.inputTokens(), s.outputTokens(), s.usd(),
                s.usd() > 0 && s.usd() < 0.01 ? String.format(Locale.ROOT, " ($%.4f)", s.usd()) : "", s.cached(),
                s.failed() + s.unreachable() > 0 ? ", " + (s.failed() + s.unreachable()) + " kept offline" : "",
                s.left() > 0 ? String.format(Locale.ROOT, ", %d tables left by the $%.2f cap (the next run goes on)",
                        s.left(), s.cap()) : "");
        s.warnings().forEach(w -> err.println("warning: " + w));
    }
}
