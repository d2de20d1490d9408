package dev.schemabrain.engine.sqlite;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.sql.lex.CheckLists;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteErrorCode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the {@code main} schema by joining sqlite_master with the table-valued pragma functions:
 * one query each for relations, columns, foreign keys and unique indexes, whatever the table count.
 */
final class SqliteCatalogReader {

    static final String SCHEMA = "main";

    private static final Logger LOG = LoggerFactory.getLogger(SqliteCatalogReader.class);

    // pragma_table_list tells full-text shadow tables (internal storage) from the virtual table users query.
    private static final String RELATIONS = """
            WITH relation AS (
              SELECT m.name, m.type, l.type AS list_type, m.sql
              FROM sqlite_master m
              JOIN pragma_table_list l ON l.schema = 'main' AND l.name = m.name
              WHERE m.type IN ('table', 'view')
                AND l.type IN ('table', 'view', 'virtual')
                AND m.name NOT LIKE 'sqlite!_%' ESCAPE '!'
            )
            """;

    private static final String TABLES = RELATIONS + """
            SELECT name, type, sql FROM relation ORDER BY name
            """;

    // table_xinfo rather than table_info: generated columns are real columns to a reader.
    // hidden = 1 marks a virtual table's hidden columns, which are not.
    private static final String COLUMNS = RELATIONS + """
            SELECT r.name AS table_name, c.cid, c.name, c.type, c."notnull", c.dflt_value, c.pk
            FROM relation r
            JOIN pragma_table_xinfo(r.name) c
            WHERE c.hidden <> 1
            ORDER BY r.name, c.cid
            """;

    private static final String COLUMNS_OF_ONE = """
            SELECT ? AS table_name, c.cid, c.name, c.type, c."notnull", c.dflt_value, c.pk
            FROM pragma_table_xinfo(?) c
            WHERE c.hidden <> 1
            ORDER BY c.cid
            """;

    // Ids count down from the last declared key; descending id gives declaration order.
    private static final String FOREIGN_KEYS = RELATIONS + """
            SELECT r.name AS table_name, f.id, f."table" AS parent, f."from" AS from_column, f."to" AS to_column
            FROM relation r
            JOIN pragma_foreign_key_list(r.name) f
            WHERE r.list_type = 'table'
            ORDER BY r.name, f.id DESC, f.seq
            """;

    // origin 'pk' is the primary key itself; a partial index is not unique over the whole table.
    private static final String UNIQUE_INDEXES = RELATIONS + """
            SELECT r.name AS table_name, i.name AS index_name, c.name AS column_name
            FROM relation r
            JOIN pragma_index_list(r.name) i
            JOIN pragma_index_info(i.name) c
            WHERE r.list_type = 'table' AND i."unique" = 1 AND i.origin <> 'pk' AND i.partial = 0
            ORDER BY r.name, i.name, c.seqno
            """;

    // The first number of each stat row is the row count ANALYZE saw: a cheap, possibly stale estimate.
    private static final String ROW_ESTIMATES = """
            SELECT tbl, max(CAST(stat AS INTEGER)) AS row_estimate FROM sqlite_stat1 GROUP BY tbl
            """;

    private final Connection connection;
    /** CHECK (column IN (…)) lists by lower-cased table name, then column name: SQLite's stand-in for an ENUM. */
    private final Map<String, Map<String, Domain>> checkLists = new HashMap<>();

    SqliteCatalogReader(Connection connection) {
        this.connection = connection;
    }

    List<Table> read() throws SQLException {
        Map<String, TableDraft> drafts = readRelations();
        readColumns(drafts);
        readForeignKeys(drafts);
        readUniqueIndexes(drafts);
        readRowEstimates(drafts);
        return drafts.values().stream()
                .map(d -> d.build(name -> Optional.ofNullable(drafts.get(name))))
                .toList();
    }

    /** Drafts keyed by lower-cased name, since SQLite matches table names case-insensitively. */
    private Map<String, TableDraft> readRelations() throws SQLException {
        Map<String, TableDraft> drafts = new LinkedHashMap<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(TABLES)) {
            while (rs.next()) {
                String name = rs.getString("name");
                TableKind kind = "view".equals(rs.getString("type")) ? TableKind.VIEW : TableKind.TABLE;
                drafts.put(key(name), new TableDraft(name, kind));
                String sql = rs.getString("sql");
                if (kind == TableKind.TABLE && sql != null && sql.toUpperCase(Locale.ROOT).contains("CHECK")) {
                    checkLists.put(key(name), CheckLists.of(sql));
                }
            }
        }
        return drafts;
    }

    /**
     * One query for all columns. It fails as a whole if any relation cannot be described (a view
     * over a dropped column, a virtual table whose module this driver lacks); then each relation is
     * read alone and the broken ones are left out rather than failing the whole catalog.
     */
    private void readColumns(Map<String, TableDraft> drafts) throws SQLException {
        List<ColumnRow> rows;
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(COLUMNS)) {
            rows = columnRows(rs);
        } catch (SQLException e) {
            if ((e.getErrorCode() & 0xFF) != SQLiteErrorCode.SQLITE_ERROR.code) {
                throw e;
            }
            LOG.debug("reading columns one relation at a time: {}", e.getMessage());
            rows = columnRowsOneByOne(drafts);
        }
        for (ColumnRow row : rows) {
            Domain domain = checkLists.getOrDefault(key(row.table()), Map.of()).get(key(row.column().name()));
            drafts.get(key(row.table())).addColumn(domain == null ? row.column() : row.column().withDomain(domain),
                    row.keyPosition());
        }
    }

    private List<ColumnRow> columnRowsOneByOne(Map<String, TableDraft> drafts) throws SQLException {
        List<ColumnRow> rows = new ArrayList<>();
        for (TableDraft draft : List.copyOf(drafts.values())) {
            try (PreparedStatement ps = connection.prepareStatement(COLUMNS_OF_ONE)) {
                ps.setString(1, draft.name());
                ps.setString(2, draft.name());
                try (ResultSet rs = ps.executeQuery()) {
                    rows.addAll(columnRows(rs));
                }
            } catch (SQLException e) {
                if ((e.getErrorCode() & 0xFF) != SQLiteErrorCode.SQLITE_ERROR.code) {
                    throw e;
                }
                LOG.warn("{} left out: SQLite cannot describe it ({})", draft.name(), e.getMessage());
                drafts.remove(key(draft.name()));
            }
        }
        return rows;
    }

    /** One pragma_table_xinfo row, held back until the whole query has succeeded. */
    private record ColumnRow(String table, Column column, int keyPosition) {
    }

    private static List<ColumnRow> columnRows(ResultSet rs) throws SQLException {
        List<ColumnRow> rows = new ArrayList<>();
        while (rs.next()) {
            int keyPosition = rs.getInt("pk");
            String type = rs.getString("type");
            Column column = new Column(
                    rs.getString("name"),
                    rs.getInt("cid") + 1,
                    type == null ? "" : type,
                    // SQLite lets legacy non-integer key columns hold NULL; every schema means them as NOT NULL.
                    rs.getInt("notnull") == 0 && keyPosition == 0,
                    rs.getString("dflt_value"),
                    null,
                    List.of());
            rows.add(new ColumnRow(rs.getString("table_name"), column, keyPosition));
        }
        return rows;
    }

    private void readForeignKeys(Map<String, TableDraft> drafts) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(FOREIGN_KEYS)) {
            while (rs.next()) {
                TableDraft draft = drafts.get(key(rs.getString("table_name")));
                if (draft != null) {
                    draft.addForeignKeyColumn(rs.getInt("id"), rs.getString("parent"),
                            rs.getString("from_column"), rs.getString("to_column"));
                }
            }
        }
    }

    private void readUniqueIndexes(Map<String, TableDraft> drafts) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(UNIQUE_INDEXES)) {
            while (rs.next()) {
                TableDraft draft = drafts.get(key(rs.getString("table_name")));
                if (draft != null) {
                    draft.addUniqueColumn(rs.getString("index_name"), rs.getString("column_name"));
                }
            }
        }
    }

    /** Only when ANALYZE has left statistics behind; counting rows would cost a full scan per table. */
    private void readRowEstimates(Map<String, TableDraft> drafts) throws SQLException {
        try (Statement st = connection.createStatement();
             ResultSet has = st.executeQuery("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")) {
            if (!has.next()) {
                return;
            }
        }
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(ROW_ESTIMATES)) {
            while (rs.next()) {
                TableDraft draft = drafts.get(key(rs.getString("tbl")));
                if (draft != null) {
                    draft.rowEstimate(rs.getLong("row_estimate"));
                }
            }
        }
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
