package dev.schemabrain.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * The URL query parameters an engine SchemaBrain may display and store (in the store's {@code sources}, in index
 * output, in messages): connection behaviour that holds no secret and no path to one. Everything else
 * (sslpassword, sslkey, sslcert, passfile, trustStorePassword, tokens, any parameter not listed) is
 * passed to the driver and never shown. An allow-list, because a deny-list misses the next driver's
 * secret parameter.
 */
public final class DisplayedParameters {

    private DisplayedParameters() {
    }

    /** The allow-list of {@code names}, compared in lower case as {@link Engine#displays} is asked. */
    public static Set<String> of(String... names) {
        return Set.copyOf(Arrays.stream(names).map(n -> n.toLowerCase(Locale.ROOT)).toList());
    }
}
