package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads tables, columns and keys from information_schema with three set-based queries, whatever
 * the number of tables. {@code database} null means every non-system database.
 */
final class MySqlCatalogReader {

    private static final Logger LOG = LoggerFactory.getLogger(MySqlCatalogReader.class);

    private static final String SYSTEM_SCHEMAS = "'mysql', 'information_schema', 'performance_schema', 'sys'";

    private static final String TABLES = """
            SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_ROWS, TABLE_COMMENT, UPDATE_TIME
            FROM information_schema.TABLES
            WHERE %s
            ORDER BY TABLE_SCHEMA, TABLE_NAME
            """;

    private static final String COLUMNS = """
            SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_TYPE,
                   IS_NULLABLE, COLUMN_DEFAULT, COLUMN_COMMENT
            FROM information_schema.COLUMNS
            WHERE %s
            ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION
            """;

    // KEY_COLUMN_USAGE already carries the referenced table and column of each FK column, so one
    // join with TABLE_CONSTRAINTS (for the constraint type) covers primary, unique and foreign keys.
    private static final String KEYS = """
            SELECT k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, k.COLUMN_NAME,
                   k.REFERENCED_TABLE_SCHEMA, k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME
            FROM information_schema.TABLE_CONSTRAINTS c
            JOIN information_schema.KEY_COLUMN_USAGE k
              ON k.CONSTRAINT_SCHEMA = c.CONSTRAINT_SCHEMA
             AND k.CONSTRAINT_NAME = c.CONSTRAINT_NAME
             AND k.TABLE_SCHEMA = c.TABLE_SCHEMA
             AND k.TABLE_NAME = c.TABLE_NAME
            WHERE c.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
              AND %s
            ORDER BY k.TABLE_SCHEMA, k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION
            """;

    private final Connection connection;
    private final String database;

    MySqlCatalogReader(Connection connection, String database) {
        this.connection = connection;
        this.database = database;
    }

    List<Table> read() throws SQLException {
        freshStatistics();
        Map<QualifiedName, TableBuilder> drafts = readTables();
        readColumns(drafts);
        readKeys(drafts);
        return drafts.values().stream().map(TableBuilder::build).toList();
    }

    /**
     * MySQL 8 serves TABLE_ROWS and UPDATE_TIME from a cache that may be a day old, which would make
     * the data version lie. MariaDB has no such cache and no such variable; asking would only make
     * the driver log a warning. Older MySQL rejects it too, which is harmless.
     */
    private void freshStatistics() throws SQLException {
        if (connection.getMetaData().getDatabaseProductVersion().contains("MariaDB")) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET SESSION information_schema_stats_expiry = 0");
        } catch (SQLException e) {
            LOG.debug("statistics cache not adjustable: {}", e.getMessage());
        }
    }

    private Map<QualifiedName, TableBuilder> readTables() throws SQLException {
        Map<QualifiedName, TableBuilder> drafts = new LinkedHashMap<>();
        try (PreparedStatement ps = prepare(TABLES, "TABLE_SCHEMA"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                TableKind kind = kindOf(rs.getString("TABLE_TYPE"));
                if (kind == null) {
                    continue;
                }
                QualifiedName name = QualifiedName.of(rs.getString("TABLE_SCHEMA"), rs.getString("TABLE_NAME"));
                long rows = rs.getLong("TABLE_ROWS");
                Long rowEstimate = rs.wasNull() || kind == TableKind.VIEW ? null : rows;
                // MySQL fills a view's comment with the word VIEW; that is not the user's comment.
                String comment = kind == TableKind.VIEW ? null : blankToNull(rs.getString("TABLE_COMMENT"));
                drafts.put(name, new TableBuilder(name, kind, rowEstimate, comment, rs.getString("UPDATE_TIME")));
            }
        }
        return drafts;
    }

    private void readColumns(Map<QualifiedName, TableBuilder> drafts) throws SQLException {
        try (PreparedStatement ps = prepare(COLUMNS, "TABLE_SCHEMA"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                TableBuilder draft = drafts.get(QualifiedName.of(rs.getString("TABLE_SCHEMA"), rs.getString("TABLE_NAME")));
                if (draft == null) {
                    continue;
                }
                String type = rs.getString("COLUMN_TYPE");
                draft.addColumn(new Column(
                        rs.getString("COLUMN_NAME"),
                        rs.getInt("ORDINAL_POSITION"),
                        type,
                        "YES".equals(rs.getString("IS_NULLABLE")),
                        defaultOf(rs.getString("COLUMN_DEFAULT")),
                        blankToNull(rs.getString("COLUMN_COMMENT")),
                        List.of(), List.of(),
                        // The labels are in the type itself: enum('a','b'), set(...), and tinyint(1) is a boolean.
                        Domain.ofMySqlColumnType(type).orElse(null)));
            }
        }
    }

    private void readKeys(Map<QualifiedName, TableBuilder> drafts) throws SQLException {
        try (PreparedStatement ps = prepare(KEYS, "c.TABLE_SCHEMA"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                TableBuilder draft = drafts.get(QualifiedName.of(rs.getString("TABLE_SCHEMA"), rs.getString("TABLE_NAME")));
                String column = rs.getString("COLUMN_NAME");
                if (draft == null || column == null) {
                    continue;
                }
                String constraint = rs.getString("CONSTRAINT_NAME");
                switch (rs.getString("CONSTRAINT_TYPE")) {
                    case "PRIMARY KEY" -> draft.addPrimaryKeyColumn(column);
                    case "UNIQUE" -> draft.addUniqueColumn(constraint, column);
                    case "FOREIGN KEY" -> draft.addForeignKeyColumn(constraint, column,
                            QualifiedName.of(rs.getString("REFERENCED_TABLE_SCHEMA"), rs.getString("REFERENCED_TABLE_NAME")),
                            rs.getString("REFERENCED_COLUMN_NAME"));
                    default -> { }
                }
            }
        }
    }

    /** The query with its schema filter: the URL's database, or everything but the system schemas. */
    private PreparedStatement prepare(String template, String schemaColumn) throws SQLException {
        String filter = database == null
                ? schemaColumn + " NOT IN (" + SYSTEM_SCHEMAS + ")"
                : schemaColumn + " = ?";
        PreparedStatement ps = connection.prepareStatement(template.formatted(filter));
        try {
            if (database != null) {
                ps.setString(1, database);
            }
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }

    /** BASE TABLE and MariaDB's SYSTEM VERSIONED hold rows; sequences and the like are skipped (null). */
    private static TableKind kindOf(String tableType) {
        return switch (tableType) {
            case "BASE TABLE", "SYSTEM VERSIONED" -> TableKind.TABLE;
            case "VIEW" -> TableKind.VIEW;
            default -> null;
        };
    }

    /**
     * MariaDB reports "no default" on a nullable column as the bare word NULL (a string literal
     * would be quoted), MySQL as SQL NULL; both mean the same thing.
     */
    private static String defaultOf(String reported) {
        return reported == null || reported.equals("NULL") ? null : reported;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
