package dev.schemabrain.engine;

import java.util.Locale;
import java.util.Set;

/**
 * The URL query parameters SchemaBrain may display and store (in the store's {@code sources}, in index
 * output, in messages): connection behaviour that holds no secret and no path to one. Everything else
 * (sslpassword, sslkey, sslcert, passfile, trustStorePassword, tokens, any parameter not listed) is
 * passed to the driver and never shown. An allow-list, because a deny-list misses the next driver's
 * secret parameter.
 */
public final class DisplayedParameters {

    private static final Set<String> POSTGRESQL = lower(Set.of("sslmode", "ssl", "gssEncMode", "connectTimeout",
            "socketTimeout", "loginTimeout", "cancelSignalTimeout", "tcpKeepAlive", "applicationName", "ApplicationName",
            "currentSchema", "targetServerType", "loadBalanceHosts", "readOnly", "readOnlyMode", "prepareThreshold",
            "defaultRowFetchSize", "reWriteBatchedInserts", "stringtype", "assumeMinServerVersion"));
    private static final Set<String> MYSQL = lower(Set.of("sslMode", "useSSL", "requireSSL", "verifyServerCertificate",
            "connectTimeout", "socketTimeout", "tcpKeepAlive", "serverTimezone", "connectionTimeZone", "characterEncoding",
            "useUnicode", "zeroDateTimeBehavior", "allowPublicKeyRetrieval", "useCompression", "defaultFetchSize",
            "enabledSslProtocolSuites", "enabledTlsProtocols"));

    private DisplayedParameters() {
    }

    /** Whether {@code pair} ({@code key=value} as written in the URL) may be shown for a source of {@code kind}. */
    static boolean shown(SourceKind kind, String pair) {
        String key = (pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair).toLowerCase(Locale.ROOT);
        return switch (kind) {
            case POSTGRESQL -> POSTGRESQL.contains(key);
            case MYSQL -> MYSQL.contains(key);
            default -> false;
        };
    }

    private static Set<String> lower(Set<String> names) {
        return Set.copyOf(names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList());
    }
}
