package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.Token;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;

/** {@code COMMENT ON TABLE|VIEW|MATERIALIZED VIEW|COLUMN name IS 'text'} (or {@code IS NULL}). */
final class CommentOnParser {

    private CommentOnParser() {
    }

    static void apply(RawStatement statement, String defaultSchema, SchemaDraft schema) {
        TokenCursor cursor = new TokenCursor(SqlLexer.tokenize(statement.text(), statement.backslashEscapes()));
        cursor.acceptWords("COMMENT", "ON");
        boolean onColumn = cursor.acceptWords("COLUMN");
        if (!onColumn && !cursor.acceptWords("TABLE") && !cursor.acceptWords("VIEW")
                && !cursor.acceptWords("MATERIALIZED", "VIEW") && !cursor.acceptWords("FOREIGN", "TABLE")) {
            return;
        }
        List<String> parts = cursor.qualifiedName();
        if (!cursor.acceptWords("IS")) {
            throw new SqlSyntaxException("expected IS" + cursor.where());
        }
        String text;
        if (cursor.acceptWords("NULL")) {
            text = null;
        } else if (!cursor.atEnd() && cursor.peek().kind() == Token.Kind.STRING) {
            text = cursor.next().value();
        } else {
            throw new SqlSyntaxException("expected the comment text" + cursor.where());
        }
        if (!onColumn) {
            schema.find(Names.qualify(parts, defaultSchema)).ifPresent(table -> table.comment = text);
        } else if (parts.size() >= 2) {
            QualifiedName table = Names.qualify(parts.subList(0, parts.size() - 1), defaultSchema);
            String column = parts.get(parts.size() - 1);
            schema.find(table).flatMap(t -> t.column(column)).ifPresent(c -> c.comment = text);
        }
    }
}
