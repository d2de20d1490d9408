package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code audit head --publish TARGET}: the signed head sent somewhere the audited host cannot take back —
 * a witness file (one {@code COUNT:HASH MAC} line appended, the format serve's --audit-witness writes and
 * verify reads), a syslog collector (one RFC 5424 line over UDP), or an HTTP sink (one JSON POST). Only what
 * a reader of the log may see leaves: the count, the hash, the MAC and the key's id, never the key.
 */
public final class HeadPublisher {

    /** Where a head goes; {@link #parse} reads the operator's text. */
    public sealed interface Target permits FileTarget, Syslog, Http {
    }

    public record FileTarget(Path file) implements Target {
    }

    public record Syslog(String host, int port) implements Target {
    }

    public record Http(URI uri) implements Target {
    }

    private static final int SYSLOG_PORT = 514;
    /** facility 13 (log audit) × 8 + severity 5 (notice). */
    private static final int SYSLOG_PRI = 13 * 8 + 5;

    private HeadPublisher() {
    }

    /** {@code syslog}, {@code syslog://HOST[:PORT]}, {@code http(s)://…}, else a file path ({@code file:PATH} too). */
    public static Target parse(String text) throws AuditException {
        String t = text.strip();
        try {
            if (t.equals("syslog")) {
                return new Syslog("localhost", SYSLOG_PORT);
            }
            if (t.startsWith("syslog://")) {
                URI u = URI.create("udp" + t.substring("syslog".length()));
                if (u.getHost() == null) {
                    throw new IllegalArgumentException("no host");
                }
                return new Syslog(u.getHost(), u.getPort() < 0 ? SYSLOG_PORT : u.getPort());
            }
            if (t.startsWith("http://") || t.startsWith("https://")) {
                return new Http(URI.create(t));
            }
        } catch (IllegalArgumentException e) {
            throw new AuditException("--publish " + t + " is not a target: give a file, syslog, syslog://HOST[:PORT] or an"
                    + " http(s):// URL.", null);
        }
        return new FileTarget(Path.of(t.startsWith("file:") ? t.substring("file:".length()) : t));
    }

    /** Sends {@code w}; answers where it went, for the operator. */
    public static String publish(Target target, Witness w, String keyId) throws AuditException {
        if (target instanceof FileTarget f) {
            WitnessFile file = new WitnessFile(f.file());
            file.prepare();
            file.append(w);
            return "the witness file " + f.file();
        }
        if (target instanceof Syslog s) {
            return syslog(s, w, keyId);
        }
        return http((Http) target, w, keyId);
    }

    private static String syslog(Syslog s, Witness w, String keyId) throws AuditException {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException unknown) {
            host = "-";
        }
        String line = "<" + SYSLOG_PRI + ">1 " + Instant.now() + " " + host + " schemabrain - audit-head - "
                + "schemabrain audit head " + w.head() + " mac=" + w.mac() + " key_id=" + keyId;
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getByName(s.host()), s.port()));
        } catch (IOException e) {
            throw new AuditException("The audit head could not be sent to syslog at " + s.host() + ":" + s.port() + " ("
                    + e.getClass().getSimpleName() + "); check the host name and that a collector listens there.", e);
        }
        return "syslog at " + s.host() + ":" + s.port();
    }

    private static String http(Http h, Witness w, String keyId) throws AuditException {
        String body = "{\"head\":\"" + w.head() + "\",\"mac\":\"" + w.mac() + "\",\"key_id\":\"" + keyId + "\"}";
        URI shown = redacted(h.uri());
        try {
            HttpResponse<Void> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(
                    HttpRequest.newBuilder(h.uri()).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() / 100 != 2) {
                throw new AuditException("The audit head sink " + shown + " answered HTTP " + r.statusCode()
                        + "; check its URL and that it accepts a JSON POST.", null);
            }
        } catch (IOException e) {
            throw new AuditException("The audit head could not be sent to " + shown + " (" + e.getClass().getSimpleName()
                    + "); check the URL and that the sink is reachable.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("Sending the audit head to " + shown + " was interrupted.", e);
        }
        return shown.toString();
    }

    /** The sink's URL without user info or query (a token in it is not for the terminal). */
    private static URI redacted(URI u) {
        try {
            return new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), null, null);
        } catch (URISyntaxException e) {
            return URI.create(u.getScheme() + "://" + u.getHost());
        }
    }
}
