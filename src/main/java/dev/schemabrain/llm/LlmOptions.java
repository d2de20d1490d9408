package dev.schemabrain.llm;

import java.net.URI;
import java.time.Duration;

/**
 * One run's LLM settings. {@code provider} null means no model is asked (--no-llm, or no key and no
 * URL): stored LLM descriptions whose table did not change are kept, nothing else.
 *
 * @param strongModel the model for cryptic tables, or null to use {@code model} for every table
 */
public record LlmOptions(LlmProvider provider, String model, String strongModel, PriceTable prices,
                         PriceTable strongPrices, int workers, double maxCost) {

    public static final double DEFAULT_MAX_COST = 1.00;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public static LlmOptions off() {
        return new LlmOptions(null, null, null, PriceTable.FREE, PriceTable.FREE, 1, DEFAULT_MAX_COST);
    }

    public boolean asks() {
        return provider != null;
    }

    /** The provider for {@code kind} (anthropic | openai) at {@code url} (null: the vendor's), with the key (may be null). */
    public static LlmProvider provider(String kind, String url, String key, Duration timeout, Duration backoffBase) {
        Backoff backoff = new Backoff(Backoff.standard().attempts(), backoffBase);
        return switch (kind) {
            case "anthropic" -> new AnthropicProvider(url == null ? AnthropicProvider.DEFAULT_URL : url, key, timeout, backoff);
            case "openai" -> new OpenAiProvider(url == null ? OpenAiProvider.DEFAULT_URL : url, key, timeout, backoff);
            default -> throw new IllegalArgumentException("unknown LLM provider " + kind);
        };
    }

    public static String defaultModel(String kind) {
        return "anthropic".equals(kind) ? "claude-haiku-4-5" : "gpt-4o-mini";
    }

    /** Whether the URL names this machine: a local server (Ollama, LM Studio) costs nothing. */
    public static boolean local(String url) {
        if (url == null) {
            return false;
        }
        String host = URI.create(url).getHost();
        return host != null && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]") || host.equals("::1"));
    }
}
