package dev.schemabrain.engine;

import dev.schemabrain.error.SourceException;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A parsed source address. {@code postgresql://}, {@code postgres://}, {@code mysql://},
 * {@code mariadb://}, {@code sqlite:PATH}, the other schemes of {@link Engines}, {@code ddl:PATH} and
 * {@code spider:PATH}.
 * Credentials are split out of the URL at once: {@link #displayUrl()} and {@link #sourceId()} never
 * contain them, and {@link #toString()} is the display form. The display form keeps only the query
 * parameters its engine {@linkplain Engine#displays displays}; every other one (sslpassword, sslkey, passfile, tokens,
 * anything unknown) still reaches the driver through {@link #query()} but is never shown or stored.
 *
 * @param host       server host (live network sources) or null
 * @param port       server port, or -1 for the engine default
 * @param database   database name (network sources) or null
 * @param path       file path (sqlite, ddl, spider) or null
 * @param query      the URL's query string without user and password (passed to the driver, never shown), or empty
 * @param user       user name or null
 * @param password   password or null; never printed
 */
public record SourceUrl(SourceKind kind, String host, int port, String database, Path path, String query,
                        String user, String password, String displayUrl) {

    /**
     * First 16 hex characters of the SHA-256 of the display URL: without credentials and without query
     * parameters outside the allow-list (a hash of a short secret could be reversed by guessing).
     */
    public String sourceId() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(displayUrl.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** User and password as driver properties: credentials never go into a JDBC URL string. */
    public Properties credentials() {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        return props;
    }

    public boolean hasPassword() {
        return password != null && !password.isEmpty();
    }

    /** Whether the URL as written holds nothing the display form hides: no password, no hidden query parameter. */
    public boolean holdsNoSecret() {
        return !hasPassword() && (query.isEmpty() || displayUrl.endsWith("?" + query));
    }

    @Override
    public String toString() {
        return displayUrl;
    }

    public static SourceUrl parse(String url) throws SourceException {
        if (url == null || url.isBlank()) {
            throw new SourceException("No source was given; pass --source URL or --url-env VAR.");
        }
        String trimmed = url.strip();
        int colon = trimmed.indexOf(':');
        String scheme = colon < 0 ? "" : trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
        if (scheme.equals("ddl") || scheme.equals("spider")) {
            return file(scheme.equals("ddl") ? SourceKind.DDL : SourceKind.SPIDER, trimmed.substring(colon + 1));
        }
        Engine engine = Engines.forScheme(scheme).orElseThrow(() -> new SourceException("Unknown source URL scheme"
                + (scheme.isEmpty() ? "" : " '" + scheme + "'") + "; use " + knownSchemes() + "."));
        return engine.fileBased() ? file(engine.kind(), trimmed.substring(colon + 1))
                : network(engine, engine.shownScheme(scheme), trimmed);
    }

    /** Every scheme as help writes it: postgresql://, …, sqlite:FILE, ddl:FILE or spider:FILE. */
    private static String knownSchemes() {
        List<String> shown = new ArrayList<>(Engines.urlForms());
        shown.add("ddl:FILE");
        return String.join(", ", shown) + " or spider:FILE";
    }

    private static SourceUrl file(SourceKind kind, String rest) throws SourceException {
        String location = rest.startsWith("//") ? rest.substring(2) : rest;
        if (location.isBlank()) {
            throw new SourceException("The " + kind.wireName() + ": source names no file; write it as "
                    + kind.wireName() + ":/path/to/file.");
        }
        Path path = Path.of(location).toAbsolutePath().normalize();
        return new SourceUrl(kind, null, -1, null, path, "", null, null, kind.wireName() + ":" + path);
    }

    private static SourceUrl network(Engine engine, String scheme, String url) throws SourceException {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            // Never echo the input: it may hold a password.
            throw new SourceException("The source URL is not a valid URL; write it as "
                    + scheme + "://user:password@host:port/database (percent-encode special characters).");
        }
        if (uri.getHost() == null) {
            throw new SourceException("The source URL names no host; write it as "
                    + scheme + "://user@host:port/database.");
        }
        String user = null;
        String password = null;
        if (uri.getRawUserInfo() != null) {
            String info = uri.getRawUserInfo();
            int sep = info.indexOf(':');
            user = decode(sep < 0 ? info : info.substring(0, sep));
            password = sep < 0 ? null : decode(info.substring(sep + 1));
        }
        String database = uri.getPath() == null || uri.getPath().length() <= 1 ? null : uri.getPath().substring(1);
        List<String> kept = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                switch (key(pair)) {
                    case "password" -> password = decode(pair.substring(pair.indexOf('=') + 1));
                    case "user" -> user = decode(pair.substring(pair.indexOf('=') + 1));
                    default -> kept.add(pair);
                }
            }
        }
        String query = String.join("&", kept);
        // Only parameters known to hold no secret are shown or stored (the source id is derived from them too).
        String shown = String.join("&", kept.stream().filter(pair -> engine.displays(key(pair))).toList());
        StringBuilder display = new StringBuilder(scheme).append("://").append(uri.getHost());
        if (uri.getPort() >= 0) {
            display.append(':').append(uri.getPort());
        }
        display.append('/').append(database == null ? "" : database);
        if (!shown.isEmpty()) {
            display.append('?').append(shown);
        }
        return new SourceUrl(engine.kind(), uri.getHost(), uri.getPort(), database, null, query, user, password, display.toString());
    }

    /** The parameter's name, lower case. */
    private static String key(String pair) {
        return (pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair).toLowerCase(Locale.ROOT);
    }

    private static String decode(String raw) {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
