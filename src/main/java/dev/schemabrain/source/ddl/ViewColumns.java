package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;

import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output columns of a view's query, read with JSqlParser: a column's name is its alias, or what
 * PostgreSQL would call it (the column or function name); its type is the source column's when the
 * item is a plain column of a table the script defines, the cast type for a cast, otherwise unknown.
 * {@code *} is expanded from the script's tables. A query JSqlParser rejects goes to
 * {@link LightViewColumns}; nothing is returned when neither can read it.
 */
final class ViewColumns {

    private static final Logger LOG = LoggerFactory.getLogger(ViewColumns.class);

    private ViewColumns() {
    }

    static List<ColumnDraft> derive(Jsql jsql, String query, SchemaDraft schema, String defaultSchema) {
        PlainSelect select;
        try {
            Statement statement = jsql.parse(query);
            select = statement instanceof Select s ? firstPlainSelect(s) : null;
        } catch (Exception | StackOverflowError e) {
            LOG.debug("JSqlParser rejected a view query ({}); reading its select list lightly",
                    Jsql.firstLine(e.getMessage()));
            return LightViewColumns.derive(query, schema, defaultSchema);
        }
        if (select == null) {
            return List.of();
        }
        ViewSources sources = new ViewSources();
        collectSources(select.getFromItem(), select.getJoins(), schema, defaultSchema, sources);
        List<ColumnDraft> columns = new ArrayList<>();
        for (SelectItem<?> item : select.getSelectItems()) {
            Expression expression = item.getExpression();
            if (expression instanceof AllColumns all) {
                String qualifier = all instanceof AllTableColumns t ? Names.unquote(t.getTable().getName()) : null;
                if (!sources.expand(qualifier, columns)) {
                    return List.of();
                }
                continue;
            }
            String name = item.getAlias() != null ? Names.unquote(item.getAlias().getName()) : nameOf(expression);
            columns.add(new ColumnDraft(name, typeOf(expression, sources)));
        }
        return columns;
    }

    /** A UNION's columns are named by its first branch. */
    private static PlainSelect firstPlainSelect(Select select) {
        if (select instanceof PlainSelect plain) {
            return plain;
        }
        if (select instanceof ParenthesedSelect parenthesed) {
            return firstPlainSelect(parenthesed.getSelect());
        }
        if (select instanceof SetOperationList union && !union.getSelects().isEmpty()) {
            return firstPlainSelect(union.getSelects().get(0));
        }
        return null;
    }

    private static void collectSources(FromItem from, List<Join> joins, SchemaDraft schema, String defaultSchema,
                                       ViewSources sources) {
        if (from instanceof Table table) {
            List<String> parts = new ArrayList<>();
            if (table.getSchemaName() != null) {
                parts.add(Names.unquote(table.getSchemaName()));
            }
            parts.add(Names.unquote(table.getName()));
            String alias = table.getAlias() != null ? Names.unquote(table.getAlias().getName()) : parts.get(parts.size() - 1);
            sources.add(alias, schema.find(Names.qualify(parts, defaultSchema)).orElse(null));
        } else if (from instanceof ParenthesedFromItem nested) {
            collectSources(nested.getFromItem(), nested.getJoins(), schema, defaultSchema, sources);
        } else if (from != null) {
            sources.add(from.getAlias() == null ? null : Names.unquote(from.getAlias().getName()), null);
        }
        if (joins != null) {
            for (Join join : joins) {
                collectSources(join.getFromItem(), null, schema, defaultSchema, sources);
            }
        }
    }

    private static String nameOf(Expression expression) {
        if (expression instanceof Column column) {
            return Names.unquote(column.getColumnName());
        }
        if (expression instanceof CastExpression cast) {
            return cast.getLeftExpression() instanceof Column column
                    ? Names.unquote(column.getColumnName())
                    : Names.typeText(SqlLexer.tokenize(cast.getColDataType().toString(), false)).split("[ (]")[0];
        }
        if (expression instanceof Function function) {
            return lastPart(function.getMultipartName(), function.getName());
        }
        if (expression instanceof AnalyticExpression analytic) {
            return lastPart(List.of(), analytic.getName());
        }
        if (expression instanceof CaseExpression) {
            return "case";
        }
        return "?column?";
    }

    private static String lastPart(List<String> parts, String name) {
        String last = parts == null || parts.isEmpty() ? name : parts.get(parts.size() - 1);
        String unquoted = Names.unquote(last);
        return unquoted.equals(last) ? last.toLowerCase(Locale.ROOT) : unquoted;
    }

    private static String typeOf(Expression expression, ViewSources sources) {
        if (expression instanceof CastExpression cast) {
            return Names.typeText(SqlLexer.tokenize(cast.getColDataType().toString(), false));
        }
        if (!(expression instanceof Column column)) {
            return Names.UNKNOWN_TYPE;
        }
        String qualifier = column.getTable() == null || column.getTable().getName() == null
                ? null : Names.unquote(column.getTable().getName());
        return sources.typeOf(qualifier, Names.unquote(column.getColumnName()));
    }
}
