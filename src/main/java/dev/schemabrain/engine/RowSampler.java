package dev.schemabrain.engine;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.GovernmentIds;
import dev.schemabrain.catalog.SamplePolicy;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.ValuePolicy;
import dev.schemabrain.catalog.ValueShape;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads sample and indexed values for a JDBC source: one bounded {@code SELECT … LIMIT} per table over the
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
        var reusable = options.reusableData(table);
        if (reusable.isPresent()) {
            return reusable.get();
        }
        List<Column> sampled = table.columns().stream()
                .filter(c -> SamplePolicy.mayCollect(c.name(), c.dataType())).toList();
        if (sampled.isEmpty()) {
            return table;
        }
        String sql = Purpose.STATEMENT_MARKER + "SELECT " + sampled.stream().map(c -> dialect.quote(c.name())).collect(Collectors.joining(", "))
                + " FROM " + dialect.qualified(table.name())
                + " LIMIT " + ValuePolicy.ROWS_READ;
        List<List<String>> values = new ArrayList<>();
        sampled.forEach(c -> values.add(new ArrayList<>()));
        try (Statement st = connection.createStatement()) {
            st.setQueryTimeout(TIMEOUT_SECONDS);
            st.setFetchSize(ValuePolicy.ROWS_READ);
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
        Table read = withData(table, sampled.stream().map(Column::name).toList(), values);
        return withAllValues(connection, read);
    }

    /**
     * Status and currency columns ({@link ValuePolicy#readsAllValues}) with every distinct value the table holds,
     * most frequent first, when there are at most {@link ValuePolicy#MAX_PER_COLUMN}; a column with more, or one that
     * cannot be read in time, keeps the values of the rows read.
     */
    private Table withAllValues(Connection connection, Table table) {
        List<Column> columns = new ArrayList<>(table.columns());
        boolean changed = false;
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (!ValuePolicy.readsAllValues(c.name()) || !ValuePolicy.mayIndex(c.name(), c.dataType()) || c.values().isEmpty()) {
                continue;
            }
            String column = dialect.quote(c.name());
            String sql = Purpose.STATEMENT_MARKER + "SELECT " + column + " FROM " + dialect.qualified(table.name())
                    + " WHERE " + column + " IS NOT NULL GROUP BY " + column + " ORDER BY COUNT(*) DESC LIMIT "
                    + (ValuePolicy.MAX_PER_COLUMN + 1);
            List<String> distinct = new ArrayList<>();
            try (Statement st = connection.createStatement()) {
                st.setQueryTimeout(TIMEOUT_SECONDS);
                try (ResultSet rs = st.executeQuery(sql)) {
                    while (rs.next()) {
                        distinct.add(readText(rs, 1));
                    }
                }
            } catch (SQLException e) {
                LOG.debug("no distinct values of {}.{}: {}", table.name(), c.name(), e.getMessage());
                continue;
            }
            if (distinct.size() <= ValuePolicy.MAX_PER_COLUMN) {
                columns.set(i, c.withValues(ValuePolicy.pick(c.name(), distinct)));
                changed = true;
            }
        }
        return changed ? table.withColumns(columns) : table;
    }

    /**
     * The table with samples (from the first {@value #ROWS_READ} rows, as before values were read) and indexed
     * values (from all rows read, for the columns {@link ValuePolicy} allows) of the columns read.
     *
     * @param read   the names of the columns read, in the order of {@code values}
     * @param values each read column's raw values, one per row
     */
    public static Table withData(Table table, List<String> read, List<List<String>> values) {
        Map<String, List<String>> samples = new HashMap<>();
        Map<String, List<String>> indexed = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            List<String> column = values.get(i);
            // Whether the column holds government ids is read from every value read, not only the sampled hundred.
            samples.put(read.get(i), GovernmentIds.column(read.get(i), column).isPresent()
                    ? List.of(ValueShape.NATIONAL_ID.placeholder())
                    : SamplePolicy.pick(read.get(i), column.subList(0, Math.min(ROWS_READ, column.size()))));
            Column c = table.column(read.get(i)).orElseThrow();
            if (ValuePolicy.mayIndex(c.name(), c.dataType())) {
                indexed.put(c.name(), ValuePolicy.pick(c.name(), column));
            }
        }
        return table.withColumns(table.columns().stream()
                .map(c -> c.withSamples(samples.getOrDefault(c.name(), List.of()))
                        .withValues(indexed.getOrDefault(c.name(), List.of()))).toList());
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
