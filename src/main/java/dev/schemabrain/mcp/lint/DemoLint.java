package dev.schemabrain.mcp.lint;

import dev.schemabrain.execute.ExecutorSettings;
import dev.schemabrain.execute.QueryExecutor;
import java.util.Optional;

import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tools.StandardTools;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.Sources;
import dev.schemabrain.error.StoreException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** The charter lint over the served tools, their happy paths run on a fresh demo store in a temp directory. */
public final class DemoLint {

    /** The tools checked, in tools/list order, and what is wrong with them. */
    public record Report(List<String> tools, List<Finding> findings) {
    }

    private DemoLint() {
    }

    /**
     * @param writeDemo writes the demo database to the file it is given; the caller's, so that this package
     *                  does not reach up to the demo
     */
    public static Report run(Consumer<Path> writeDemo) throws IOException, SourceException, StoreException {
        Path dir = Files.createTempDirectory("schemabrain-lint");
        try {
            Path database = dir.resolve("demo.sqlite");
            Path store = dir.resolve("lint.db");
            writeDemo.accept(database);
            SourceUrl url = SourceUrl.parse("sqlite:" + database);
            try (SchemaSource source = Sources.open(url)) {
                new Indexer().run(url, source, store, false, IndexListener.SILENT);
            }
            // The demo database is also get_metric's source, so its happy path runs a real query.
            try (QueryExecutor executor = new QueryExecutor(url, ExecutorSettings.defaults())) {
                ToolRegistry registry = StandardTools.registry(new StoreCatalogProvider(store), Optional.of(executor));
                return new Report(registry.names(), CharterLint.check(registry, DemoHappyPaths.calls()));
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
