package dev.schemabrain.mcp.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The tools/list result as bytes, built once per catalog version: serializing thirteen definitions on
 * every request cost more than answering a describe_table. Transports write {@link #bytes} as the
 * JSON-RPC result; the counters are what /health and the stats line report.
 */
public final class ToolListCache {

    private final Function<String, List<McpSchema.Tool>> definitions;
    private final McpJsonMapper json;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong builds = new AtomicLong();
    private final AtomicLong buildNanos = new AtomicLong();
    private final AtomicLong maxBuildNanos = new AtomicLong();
    private volatile Built built;

    private record Built(String version, byte[] bytes) {
    }

    /** What the cache did so far; build times in milliseconds. */
    public record Stats(long hits, long misses, long builds, double buildAvgMs, double buildMaxMs) {

        public long requests() {
            return hits + misses;
        }

        /** Percent of tools/list requests answered from the cached bytes. */
        public double hitRatePct() {
            return requests() == 0 ? 0 : Math.round(1000.0 * hits / requests()) / 10.0;
        }

        /** The periodic stats line, one line for the log. */
        public String line() {
            return String.format(Locale.ROOT, "tools/list stats requests=%d hit_rate=%.1f%% cache_hits=%d"
                    + " cache_misses=%d builds=%d build_avg_ms=%.2f build_max_ms=%.2f", requests(), hitRatePct(), hits,
                    misses, builds, buildAvgMs, buildMaxMs);
        }
    }

    /** @param definitions the tool definitions for a catalog version */
    public ToolListCache(Function<String, List<McpSchema.Tool>> definitions, McpJsonMapper json) {
        this.definitions = definitions;
        this.json = json;
    }

    /** The serialized {@code ListToolsResult} for {@code catalogVersion}; built again when the version changed. */
    public byte[] bytes(String catalogVersion) {
        Built b = built;
        if (b != null && Objects.equals(b.version, catalogVersion)) {
            hits.incrementAndGet();
            return b.bytes;
        }
        synchronized (this) {
            b = built;
            if (b != null && Objects.equals(b.version, catalogVersion)) {
                hits.incrementAndGet();
                return b.bytes;
            }
            misses.incrementAndGet();
            long start = System.nanoTime();
            byte[] bytes = serialize(new McpSchema.ListToolsResult(definitions.apply(catalogVersion), null));
            long took = System.nanoTime() - start;
            builds.incrementAndGet();
            buildNanos.addAndGet(took);
            maxBuildNanos.accumulateAndGet(took, Math::max);
            built = new Built(catalogVersion, bytes);
            return bytes;
        }
    }

    public Stats stats() {
        long n = builds.get();
        return new Stats(hits.get(), misses.get(), n, n == 0 ? 0 : buildNanos.get() / 1e6 / n, maxBuildNanos.get() / 1e6);
    }

    private byte[] serialize(McpSchema.ListToolsResult result) {
        try {
            return json.writeValueAsString(result).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the tool definitions always serialize", e);
        }
    }
}
