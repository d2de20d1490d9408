package dev.schemabrain.served;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.store.Stores;
import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call waits for a catalog load under way only up to a bound, then is told to retry; a listing that does not read
 * the catalog does not wait at all. The load is held up for real: a transaction holds one of the catalog's tables in
 * a PostgreSQL store.
 */
class CatalogLoadBoundIT {

    @TempDir
    Path work;

    @Test
    void aCallWaitsForALoadUnderWayUpToTheBoundThenIsToldToRetry() throws Exception {
        Path demo = DemoDatabase.ensure(work.resolve("demo.sqlite"));
        String schema = "it_bound_" + ProcessHandle.current().pid();
        String store = TestPostgres.url("postgres") + "?schema=" + schema;
        Cli.Result indexed = Cli.run(work, "--store", store, "index", "--source", "sqlite:" + demo);
        assertEquals(0, indexed.exitCode(), indexed.stderr());
        StoreCatalogProvider provider = new StoreCatalogProvider(Stores.location(store, null, null, Map.of()),
                () -> null, Optional.empty());
        provider.waitForLoadsAtMost(Duration.ofMillis(300));
        try (Connection holder = TestPostgres.connect("postgres"); Statement st = holder.createStatement()) {
            holder.setAutoCommit(false);
            st.execute("LOCK TABLE " + schema + ".catalog_foreign_keys IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Optional<ServedCatalog>> first = CompletableFuture.supplyAsync(provider::current);
            Thread.sleep(1_000);
            assertFalse(first.isDone(), "the first load waits for the held table");
            long started = System.nanoTime();
            assertThrows(CatalogProvider.StillLoading.class, provider::current, "a second call does not wait for ever");
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(waited >= 250 && waited < 5_000, "it waited about its bound: " + waited + " ms");
            assertTrue(provider.currentWithoutWaiting().isEmpty(), "nothing was loaded before, and nothing waits");
            JsonNode answer = StandardTools.registry(provider, Optional.empty())
                    .call("describe_table", Map.of("qualified_name", "main.users")).toTree();
            assertEquals("index_not_ready", answer.at("/error/kind").asText(), answer.toString());
            assertTrue(answer.at("/error/message").asText().contains("still loading"), answer.toString());
            assertEquals("describe_table", answer.at("/error/recovery/suggested_tool").asText(), "the same call, again");
            assertEquals("main.users", answer.at("/error/recovery/suggested_args/qualified_name").asText());
            holder.rollback();
            ServedCatalog loaded = first.get(30, TimeUnit.SECONDS).orElseThrow();
            assertTrue(loaded.catalog().tables().size() > 10, "the first load finishes once the table is free");
            assertEquals(loaded, provider.current().orElseThrow(), "and serves the calls after it");
        } finally {
            try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }
}
