package dev.schemabrain.serve;

import dev.schemabrain.audit.AuditDurability;
import dev.schemabrain.audit.AuditKey;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.mcp.server.CallerRates;
import dev.schemabrain.mcp.server.ToolListing;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A whole stdio serve in this JVM: start, one call, end of stdin; then the closing order and the last line. */
class ServeLifecycleTest {

    @TempDir
    Path dir;

    @Test
    void aStdioServeClosesInOrderAndCountsTheRowsItWrote() throws Exception {
        Path source = dir.resolve("shop.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + source); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE orders (id integer PRIMARY KEY, total numeric, placed_at date)");
        }
        Path storeFile = dir.resolve("shop.db");
        Map<String, String> env = Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve(".config").toString());
        assertEquals(0, InProcessCli.run(env, "index", "--source", "sqlite:" + source, "--store", storeFile.toString())
                .exitCode());
        StoreLocation store = new StoreLocation.SqliteFile(storeFile);
        AuditKey key = AuditKey.resolve(Optional.of(dir.resolve("audit.key")), env, true);
        long before = rows(store, key);

        String stdin = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"describe_table\","
                + "\"arguments\":{\"qualified_name\":\"main.orders\"}}}\n";
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        ServeSettings settings = new ServeSettings(store, Optional.empty(), Optional.of(key), Optional.empty(),
                AuditDurability.STARTED_ROWS, CallerRates.OFF, 2, 5, ToolListing.FULL, Duration.ZERO, "test",
                Optional.empty());
        ServeLifecycle serve = new ServeLifecycle(settings, Optional.empty(),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(frames, true, StandardCharsets.UTF_8), new PrintWriter(err, true), () -> "SIGTERM",
                () -> false);
        serve.start();
        serve.run();

        assertTrue(frames.toString(StandardCharsets.UTF_8).contains("\"id\":1"), frames.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("stopped accepting", "warm-up ended", "embedder closed", "audit log closed",
                "executor closed"), serve.closingSteps());
        long written = rows(store, key) - before;
        assertTrue(written > 0, "the call wrote no audit row");
        assertEquals("schemabrain: stopped after stdin closed, " + written + " audit rows written.",
                err.toString().strip());
    }

    private static long rows(StoreLocation store, AuditKey key) throws Exception {
        try (AuditLog log = AuditLog.open(store, key, Optional.empty(), AuditDurability.STARTED_ROWS)) {
            return log.head().count();
        }
    }
}
