package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.Token;

import dev.schemabrain.catalog.QualifiedName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The ALTER TABLE actions that change what a catalog shows: pg_dump's {@code ADD CONSTRAINT} for keys,
 * {@code ATTACH PARTITION}, added columns, and column defaults or NOT NULL set after the fact.
 * Other actions (OWNER TO, SET STATISTICS, ...) are stepped over.
 */
final class AlterTableParser {

    private static final Logger LOG = LoggerFactory.getLogger(AlterTableParser.class);

    private AlterTableParser() {
    }

    static void apply(RawStatement statement, String defaultSchema, SchemaDraft schema) {
        ClauseParser parser = new ClauseParser(statement.text(), SqlLexer.tokenize(statement.text(), statement.backslashEscapes()), defaultSchema);
        TokenCursor cursor = parser.cursor();
        cursor.acceptWords("ALTER", "TABLE");
        cursor.acceptWords("IF", "EXISTS");
        cursor.acceptWords("ONLY");
        QualifiedName name = Names.qualify(cursor.qualifiedName(), defaultSchema);
        cursor.acceptSymbol("*");
        TableDraft table = schema.find(name).orElse(null);
        if (table == null) {
            LOG.debug("line {}: ALTER TABLE on {}, which the script does not create; ignored", statement.line(), name);
            return;
        }
        do {
            action(parser, cursor, defaultSchema, schema, table);
            parser.skipToElementEnd();
        } while (cursor.acceptSymbol(","));
    }

    private static void action(ClauseParser parser, TokenCursor cursor, String defaultSchema,
                               SchemaDraft schema, TableDraft table) {
        if (cursor.acceptWords("ADD")) {
            if (parser.parseTableConstraint(table)) {
                return;
            }
            cursor.acceptWords("COLUMN");
            cursor.acceptWords("IF", "NOT", "EXISTS");
            parser.parseColumn(table);
        } else if (cursor.acceptWords("ATTACH", "PARTITION")) {
            QualifiedName child = Names.qualify(cursor.qualifiedName(), defaultSchema);
            schema.find(child).ifPresent(draft -> draft.partitionOf = table.name);
        } else if (cursor.acceptWords("ALTER")) {
            cursor.acceptWords("COLUMN");
            ColumnDraft column = table.column(cursor.identifier()).orElse(null);
            if (column == null) {
                return;
            }
            if (cursor.acceptWords("SET", "DEFAULT")) {
                column.defaultValue = parser.expressionText();
            } else if (cursor.acceptWords("DROP", "DEFAULT")) {
                column.defaultValue = null;
            } else if (cursor.acceptWords("SET", "NOT", "NULL")) {
                column.notNull = true;
            } else if (cursor.acceptWords("DROP", "NOT", "NULL")) {
                column.notNull = false;
            } else if (cursor.acceptWords("TYPE") || cursor.acceptWords("SET", "DATA", "TYPE")) {
                List<Token> type = new ArrayList<>();
                for (Token token : cursor.itemUntilCommaOrClose()) {
                    if (token.isWord("USING", "COLLATE")) {
                        break;
                    }
                    type.add(token);
                }
                if (!type.isEmpty()) {
                    column.dataType = Names.typeText(type);
                }
            }
        }
    }
}
