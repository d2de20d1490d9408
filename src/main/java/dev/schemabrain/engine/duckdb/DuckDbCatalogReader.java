package dev.schemabrain.engine.duckdb;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the attached file's own catalog through DuckDB's table functions: one query each for relations,
 * columns and constraints, whatever the table count. Internal and temporary objects are left out.
 */
final class DuckDbCatalogReader {

    private static final String RELATIONS = """
            SELECT schema_name, table_name AS name, 'table' AS kind, estimated_size, comment
            FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal AND NOT temporary
            UNION ALL
            SELECT schema_name, view_name, 'view', NULL, comment
            FROM duckdb_views() WHERE database_name = current_database() AND NOT internal AND NOT temporary
            ORDER BY 1, 2
            """;

    private static final String COLUMNS = """
            SELECT schema_name, table_name, column_index, column_name, data_type, is_nullable, column_default, comment
            FROM duckdb_columns() WHERE database_name = current_database() AND NOT internal
            ORDER BY schema_name, table_name, column_index
            """;

    // A foreign key names its target table without a schema: DuckDB keeps both ends in one schema.
    private static final String CONSTRAINTS = """
            SELECT schema_name, table_name, constraint_type, constraint_name, constraint_column_names,
                   referenced_table, referenced_column_names
            FROM duckdb_constraints()
            WHERE database_name = current_database() AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY', 'UNIQUE')
            ORDER BY schema_name, table_name, constraint_index
            """;

    private DuckDbCatalogReader() {
    }

    static List<Table> read(Connection c) throws SQLException {
        Map<QualifiedName, Draft> drafts = new LinkedHashMap<>();
        try (PreparedStatement st = c.prepareStatement(RELATIONS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                QualifiedName name = QualifiedName.of(rs.getString(1), rs.getString(2));
                long size = rs.getLong(4);
                Long rows = rs.wasNull() ? null : size;
                drafts.put(name, new Draft(name, "view".equals(rs.getString(3)) ? TableKind.VIEW : TableKind.TABLE, rows,
                        rs.getString(5)));
            }
        }
        try (PreparedStatement st = c.prepareStatement(COLUMNS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                Draft draft = drafts.get(QualifiedName.of(rs.getString(1), rs.getString(2)));
                if (draft != null) {
                    draft.columns.add(new Column(rs.getString(4), rs.getInt(3), rs.getString(5), rs.getBoolean(6),
                            rs.getString(7), rs.getString(8), List.of()));
                }
            }
        }
        try (PreparedStatement st = c.prepareStatement(CONSTRAINTS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                Draft draft = drafts.get(QualifiedName.of(rs.getString(1), rs.getString(2)));
                if (draft != null) {
                    draft.constrain(rs);
                }
            }
        }
        return drafts.values().stream().map(Draft::table).toList();
    }

    private static List<String> names(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.stream((Object[]) array.getArray()).map(String::valueOf).toList();
    }

    /** One relation as its rows arrive. */
    private static final class Draft {
        private final QualifiedName name;
        private final TableKind kind;
        private final Long rowEstimate;
        private final String comment;
        private final List<Column> columns = new ArrayList<>();
        private final List<ForeignKey> foreignKeys = new ArrayList<>();
        private final List<UniqueConstraint> uniques = new ArrayList<>();
        private List<String> primaryKey = List.of();

        Draft(QualifiedName name, TableKind kind, Long rowEstimate, String comment) {
            this.name = name;
            this.kind = kind;
            this.rowEstimate = rowEstimate;
            this.comment = comment;
        }

        void constrain(ResultSet rs) throws SQLException {
            List<String> columnNames = names(rs.getArray(5));
            switch (rs.getString(3)) {
                case "PRIMARY KEY" -> primaryKey = columnNames;
                case "UNIQUE" -> uniques.add(new UniqueConstraint(rs.getString(4), columnNames));
                default -> foreignKeys.add(new ForeignKey(rs.getString(4), columnNames,
                        QualifiedName.of(name.schema(), rs.getString(6)), names(rs.getArray(7))));
            }
        }

        Table table() {
            return new Table(name, kind, rowEstimate, comment, columns, primaryKey, foreignKeys, uniques, null);
        }
    }
}
