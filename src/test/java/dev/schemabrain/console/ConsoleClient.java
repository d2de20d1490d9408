package dev.schemabrain.console;

import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.audit.AuditRecord;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SemanticLayer;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A browser's requests to a console at {@code base} (no redirects followed, the cookie sent by hand), and what a store holds. */
record ConsoleClient(HttpClient http, String base) {

    ConsoleClient(String base) {
        this(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build(), base);
    }

    HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String cookie, Map<String, String> form, String origin) throws Exception {
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        if (origin != null) {
            b.header("Origin", origin);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The demo database written to {@code database} and indexed into {@code storeFile} for real; its URL. */
    static dev.schemabrain.engine.SourceUrl indexedDemo(java.nio.file.Path database, java.nio.file.Path storeFile) throws Exception {
        dev.schemabrain.demo.DemoDatabase.create(database);
        dev.schemabrain.engine.SourceUrl url = dev.schemabrain.engine.SourceUrl.parse("sqlite:" + database);
        try (dev.schemabrain.engine.SchemaSource source = dev.schemabrain.source.Sources.open(url)) {
            new dev.schemabrain.index.Indexer().run(url, source, storeFile, false, dev.schemabrain.index.IndexListener.SILENT);
        }
        return url;
    }

    /** A fresh random audit key. */
    static dev.schemabrain.audit.AuditKey randomKey() {
        byte[] raw = new byte[dev.schemabrain.audit.AuditKey.MIN_BYTES];
        new java.security.SecureRandom().nextBytes(raw);
        return dev.schemabrain.audit.AuditKey.of(raw);
    }

    static SemanticModel stored(StoreLocation store) throws Exception {
        try (Store s = Stores.open(store)) {
            return s.read(SemanticLayer::stored);
        }
    }

    static List<AuditRecord> auditRows(StoreLocation store) throws Exception {
        try (AuditLog log = AuditLog.openExisting(store)) {
            return log.list(10_000, OptionalLong.empty());
        }
    }
}
