package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;

import dev.schemabrain.catalog.QualifiedName;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.create.table.NamedConstraint;
import net.sf.jsqlparser.schema.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The JSqlParser path for tables, kept in the tests only so that {@link CreateTableParserFigures} can
 * still compare it with the clause parser: reads a {@code CREATE TABLE name (...)} with JSqlParser,
 * the column list and the table-level keys. Inline column constraints arrive from JSqlParser as
 * loose words and are read by {@link ClauseParser}, so both paths agree on their meaning.
 */
final class JsqlTableReader {

    private static final Logger LOG = LoggerFactory.getLogger(JsqlTableReader.class);
    private static final Pattern PLAIN_NAME = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*|\"[^\"]+\"|`[^`]+`");

    private JsqlTableReader() {
    }

    /** Fills {@code table} from the statement; false when JSqlParser does not accept it. */
    static boolean read(Jsql jsql, String coreSql, boolean backslashEscapes, String defaultSchema, TableDraft table) {
        CreateTable create;
        try {
            Statement statement = jsql.parse(coreSql);
            if (!(statement instanceof CreateTable parsed) || parsed.getColumnDefinitions() == null) {
                return false;
            }
            create = parsed;
        } catch (Exception | StackOverflowError e) {
            LOG.debug("JSqlParser rejected {}: {}", table.name, Jsql.firstLine(e.getMessage()));
            return false;
        }
        for (ColumnDefinition definition : create.getColumnDefinitions()) {
            String type = Names.typeText(SqlLexer.tokenize(definition.getColDataType().toString(), backslashEscapes));
            ColumnDraft column = new ColumnDraft(Names.unquote(definition.getColumnName()), type);
            if (definition.getColumnSpecs() != null && !definition.getColumnSpecs().isEmpty()) {
                String specs = String.join(" ", definition.getColumnSpecs());
                new ClauseParser(specs, SqlLexer.tokenize(specs, backslashEscapes), defaultSchema)
                        .parseColumnConstraints(column, table);
            }
            table.putColumn(column);
        }
        if (create.getIndexes() != null) {
            for (Index index : create.getIndexes()) {
                addKey(index, defaultSchema, table);
            }
        }
        return true;
    }

    private static void addKey(Index index, String defaultSchema, TableDraft table) {
        List<String> columns = plainNames(index.getColumnsNames());
        if (columns == null) {
            return;
        }
        String kind = index.getType() == null ? "" : index.getType().toUpperCase(Locale.ROOT);
        String name = index.getName() == null ? null : Names.unquote(index.getName());
        if (name == null && index instanceof NamedConstraint named && named.getIndexName() != null) {
            name = Names.unquote(named.getIndexName());   // MySQL's UNIQUE KEY name (...) since JSqlParser 5.1
        }
        if (index instanceof ForeignKeyIndex fk) {
            Table target = fk.getTable();
            List<String> parts = new ArrayList<>();
            if (target.getSchemaName() != null) {
                parts.add(Names.unquote(target.getSchemaName()));
            }
            parts.add(Names.unquote(target.getName()));
            QualifiedName targetName = Names.qualify(parts, defaultSchema);
            List<String> targetColumns = plainNames(fk.getReferencedColumnNames());
            table.foreignKeys.add(new ForeignKeyDraft(name, columns, targetName,
                    targetColumns == null ? List.of() : targetColumns));
        } else if (kind.equals("PRIMARY KEY")) {
            table.setPrimaryKey(columns);
        } else if (kind.startsWith("UNIQUE")) {
            table.addUnique(name, columns);
        }
    }

    /** Unquoted column names, or null when one of them is an expression rather than a column. */
    private static List<String> plainNames(List<String> names) {
        if (names == null) {
            return List.of();
        }
        List<String> plain = new ArrayList<>();
        for (String raw : names) {
            String name = raw.strip().replaceAll("(?i)\\s+(ASC|DESC)$", "");
            if (!PLAIN_NAME.matcher(name).matches()) {
                return null;
            }
            plain.add(Names.unquote(name));
        }
        return plain;
    }
}
