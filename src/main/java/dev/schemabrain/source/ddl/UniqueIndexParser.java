package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import java.util.List;

/**
 * {@code CREATE UNIQUE INDEX name ON table [USING method] (columns)}: a unique constraint in all but
 * name. Expression keys and partial indexes ({@code WHERE ...}) are left out: they do not make the
 * listed columns unique.
 */
final class UniqueIndexParser {

    private UniqueIndexParser() {
    }

    static void apply(RawStatement statement, String defaultSchema, SchemaDraft schema) {
        TokenCursor cursor = new TokenCursor(SqlLexer.tokenize(statement.text(), statement.backslashEscapes()));
        cursor.acceptWords("CREATE", "UNIQUE");
        if (!cursor.acceptWords("CLUSTERED")) {
            cursor.acceptWords("NONCLUSTERED");
        }
        cursor.acceptWords("INDEX");
        cursor.acceptWords("CONCURRENTLY");
        cursor.acceptWords("IF", "NOT", "EXISTS");
        String name = cursor.isWord("ON") ? null : cursor.identifier();
        while (cursor.acceptWords("USING")) {
            cursor.next();
        }
        if (!cursor.acceptWords("ON")) {
            throw new SqlSyntaxException("expected ON" + cursor.where());
        }
        cursor.acceptWords("ONLY");
        List<String> table = cursor.qualifiedName();
        while (cursor.acceptWords("USING")) {
            cursor.next();
        }
        List<String> columns = cursor.columnList();
        while (!cursor.atEnd()) {
            if (cursor.next().isWord("WHERE")) {
                return;
            }
        }
        if (columns != null) {
            schema.find(Names.qualify(table, defaultSchema)).ifPresent(t -> t.addUnique(name, columns));
        }
    }
}
