package dev.schemabrain.engine.postgres;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableBuilder;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.Failure;
import dev.schemabrain.engine.Purpose;
import dev.schemabrain.engine.postgres.PostgresEngine;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.RowSampler;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL (12 or newer) introspection from pg_catalog: five set-based queries whatever the
 * schema size. Partition children are left out of the listing; their foreign keys are folded into
 * the partition root, so a declaratively partitioned table keeps its relationships.
 */
public final class PostgresSource implements SchemaSource {

    private static final String RELATION_FILTER = """
            c.relkind IN ('r', 'v', 'm', 'p')
              AND n.nspname NOT IN ('pg_catalog', 'information_schema')
              AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
              AND NOT EXISTS (SELECT 1 FROM pg_depend d
                              WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
            """;

    private static final String TABLES = """
            SELECT c.oid, n.nspname, c.relname, c.relkind,
                   CASE WHEN c.relkind = 'p' THEN
                          (SELECT sum(greatest(leaf.reltuples, 0))::bigint
                             FROM pg_partition_tree(c.oid) t JOIN pg_class leaf ON leaf.oid = t.relid
                            WHERE t.isleaf)
                        WHEN c.relkind IN ('r', 'm') AND c.reltuples >= 0 THEN c.reltuples::bigint
                   END AS row_estimate,
                   obj_description(c.oid, 'pg_class') AS comment,
                   CASE WHEN s.relid IS NOT NULL AND c.relkind IN ('r', 'm') THEN
                          c.relfilenode || ':' || s.n_tup_ins || ':' || s.n_tup_upd || ':' || s.n_tup_del
                   END AS data_version
              FROM pg_class c
              JOIN pg_namespace n ON n.oid = c.relnamespace
              LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
             WHERE NOT c.relispartition AND\s""" + RELATION_FILTER;

    /**
     * Columns of every candidate relation. Extension members and partition children are dropped in
     * Java (they are not in the TABLES result), which keeps this query a plain join.
     */
    private static final String COLUMNS = """
            SELECT c.oid, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod) AS data_type,
                   a.attnotnull,
                   CASE WHEN a.attgenerated = 's' THEN 'generated always as (' || pg_get_expr(ad.adbin, ad.adrelid) || ')'
                        WHEN a.attidentity <> '' THEN 'generated ' || CASE a.attidentity WHEN 'a' THEN 'always' ELSE 'by default' END || ' as identity'
                        ELSE pg_get_expr(ad.adbin, ad.adrelid) END AS default_value,
                   d.description AS comment,
                   en.nspname AS enum_schema, et.typname AS enum_name,
                   CASE WHEN et.oid IS NOT NULL THEN
                        array(SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = et.oid ORDER BY e.enumsortorder)
                   END AS enum_labels
              FROM pg_attribute a
              JOIN pg_class c ON c.oid = a.attrelid
              JOIN pg_namespace n ON n.oid = c.relnamespace
              JOIN pg_type ty ON ty.oid = a.atttypid
              LEFT JOIN pg_type et ON et.typtype = 'e'
                                  AND et.oid = CASE WHEN ty.typtype = 'd' THEN ty.typbasetype ELSE ty.oid END
              LEFT JOIN pg_namespace en ON en.oid = et.typnamespace
              LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
              LEFT JOIN pg_description d ON d.objoid = a.attrelid AND d.classoid = 'pg_class'::regclass
                                        AND d.objsubid = a.attnum
             WHERE a.attnum > 0 AND NOT a.attisdropped AND NOT c.relispartition
               AND c.relkind IN ('r', 'v', 'm', 'p')
               AND n.nspname NOT IN ('pg_catalog', 'information_schema')
               AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
             ORDER BY c.oid, a.attnum
            """;

    /**
     * CHECK constraints over one column, and those of a column's domain (CREATE DOMAIN … CHECK (VALUE IN …)):
     * PostgreSQL keeps an IN list as {@code = ANY (ARRAY[…])}, which {@link #checkList} reads.
     */
    private static final String CHECKS = """
            SELECT k.conrelid AS relid, a.attname, pg_get_constraintdef(k.oid) AS def
              FROM pg_constraint k
              JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
             WHERE k.contype = 'c' AND k.conrelid <> 0 AND cardinality(k.conkey) = 1
            UNION ALL
            SELECT a.attrelid, a.attname, pg_get_constraintdef(k.oid)
              FROM pg_constraint k
              JOIN pg_attribute a ON a.atttypid = k.contypid
             WHERE k.contype = 'c' AND k.contypid <> 0 AND a.attnum > 0 AND NOT a.attisdropped
            """;

    /** Primary keys, unique constraints, and unique indexes that back no constraint. */
    private static final String KEYS = """
            SELECT con.conrelid AS relid, con.contype::text AS kind, con.conname AS name,
                   array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                           JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                          ORDER BY k.ord) AS columns
              FROM pg_constraint con
             WHERE con.contype IN ('p', 'u') AND con.conparentid = 0
            UNION ALL
            SELECT i.indrelid, 'u', ic.relname,
                   array(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                          ORDER BY k.ord)
              FROM pg_index i
              JOIN pg_class ic ON ic.oid = i.indexrelid
             WHERE i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL AND i.indexprs IS NULL
               AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)
               AND NOT EXISTS (SELECT 1 FROM pg_inherits inh WHERE inh.inhrelid = i.indexrelid)
            """;

    /** Foreign keys of every relation, partition children included, addressed by their partition root. */
    private static final String FOREIGN_KEYS = """
            SELECT coalesce(pg_partition_root(con.conrelid)::oid, con.conrelid) AS relid, con.conname,
                   tn.nspname AS target_schema, tc.relname AS target_table,
                   array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                           JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                          ORDER BY k.ord) AS columns,
                   array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                           JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                          ORDER BY k.ord) AS target_columns
              FROM pg_constraint con
              JOIN pg_class tc ON tc.oid = coalesce(pg_partition_root(con.confrelid)::oid, con.confrelid)
              JOIN pg_namespace tn ON tn.oid = tc.relnamespace
             WHERE con.contype = 'f' AND con.conparentid = 0
             ORDER BY con.conrelid, con.conname
            """;

    /**
     * Every catalog row introspection depends on contributes its xmin (a new row version gets a new
     * one); relations add their row estimate, file node and cumulative row-change counters.
     */
    private static final String CATALOG_TOKEN = """
            WITH rel AS (
                SELECT c.oid, c.xmin, c.reltuples, c.relfilenode, s.n_tup_ins, s.n_tup_upd, s.n_tup_del
                  FROM pg_class c
                  JOIN pg_namespace n ON n.oid = c.relnamespace
                  LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
                 WHERE c.relkind IN ('r', 'v', 'm', 'p')
                   AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                   AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%')
            SELECT md5(string_agg(v, ',' ORDER BY v)) FROM (
                SELECT concat_ws(':', 'r', oid, xmin, reltuples, relfilenode, n_tup_ins, n_tup_upd, n_tup_del) FROM rel
                UNION ALL SELECT concat_ws(':', 'a', a.attrelid, a.attnum, a.xmin)
                            FROM pg_attribute a JOIN rel ON rel.oid = a.attrelid WHERE a.attnum > 0
                UNION ALL SELECT concat_ws(':', 'd', d.adrelid, d.adnum, d.xmin) FROM pg_attrdef d JOIN rel ON rel.oid = d.adrelid
                UNION ALL SELECT concat_ws(':', 'k', k.oid, k.xmin) FROM pg_constraint k JOIN rel ON rel.oid = k.conrelid
                UNION ALL SELECT concat_ws(':', 'i', i.indexrelid, i.xmin) FROM pg_index i JOIN rel ON rel.oid = i.indrelid
                UNION ALL SELECT concat_ws(':', 'h', h.inhrelid, h.xmin) FROM pg_inherits h JOIN rel ON rel.oid = h.inhrelid
                UNION ALL SELECT concat_ws(':', 'c', d.objoid, d.objsubid, d.xmin) FROM pg_description d
                            JOIN rel ON rel.oid = d.objoid WHERE d.classoid = 'pg_class'::regclass
                UNION ALL SELECT concat_ws(':', 'n', n.oid, n.xmin) FROM pg_namespace n
                UNION ALL SELECT concat_ws(':', 't', t.oid, t.xmin) FROM pg_type t
                            JOIN pg_namespace n ON n.oid = t.typnamespace
                           WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
                UNION ALL SELECT concat_ws(':', 'e', e.oid, e.xmin) FROM pg_enum e
                UNION ALL SELECT concat_ws(':', 'y', k.oid, k.xmin) FROM pg_constraint k WHERE k.contypid <> 0
                UNION ALL SELECT concat_ws(':', 'x', e.objid, e.xmin) FROM pg_depend e
                           WHERE e.deptype = 'e' AND e.classid = 'pg_class'::regclass
            ) parts(v)
            """;

    private final SourceUrl url;

    public PostgresSource(SourceUrl url) {
        this.url = url;
    }

    @Override
    public SourceKind kind() {
        return SourceKind.POSTGRESQL;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        try (Connection connection = connect()) {
            List<Table> tables = readCatalog(connection);
            return new Catalog(new RowSampler(Engines.POSTGRESQL).sampleAll(connection, tables, options));
        } catch (SQLException e) {
            throw describe(e);
        }
    }

    @Override
    public Optional<String> catalogToken() throws SourceException {
        try (Connection connection = connect();
             PreparedStatement st = connection.prepareStatement(CATALOG_TOKEN);
             ResultSet rs = st.executeQuery()) {
            return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            throw describe(e);
        }
    }

    Connection connect() throws SQLException {
        return Engines.POSTGRESQL.connect(url, Purpose.introspection());
    }

    /**
     * An ENUM column's labels in their sort order, also through a domain over an ENUM; the type is the ENUM's
     * (PostgreSQL finds no = for a domain over an ENUM, so the compiler compares both sides as the ENUM).
     */
    private static Domain enumDomain(ResultSet rs) throws SQLException {
        String name = rs.getString("enum_name");
        if (name == null) {
            return null;
        }
        return new Domain(Domain.Kind.ENUM, rs.getString("enum_schema") + "." + name, strings(rs.getArray("enum_labels")));
    }

    private static final Pattern ANY_ARRAY = Pattern.compile(
            "(?s)CHECK \\((.+) = ANY \\(\\(?ARRAY\\[(.*?)\\](?:\\)::[a-z ]+\\[\\])?\\)+");
    private static final Pattern ITEM = Pattern.compile(
            "\\G'((?:[^']|'')*)'(?:::[a-z ]+(?:\\(\\d+\\))?)?(?:, |$)");
    private static final Pattern LEFT = Pattern.compile(
            "\\(*(\"(?:[^\"]|\"\")+\"|[^()\":]+)\\)*(?:::[a-z ]+)?");

    /**
     * The labels of {@code CHECK (column IN ('a', 'b'))} as PostgreSQL prints it back,
     * {@code CHECK (((status)::text = ANY ((ARRAY['a'::character varying, …])::text[])))}, the column being
     * {@code VALUE} in a domain's check; empty for any other condition (a range, a number list, an AND).
     */
    static Optional<List<String>> checkList(String definition, String column) {
        Matcher m = ANY_ARRAY.matcher(definition == null ? "" : definition.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        Matcher left = LEFT.matcher(m.group(1).strip());
        if (!left.matches()) {
            return Optional.empty();
        }
        String named = left.group(1).strip();
        named = named.startsWith("\"") ? named.substring(1, named.length() - 1).replace("\"\"", "\"") : named;
        if (!named.equals(column) && !named.equals("VALUE")) {
            return Optional.empty();
        }
        List<String> labels = new ArrayList<>();
        Matcher item = ITEM.matcher(m.group(2));
        int end = 0;
        while (end < m.group(2).length() && item.find() && item.start() == end) {
            labels.add(item.group(1).replace("''", "'"));
            end = item.end();
        }
        return end == m.group(2).length() && !labels.isEmpty() ? Optional.of(List.copyOf(labels)) : Optional.empty();
    }

    private List<Table> readCatalog(Connection connection) throws SQLException {
        Map<Long, TableBuilder> byOid = new LinkedHashMap<>();
        try (PreparedStatement st = connection.prepareStatement(TABLES); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                long estimate = rs.getLong("row_estimate");
                Long rowEstimate = rs.wasNull() ? null : estimate;
                byOid.put(rs.getLong("oid"), new TableBuilder(
                        QualifiedName.of(rs.getString("nspname"), rs.getString("relname")),
                        kindOf(rs.getString("relkind")),
                        rowEstimate,
                        rs.getString("comment"),
                        rs.getString("data_version")));
            }
        }
        Map<String, Domain> checkLists = new HashMap<>();
        try (PreparedStatement st = connection.prepareStatement(CHECKS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String key = rs.getLong("relid") + "\u0000" + rs.getString("attname");
                checkList(rs.getString("def"), rs.getString("attname")).ifPresent(values ->
                        checkLists.putIfAbsent(key, new Domain(Domain.Kind.CHECK, null, values)));
            }
        }
        try (PreparedStatement st = connection.prepareStatement(COLUMNS)) {
            st.setFetchSize(5000);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    TableBuilder table = byOid.get(rs.getLong("oid"));
                    if (table != null) {
                        Domain domain = enumDomain(rs);
                        if (domain == null) {
                            domain = checkLists.get(rs.getLong("oid") + "\u0000" + rs.getString("attname"));
                        }
                        table.addColumn(new Column(rs.getString("attname"), rs.getInt("attnum"),
                                rs.getString("data_type"), !rs.getBoolean("attnotnull"),
                                rs.getString("default_value"), rs.getString("comment"), List.of(), List.of(), domain));
                    }
                }
            }
        }
        try (PreparedStatement st = connection.prepareStatement(KEYS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                TableBuilder table = byOid.get(rs.getLong("relid"));
                if (table == null) {
                    continue;
                }
                List<String> columns = strings(rs.getArray("columns"));
                if ("p".equals(rs.getString("kind"))) {
                    columns.forEach(table::addPrimaryKeyColumn);
                } else {
                    table.addUnique(new UniqueConstraint(rs.getString("name"), columns));
                }
            }
        }
        try (PreparedStatement st = connection.prepareStatement(FOREIGN_KEYS); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                TableBuilder table = byOid.get(rs.getLong("relid"));
                if (table == null) {
                    continue;
                }
                // Each partition declares its own copy; the root keeps one per shape.
                table.addForeignKey(new ForeignKey(rs.getString("conname"), strings(rs.getArray("columns")),
                        QualifiedName.of(rs.getString("target_schema"), rs.getString("target_table")),
                        strings(rs.getArray("target_columns"))));
            }
        }
        List<Table> tables = new ArrayList<>(byOid.size());
        byOid.values().forEach(b -> tables.add(b.build()));
        return tables;
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static TableKind kindOf(String relkind) {
        return switch (relkind) {
            case "v" -> TableKind.VIEW;
            case "m" -> TableKind.MATERIALIZED_VIEW;
            case "p" -> TableKind.PARTITIONED;
            default -> TableKind.TABLE;
        };
    }

    private SourceException describe(SQLException e) {
        String where = PostgresEngine.server(url);
        return switch (Engines.POSTGRESQL.classify(e)) {
            case UNKNOWN_HOST -> new SourceException("Cannot resolve the PostgreSQL host '" + url.host()
                    + "'; check the host name in the source URL.", e);
            case UNREACHABLE -> new SourceException("Cannot reach the PostgreSQL server at " + where
                    + "; check that it is running and that the host and port are right.", e);
            case AUTH_FAILED -> new SourceException("PostgreSQL at " + where + " refused the login for user '"
                    + (url.user() == null ? System.getProperty("user.name") : url.user())
                    + "'; check the user name and password (prefer --url-env to keep the password out of your shell history).", e);
            case UNKNOWN_DATABASE -> new SourceException("Database '" + url.database() + "' does not exist on " + where
                    + "; check the database name in the source URL.", e);
            case PERMISSION -> new SourceException("The PostgreSQL role lacks a privilege needed to read the catalog on "
                    + where + "; grant it USAGE on the schemas and SELECT on the tables to index.", e);
            default -> new SourceException("Reading the PostgreSQL catalog at " + where + " failed (SQLSTATE "
                    + Failure.state(e) + "); rerun with -v for details.", e);
        };
    }
}
