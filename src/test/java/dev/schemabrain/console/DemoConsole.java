package dev.schemabrain.console;

import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.StoreLocation;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the console tests share: the demo database indexed for real, and HTTP to a running console. */
final class DemoConsole {

    private DemoConsole() {
    }

    /** The demo's SQLite file, indexed into a store, and an audit key of the operator's. */
    record Indexed(Path database, SourceUrl url, StoreLocation store, AuditKey key) {
    }

    static Indexed index(Path dir) throws Exception {
        Path database = dir.resolve("demo.sqlite");
        Path storeFile = dir.resolve("store.db");
        SourceUrl url = indexedDemo(database, storeFile);
        return new Indexed(database, url, new StoreLocation.SqliteFile(storeFile), randomKey());
    }

    /** The demo database written to {@code database} and indexed into {@code storeFile} for real; its URL. */
    static SourceUrl indexedDemo(Path database, Path storeFile) throws Exception {
        DemoDatabase.create(database);
        SourceUrl url = SourceUrl.parse("sqlite:" + database);
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, storeFile, false, IndexListener.SILENT);
        }
        return url;
    }

    /** A fresh random audit key. */
    static AuditKey randomKey() {
        byte[] raw = new byte[AuditKey.MIN_BYTES];
        new SecureRandom().nextBytes(raw);
        return AuditKey.of(raw);
    }

    /** The semantic layer a console wrote into {@code store}. */
    static SemanticModel stored(StoreLocation store) throws Exception {
        try (Store s = Stores.open(store)) {
            return s.read(SemanticLayer::stored);
        }
    }

    /** The rows of {@code store}'s audit chain. */
    static List<AuditRecord> auditRows(StoreLocation store) throws Exception {
        try (AuditLog log = AuditLog.openExisting(store)) {
            return log.list(10_000, OptionalLong.empty());
        }
    }

    /** The one-time token of the console's printed URL. */
    static String token(Console console) {
        String login = console.loginUrl();
        return login.substring(login.indexOf("token=") + "token=".length());
    }

    /** Spends the token; answers the session cookie ({@code name=value}), checked HttpOnly and SameSite=Strict. */
    static String signIn(Console console, String token) throws Exception {
        HttpResponse<String> signedIn = get(console, "/login?token=" + token, null);
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        String set = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(set.contains("HttpOnly") && set.contains("SameSite=Strict"), set);
        return set.substring(0, set.indexOf(';'));
    }

    static HttpResponse<String> get(Console console, String path, String cookie) throws Exception {
        return client(console).get(path, cookie);
    }

    /** A form POST; {@code cookie} and {@code origin} are left out when null. */
    static HttpResponse<String> post(Console console, String path, String cookie, Map<String, String> form, String origin)
            throws Exception {
        return client(console).post(path, cookie, form, origin);
    }

    private static ConsoleClient client(Console console) {
        return new ConsoleClient("http://127.0.0.1:" + console.port());
    }
}
