package dev.schemabrain.testing;

import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.source.Sources;

import java.nio.file.Path;

/** A source indexed into a store file the way {@code schemabrain index} does, for tests that serve it. */
public final class Indexed {

    private Indexed() {
    }

    /** Indexes {@code url} into {@code store} (created) and answers {@code store}. */
    public static Path store(SourceUrl url, Path store) throws Exception {
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        return store;
    }
}
