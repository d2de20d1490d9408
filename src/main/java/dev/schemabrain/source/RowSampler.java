package dev.schemabrain.source;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.SamplePolicy;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.Dialect;
import dev.schemabrain.engine.Purpose;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads sample values for a JDBC source: one bounded {@code SELECT … LIMIT} per table over the
 * columns {@link SamplePolicy} allows, identifiers taken from the catalog and quoted. Views are
 * not sampled (running one can be arbitrarily expensive); a table that cannot be read keeps no samples.
 */
public final class RowSampler {

    private static final Logger LOG = LoggerFactory.getLogger(RowSampler.class);
    private static final int ROWS_READ = 100;
    private static final int TIMEOUT_SECONDS = 10;

    private final Dialect dialect;

    /** @param dialect quotes identifiers for the engine */
    public RowSampler(Dialect dialect) {
        this.dialect = dialect;
    }

    /** The tables with samples filled in, reusing the previous ones where the options allow. */
    public List<Table> sampleAll(Connection connection, List<Table> tables, IntrospectionOptions options) {
        List<Table> result = new ArrayList<>(tables.size());
        for (Table table : tables) {
            result.add(sample(connection, table, options));
            options.progress().sampled(result.size(), tables.size());
        }
        return result;
    }

    public Table sample(Connection connection, Table table, IntrospectionOptions options) {
        // Row estimates are not trusted to skip a table: creating an index sets them to 0 on a filled table.
        if (!options.sampleValues() || table.kind() == TableKind.VIEW) {
            return table;
        }
        var reusable = options.reusableSamples(table);
        if (reusable.isPresent()) {
            Map<String, List<String>> old = reusable.get();
            return table.withColumns(table.columns().stream()
                    .map(c -> c.withSamples(old.getOrDefault(c.name(), List.of()))).toList());
        }
        List<Column> sampled = table.columns().stream()
                .filter(c -> SamplePolicy.mayCollect(c.name(), c.dataType())).toList();
        if (sampled.isEmpty()) {
            return table;
        }
        String sql = Purpose.STATEMENT_MARKER + "SELECT " + sampled.stream().map(c -> dialect.quote(c.name())).collect(Collectors.joining(", "))
                + " FROM " + dialect.quote(table.name().schema()) + "." + dialect.quote(table.name().table())
                + " LIMIT " + ROWS_READ;
        List<List<String>> values = new ArrayList<>();
        sampled.forEach(c -> values.add(new ArrayList<>()));
        try (Statement st = connection.createStatement()) {
            st.setQueryTimeout(TIMEOUT_SECONDS);
            st.setFetchSize(ROWS_READ);
            try (ResultSet rs = st.executeQuery(sql)) {
                while (rs.next()) {
                    for (int i = 0; i < sampled.size(); i++) {
                        values.get(i).add(readText(rs, i + 1));
                    }
                }
            }
        } catch (SQLException e) {
            LOG.debug("no samples for {}: {}", table.name(), e.getMessage());
            return table;
        }
        Map<String, List<String>> picked = new java.util.HashMap<>();
        for (int i = 0; i < sampled.size(); i++) {
            picked.put(sampled.get(i).name(), SamplePolicy.pick(values.get(i)));
        }
        return table.withColumns(table.columns().stream()
                .map(c -> c.withSamples(picked.getOrDefault(c.name(), List.of()))).toList());
    }

    private static String readText(ResultSet rs, int index) {
        try {
            String value = rs.getString(index);
            return value == null || value.length() <= 4 * SamplePolicy.MAX_LENGTH
                    ? value : value.substring(0, 4 * SamplePolicy.MAX_LENGTH);
        } catch (SQLException e) {
            return null;
        }
    }
}
