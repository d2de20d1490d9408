package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import dev.schemabrain.catalog.TableKind;

import java.util.List;
import java.util.regex.Pattern;

/**
 * CREATE [MATERIALIZED] VIEW. The name and an explicit column list are read here; the columns of the
 * query are derived by {@link ViewColumns}. A view whose columns cannot be derived is kept without
 * columns: its name alone still helps to find it.
 */
final class ViewParser {

    private static final Pattern TRAILING_OPTIONS =
            Pattern.compile("(?is)\\s+WITH\\s+(?:(?:CASCADED|LOCAL)\\s+CHECK\\s+OPTION|NO\\s+DATA|DATA)\\s*$");

    private ViewParser() {
    }

    static TableDraft parse(RawStatement statement, String defaultSchema, SchemaDraft schema, Jsql jsql) {
        TokenCursor cursor = new TokenCursor(SqlLexer.tokenize(statement.text(), statement.backslashEscapes()));
        boolean materialized = false;
        while (!cursor.atEnd() && !cursor.isWord("VIEW")) {
            materialized |= cursor.next().isWord("MATERIALIZED");
        }
        if (!cursor.acceptWords("VIEW")) {
            throw new SqlSyntaxException("expected VIEW");
        }
        cursor.acceptWords("IF", "NOT", "EXISTS");
        TableDraft view = new TableDraft(Names.qualify(cursor.qualifiedName(), defaultSchema),
                materialized ? TableKind.MATERIALIZED_VIEW : TableKind.VIEW);
        List<String> explicitNames = cursor.isSymbol("(") ? cursor.columnList() : null;
        while (!cursor.atEnd() && !cursor.isWord("AS")) {
            if (cursor.isSymbol("(")) {
                cursor.skipParenthesized();
            } else {
                cursor.next();
            }
        }
        if (!cursor.acceptWords("AS") || cursor.atEnd()) {
            return view;
        }
        String query = TRAILING_OPTIONS.matcher(statement.text().substring(cursor.peek().start())).replaceFirst("");
        view.columns.addAll(ViewColumns.derive(jsql, query, schema, defaultSchema));
        if (explicitNames != null && explicitNames.size() <= view.columns.size()) {
            for (int i = 0; i < explicitNames.size(); i++) {
                ColumnDraft derived = view.columns.get(i);
                ColumnDraft renamed = new ColumnDraft(explicitNames.get(i), derived.dataType);
                view.columns.set(i, renamed);
            }
        } else if (explicitNames != null) {
            view.columns.clear();
            explicitNames.forEach(name -> view.columns.add(new ColumnDraft(name, Names.UNKNOWN_TYPE)));
        }
        return view;
    }
}
