package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.Engines;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads tables, columns and keys from information_schema with three set-based queries, whatever
 * the number of tables, then SHOW CREATE TABLE for each base table it showed no key of.
 * {@code database} null means every non-system database.
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

    // KEY_COLUMN_USAGE alone: MariaDB shows TABLE_CONSTRAINTS and REFERENTIAL_CONSTRAINTS only to a role holding a
    // privilege besides SELECT on the table (as the SQL standard asks), so a plain SELECT grant would lose every key.
    // Each row says its kind itself: a referenced table makes a foreign key, the name PRIMARY (which no other index may
    // take) the primary key, and anything else is a unique constraint.
    private static final String KEYS = """
            SELECT TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME,
                   REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
            FROM information_schema.KEY_COLUMN_USAGE
            WHERE %s
            ORDER BY TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION
            """;

    /** MySQL and MariaDB: no privilege on the table (1142), on the column (1143), on the database (1044). */
    private static final Set<Integer> DENIED = Set.of(1142, 1143, 1044);
    /** The table went away between the catalog queries. */
    private static final int NO_SUCH_TABLE = 1146;

    /**
     * What was read.
     *
     * @param keysUnread base tables that information_schema showed no key of and whose SHOW CREATE TABLE the role was
     *                   refused: their keys, if any, are unknown
     */
    record Read(List<Table> tables, List<QualifiedName> keysUnread) {
        Read {
            tables = List.copyOf(tables);
            keysUnread = List.copyOf(keysUnread);
        }
    }

    private final Connection connection;
    private final String database;

    MySqlCatalogReader(Connection connection, String database) {
        this.connection = connection;
        this.database = database;
    }

    Read read() throws SQLException {
        freshStatistics();
        Map<QualifiedName, TableBuilder> drafts = readTables();
        readColumns(drafts);
        Set<QualifiedName> keyed = readKeys(drafts);
        List<QualifiedName> unread = new ArrayList<>();
        for (TableBuilder draft : drafts.values()) {
            if (draft.kind() == TableKind.TABLE && !keyed.contains(draft.name()) && !readCreateTable(draft)) {
                unread.add(draft.name());
            }
        }
        return new Read(drafts.values().stream().map(TableBuilder::build).toList(), unread);
    }

    /**
     * A base table information_schema showed no key of: most often it has none, but a server that hides
     * KEY_COLUMN_USAGE as well would leave every table so, and SHOW CREATE TABLE needs only a privilege on the table.
     * One statement per such table, after the set-based queries. False when the role is refused it.
     */
    private boolean readCreateTable(TableBuilder draft) throws SQLException {
        QualifiedName name = draft.name();
        String ddl;
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + Engines.MYSQL.qualified(name))) {
            if (!rs.next()) {
                return true;
            }
            ddl = rs.getString(2);
        } catch (SQLException e) {
            if (DENIED.contains(e.getErrorCode())) {
                return false;
            }
            if (e.getErrorCode() == NO_SUCH_TABLE) {
                return true;
            }
            throw e;
        }
        CreateTableKeys keys = CreateTableKeys.parse(ddl, name.schema());
        keys.primaryKey().forEach(draft::addPrimaryKeyColumn);
        keys.uniques().forEach(draft::addUnique);
        keys.foreignKeys().forEach(draft::addForeignKey);
        return true;
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

    /** The keys information_schema shows; returns the tables it showed any key of. */
    private Set<QualifiedName> readKeys(Map<QualifiedName, TableBuilder> drafts) throws SQLException {
        Set<QualifiedName> keyed = new HashSet<>();
        try (PreparedStatement ps = prepare(KEYS, "TABLE_SCHEMA"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                TableBuilder draft = drafts.get(QualifiedName.of(rs.getString("TABLE_SCHEMA"), rs.getString("TABLE_NAME")));
                String column = rs.getString("COLUMN_NAME");
                if (draft == null || column == null) {
                    continue;
                }
                keyed.add(draft.name());
                String constraint = rs.getString("CONSTRAINT_NAME");
                String referenced = rs.getString("REFERENCED_TABLE_NAME");
                if (referenced != null) {
                    draft.addForeignKeyColumn(constraint, column,
                            QualifiedName.of(rs.getString("REFERENCED_TABLE_SCHEMA"), referenced),
                            rs.getString("REFERENCED_COLUMN_NAME"));
                } else if (constraint.equals("PRIMARY")) {
                    draft.addPrimaryKeyColumn(column);
                } else {
                    draft.addUniqueColumn(constraint, column);
                }
            }
        }
        return keyed;
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
