package dev.schemabrain.llm;

import dev.schemabrain.error.UserError;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Which endpoint an API key may travel to. A vendor's key read from its default variable ($OPENAI_API_KEY,
 * $ANTHROPIC_API_KEY) goes only to that vendor's host over TLS: any other --llm-url (a proxy, a local server, a
 * typo, a planted config) gets no key unless --llm-key-env names one for it. A named key still never crosses a
 * network in clear text: plain http is refused unless the host is this machine.
 */
public final class KeyRoute {

    /** @param key what to send (null: none); {@code warning} says why a key that was set is not sent */
    public record Decision(String key, Optional<String> warning) {
    }

    private KeyRoute() {
    }

    /**
     * @param url   the --llm-url, or null for the vendor's own
     * @param named whether --llm-key-env named {@code var} (else it is the vendor's default variable)
     */
    public static Decision decide(String kind, String url, String key, String var, boolean named) throws UserError {
        if (key == null) {
            return new Decision(null, Optional.empty());
        }
        URI target = URI.create(url != null ? url : "anthropic".equals(kind) ? AnthropicProvider.DEFAULT_URL : OpenAiProvider.DEFAULT_URL);
        String scheme = String.valueOf(target.getScheme()).toLowerCase(Locale.ROOT);
        String host = String.valueOf(target.getHost()).toLowerCase(Locale.ROOT);
        String shown = scheme + "://" + host + (target.getPort() < 0 ? "" : ":" + target.getPort());
        if (!named) {
            String vendor = URI.create("anthropic".equals(kind) ? AnthropicProvider.DEFAULT_URL : OpenAiProvider.DEFAULT_URL).getHost();
            boolean vendorTls = scheme.equals("https") && host.equals(vendor) && (target.getPort() < 0 || target.getPort() == 443);
            if (vendorTls) {
                return new Decision(key, Optional.empty());
            }
            return new Decision(null, Optional.of("$" + var + " is not sent to " + shown + ": it goes only to https://" + vendor
                    + "; to send a key to this endpoint, name its variable with --llm-key-env."));
        }
        if (scheme.equals("http") && !loopback(host)) {
            throw new UserError("--llm-url " + shown + " is plain http to another machine, which would send the key in $" + var
                    + " in clear text; use an https:// URL, or a server on this machine (http://localhost).");
        }
        return new Decision(key, Optional.empty());
    }

    /** This machine by name or address, never by a DNS lookup (a name could resolve anywhere). */
    static boolean loopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1") || h.matches("127(\\.\\d{1,3}){3}");
    }
}
