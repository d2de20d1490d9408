package dev.schemabrain.source.spider;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.RowSampler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Samples and indexed values of one Spider database from its SQLite file beside the tables file, read through the
 * same read-only connection and bounded query as an {@code sqlite:} source. The file's size and modification time
 * are each table's data version, so a re-index of an unchanged file reuses what it read last time.
 */
final class SpiderData {

    private static final Logger LOG = LoggerFactory.getLogger(SpiderData.class);

    private SpiderData() {
    }

    static List<Table> sample(Path database, List<Table> tables, IntrospectionOptions options) throws SourceException {
        String version;
        try {
            version = "spider-sqlite:" + Files.size(database) + ":" + Files.getLastModifiedTime(database).toMillis();
        } catch (IOException e) {
            LOG.debug("no data from {}: {}", database, e.getMessage());
            return tables;
        }
        List<Table> versioned = tables.stream().map(t -> new Table(t.name(), t.kind(), t.rowEstimate(), t.comment(),
                t.columns(), t.primaryKey(), t.foreignKeys(), t.uniqueConstraints(), version)).toList();
        if (!options.sampleValues()) {
            return versioned;
        }
        List<Table> out = new ArrayList<>(versioned.size());
        RowSampler sampler = new RowSampler(Engines.SQLITE);
        // The file is read under SQLite's own schema name; the rows are then put back under the db_id.
        IntrospectionOptions fresh = new IntrospectionOptions(true, name -> Optional.empty());
        try (Connection connection = Engines.SQLITE.connect(SourceUrl.parse("sqlite:" + database.toAbsolutePath()),
                Purpose.introspection())) {
            for (Table table : versioned) {
                Optional<Table> reused = options.reusableData(table);
                if (reused.isPresent()) {
                    out.add(reused.get());
                    continue;
                }
                Table inMain = new Table(QualifiedName.of("main", table.name().table()), table.kind(), null, null,
                        table.columns(), table.primaryKey(), List.of(), List.of(), null);
                out.add(table.withColumns(sampler.sample(connection, inMain, fresh).columns()));
            }
        } catch (SQLException e) {
            LOG.debug("no data from {}: {}", database, e.getMessage());
            return versioned;
        }
        return out;
    }
}
