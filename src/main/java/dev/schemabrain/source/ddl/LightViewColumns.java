package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.Token;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fallback for view queries JSqlParser rejects (JSqlParser 5.0 stumbles on, for instance,
 * {@code public.group_concat(...)}). It reads only the top-level select list and the FROM clause's
 * table names and aliases: enough for pg_dump's views, which alias every computed column.
 */
final class LightViewColumns {

    private static final String[] SELECT_LIST_END = {
        "FROM", "INTO", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH",
        "UNION", "EXCEPT", "INTERSECT", "FOR"};
    private static final String[] NOT_AN_ALIAS = {
        "ON", "USING", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "FULL", "CROSS", "NATURAL", "WHERE", "GROUP",
        "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION", "EXCEPT", "INTERSECT", "FOR", "LATERAL",
        "TABLESAMPLE"};

    private LightViewColumns() {
    }

    static List<ColumnDraft> derive(String query, SchemaDraft schema, String defaultSchema) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(query, false);
        } catch (SqlSyntaxException e) {
            return List.of();
        }
        int at = 0;
        while (at < tokens.size() && tokens.get(at).isSymbol("(")) {
            at++;
        }
        if (at >= tokens.size() || !tokens.get(at).isWord("SELECT")) {
            return List.of();
        }
        at++;
        if (at < tokens.size() && tokens.get(at).isWord("DISTINCT", "ALL")) {
            at++;
        }
        List<List<Token>> items = new ArrayList<>();
        at = selectList(tokens, at, items);
        ViewSources sources = new ViewSources();
        if (at < tokens.size() && tokens.get(at).isWord("FROM")) {
            fromClause(tokens, at, schema, defaultSchema, sources);
        }
        List<ColumnDraft> columns = new ArrayList<>();
        for (List<Token> item : items) {
            if (!column(item, sources, columns)) {
                return List.of();
            }
        }
        return columns;
    }

    /** Splits the select list at top-level commas; returns the index of the word that ends it. */
    private static int selectList(List<Token> tokens, int at, List<List<Token>> items) {
        List<Token> item = new ArrayList<>();
        int depth = 0;
        for (; at < tokens.size(); at++) {
            Token token = tokens.get(at);
            if (depth == 0 && (token.isWord(SELECT_LIST_END) || token.isSymbol(")"))) {
                break;
            }
            if (depth == 0 && token.isSymbol(",")) {
                items.add(item);
                item = new ArrayList<>();
                continue;
            }
            depth += token.isSymbol("(") ? 1 : token.isSymbol(")") ? -1 : 0;
            item.add(token);
        }
        if (!item.isEmpty()) {
            items.add(item);
        }
        return at;
    }

    /** Table names and aliases after FROM, JOIN and top-level commas; subqueries become unknown sources. */
    private static void fromClause(List<Token> tokens, int from, SchemaDraft schema, String defaultSchema,
                                   ViewSources sources) {
        int depth = 0;
        boolean expectSource = true;
        for (int i = from + 1; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (depth == 0 && token.isWord(SELECT_LIST_END)) {
                return;
            }
            if (expectSource && token.isSymbol("(")) {
                if (i + 1 < tokens.size() && tokens.get(i + 1).isWord("SELECT")) {
                    i = skipGroup(tokens, i);
                    sources.add(aliasAt(tokens, i + 1), null);
                    expectSource = false;
                } else {
                    depth++;
                }
                continue;
            }
            if (expectSource && token.isIdentifier()) {
                List<String> parts = new ArrayList<>(List.of(token.value()));
                while (i + 2 < tokens.size() && tokens.get(i + 1).isSymbol(".") && tokens.get(i + 2).isIdentifier()) {
                    parts.add(tokens.get(i + 2).value());
                    i += 2;
                }
                String alias = aliasAt(tokens, i + 1);
                sources.add(alias != null ? alias : parts.get(parts.size() - 1),
                        schema.find(Names.qualify(parts, defaultSchema)).orElse(null));
                expectSource = false;
                continue;
            }
            depth += token.isSymbol("(") ? 1 : token.isSymbol(")") ? -1 : 0;
            expectSource = token.isWord("JOIN") || (depth == 0 && token.isSymbol(","));
        }
    }

    private static int skipGroup(List<Token> tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            depth += tokens.get(i).isSymbol("(") ? 1 : tokens.get(i).isSymbol(")") ? -1 : 0;
            if (depth == 0) {
                return i;
            }
        }
        return tokens.size();
    }

    /** {@code [AS] alias} starting at {@code at}, or null. */
    private static String aliasAt(List<Token> tokens, int at) {
        if (at < tokens.size() && tokens.get(at).isWord("AS")) {
            at++;
        }
        if (at < tokens.size() && tokens.get(at).isIdentifier() && !tokens.get(at).isWord(NOT_AN_ALIAS)) {
            return tokens.get(at).value();
        }
        return null;
    }

    /** One select-list item; false when it is a {@code *} that cannot be expanded. */
    private static boolean column(List<Token> item, ViewSources sources, List<ColumnDraft> out) {
        int n = item.size();
        if (n == 0) {
            return false;
        }
        if (item.get(n - 1).isSymbol("*")) {
            return sources.expand(n >= 3 ? item.get(n - 3).value() : null, out);
        }
        String alias = null;
        List<Token> expression = item;
        if (n >= 3 && item.get(n - 2).isWord("AS") && item.get(n - 1).isIdentifier()) {
            alias = item.get(n - 1).value();
            expression = item.subList(0, n - 2);
        } else if (n >= 2 && item.get(n - 1).isIdentifier() && isColumnReference(item.subList(0, n - 1))) {
            alias = item.get(n - 1).value();
            expression = item.subList(0, n - 1);
        }
        int cast = castAt(expression);
        List<Token> castType = cast < 0 ? List.of() : expression.subList(cast + 1, expression.size());
        List<Token> value = cast < 0 ? expression : expression.subList(0, cast);
        String type = !castType.isEmpty() ? Names.typeText(castType)
                : isColumnReference(value) ? sources.typeOf(value.size() >= 3 ? value.get(value.size() - 3).value() : null,
                        value.get(value.size() - 1).value())
                : Names.UNKNOWN_TYPE;
        out.add(new ColumnDraft(alias != null ? alias : nameOf(value, castType), type));
        return true;
    }

    /** PostgreSQL's name for an unaliased item: the column, the function, or the cast's type. */
    private static String nameOf(List<Token> value, List<Token> castType) {
        if (isColumnReference(value)) {
            return value.get(value.size() - 1).value();
        }
        if (!value.isEmpty() && value.get(0).isWord("CASE")) {
            return "case";
        }
        int open = 0;
        while (open < value.size() && !value.get(open).isSymbol("(")) {
            open++;
        }
        if (open > 0 && open < value.size() && isColumnReference(value.subList(0, open))) {
            Token function = value.get(open - 1);
            return function.kind() == Token.Kind.WORD ? function.text().toLowerCase(Locale.ROOT) : function.value();
        }
        return castType.isEmpty() ? "?column?" : Names.typeText(castType).split("[ (\\[]")[0];
    }

    /** {@code a}, {@code t.a} or {@code s.t.a}. */
    private static boolean isColumnReference(List<Token> tokens) {
        if (tokens.isEmpty() || tokens.size() % 2 == 0) {
            return false;
        }
        for (int i = 0; i < tokens.size(); i++) {
            boolean ok = i % 2 == 0 ? tokens.get(i).isIdentifier() : tokens.get(i).isSymbol(".");
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * The top-level {@code ::} of a trailing cast, or -1. CASE ... END nests like parentheses: the
     * {@code ''::text} of {@code ELSE ''::text END} casts one branch, not the item.
     */
    private static int castAt(List<Token> expression) {
        int depth = 0;
        int last = -1;
        for (int i = 0; i < expression.size(); i++) {
            Token token = expression.get(i);
            depth += token.isSymbol("(") || token.isWord("CASE") ? 1 : token.isSymbol(")") || token.isWord("END") ? -1 : 0;
            if (depth == 0 && token.isSymbol("::")) {
                last = i;
            }
        }
        if (last < 0) {
            return -1;
        }
        for (Token token : expression.subList(last + 1, expression.size())) {
            if (!token.isIdentifier() && !token.isSymbol(".") && !token.isSymbol("(") && !token.isSymbol(")")
                    && !token.isSymbol(",") && !token.isSymbol("[") && !token.isSymbol("]")
                    && token.kind() != Token.Kind.NUMBER) {
                return -1;
            }
        }
        return last;
    }
}
