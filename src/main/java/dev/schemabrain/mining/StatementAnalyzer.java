package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Flags;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.mining.SearchPaths.Context;
import dev.schemabrain.mining.SearchPaths.Resolution;
import dev.schemabrain.mining.StatementAnalysis.ColumnRef;
import dev.schemabrain.mining.StatementAnalysis.Filter;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.guard.Parsing;
import dev.schemabrain.sql.scope.Scope;
import dev.schemabrain.sql.scope.Scope.Col;
import dev.schemabrain.sql.scope.Scope.Source;
import dev.schemabrain.mining.StatementAnalysis.Kind;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.Node;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.update.Update;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Parses a normalized statement with JSqlParser and finds, through CTEs and subqueries, the catalog tables
 * it reads or writes, its equi-joins (ON and WHERE forms), the columns it filters, groups, orders and
 * selects, and its aggregates. Aliases resolve in the scope that declares them, then outwards (correlated
 * subqueries); an unqualified column belongs to the one table in scope that has it, or to none.
 */
public final class StatementAnalyzer {

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "stddev", "variance",
            "string_agg", "array_agg", "group_concat", "bool_and", "bool_or", "json_agg", "median");

    /** Names the engine resolves itself (system catalogs, MySQL's dual): not the catalog's, not unresolved. */
    private static final Pattern SYSTEM = Pattern.compile("(?i)pg_.*|dual");

    private final CatalogNames names;
    private final CatalogNames served;
    private final SearchPaths paths;
    private final PiiTags pii;
    private final Map<QualifiedName, List<Col<ColumnRef>>> columns = new ConcurrentHashMap<>();

    StatementAnalyzer(Catalog catalog, SearchPaths paths, PiiTags pii) {
        this.names = new CatalogNames(catalog);
        this.served = KeptLiterals.served(catalog, pii);
        this.paths = paths;
        this.pii = pii;
    }

    /** A catalog table's columns as a scope holds them. */
    private List<Col<ColumnRef>> columnsOf(QualifiedName table) {
        return columns.computeIfAbsent(table, t -> names.columns(t).stream().map(c -> new Col<>(c, new ColumnRef(t, c))).toList());
    }

    /** The statement's analysis; empty when JSqlParser cannot parse it. */
    public Optional<StatementAnalysis> analyze(String normalizedSql) {
        return analyze(normalizedSql, Context.NONE, List.of());
    }

    /**
     * A {@link SqlNormalizer.Template}'s text, run by {@code context}: names resolve through its paths and
     * {@code literals} are judged for keeping. Empty when JSqlParser cannot parse it.
     */
    Optional<StatementAnalysis> analyze(String text, Context context, List<String> literals) {
        Statement statement;
        try {
            statement = Parsing.statement(text);
        } catch (JSQLParserException | RuntimeException | StackOverflowError e) {
            return Optional.empty();
        }
        Walk walk = new Walk(context, new KeptLiterals(literals, served, pii), text);
        Kind kind;
        if (statement instanceof Select select) {
            walk.select(select, null);
            kind = Kind.SELECT;
        } else if (statement instanceof Insert insert) {
            walk.write(insert.getTable());
            if (insert.getSelect() != null) {
                walk.select(insert.getSelect(), null);
            }
            kind = Kind.WRITE;
        } else if (statement instanceof Update update) {
            walk.write(update.getTable());
            Scope<ColumnRef> scope = walk.scopeOf(List.of(update.getTable()), null);
            walk.expression(update.getWhere(), scope, "filter");
            kind = Kind.WRITE;
        } else if (statement instanceof Delete delete) {
            walk.write(delete.getTable());
            Scope<ColumnRef> scope = walk.scopeOf(List.of(delete.getTable()), null);
            walk.expression(delete.getWhere(), scope, "filter");
            kind = Kind.WRITE;
        } else if (statement instanceof Merge merge) {
            walk.write(merge.getTable());
            kind = Kind.WRITE;
        } else {
            kind = Kind.OTHER;
        }
        if (kind == Kind.WRITE) {
            walk.tables.removeAll(walk.written);
        }
        return Optional.of(new StatementAnalysis(kind, List.copyOf(walk.tables), List.copyOf(walk.written),
                walk.joins(), walk.columns, walk.aggregates,
                new StatementAnalysis.Names(walk.qualify, walk.ambiguous, walk.unresolved), walk.kept, walk.filters));
    }

    private final class Walk {
        final Set<QualifiedName> tables = new LinkedHashSet<>();
        final Set<QualifiedName> written = new LinkedHashSet<>();
        final Map<ColumnRef, Set<String>> columns = new TreeMap<>();
        final Set<String> aggregates = new TreeSet<>();
        /** Per pair of tables (in name order), the column pairs equated between them. */
        final Map<List<QualifiedName>, List<ColumnRef[]>> equalities = new LinkedHashMap<>();
        final Map<Integer, String> qualify = new TreeMap<>();
        final Set<String> ambiguous = new TreeSet<>();
        final Set<String> unresolved = new TreeSet<>();
        final Set<Integer> kept = new TreeSet<>();
        final List<Filter> filters = new ArrayList<>();
        final Context context;
        final KeptLiterals literals;
        final String text;

        Walk(Context context, KeptLiterals literals, String text) {
            this.context = context;
            this.literals = literals;
            this.text = text;
        }

        void write(Table table) {
            resolveTable(table).ifPresent(written::add);
        }

        Optional<QualifiedName> resolveTable(Table table) {
            String name = table == null ? null : unquote(table.getName());
            if (name == null) {
                return Optional.empty();
            }
            if (table.getSchemaName() != null) {
                return names.table(unquote(table.getSchemaName()), name);
            }
            Resolution r = paths.resolve(name, context);
            if (r instanceof Resolution.Found found) {
                offset(table.getASTNode()).ifPresent(at -> qualify.put(at, found.table().schema()));
                return Optional.of(found.table());
            }
            if (r instanceof Resolution.Ambiguous) {
                ambiguous.add(name);
            } else if (!SYSTEM.matcher(name).matches()) {
                unresolved.add(name);
            }
            return Optional.empty();
        }

        /** Where a node's first token starts in the parsed text. */
        Optional<Integer> offset(Node node) {
            if (node == null || node.jjtGetFirstToken() == null) {
                return Optional.empty();
            }
            int line = node.jjtGetFirstToken().beginLine;
            int at = 0;
            for (int l = 1; l < line; l++) {
                at = text.indexOf('\n', at) + 1;
                if (at == 0) {
                    return Optional.empty();
                }
            }
            at += node.jjtGetFirstToken().beginColumn - 1;
            return at >= 0 && at < text.length() ? Optional.of(at) : Optional.empty();
        }

        Scope<ColumnRef> scopeOf(List<Table> from, Scope<ColumnRef> outer) {
            Scope<ColumnRef> scope = Scope.inside(outer, Scope.Mode.LENIENT);
            from.forEach(t -> bind(scope, t));
            return scope;
        }

        void select(Select select, Scope<ColumnRef> outer) {
            if (select == null) {
                return;
            }
            Scope<ColumnRef> withScope = Scope.inside(outer, Scope.Mode.LENIENT);
            if (select.getWithItemsList() != null) {
                for (WithItem<?> with : select.getWithItemsList()) {
                    if (with.getSelect() != null) {
                        select(with.getSelect(), withScope);
                    }
                    withScope.cte(unquote(with.getAliasName()), null);
                }
            }
            if (select instanceof PlainSelect plain) {
                plain(plain, withScope);
            } else if (select instanceof SetOperationList set) {
                set.getSelects().forEach(s -> select(s, withScope));
            } else if (select instanceof ParenthesedSelect parenthesed) {
                select(parenthesed.getSelect(), withScope);
            }
            if (!(select instanceof PlainSelect) && select.getOrderByElements() != null) {
                for (OrderByElement o : select.getOrderByElements()) {
                    expression(o.getExpression(), withScope, "order_by");
                }
            }
        }

        void plain(PlainSelect plain, Scope<ColumnRef> outer) {
            Scope<ColumnRef> scope = Scope.inside(outer, Scope.Mode.LENIENT);
            from(plain.getFromItem(), plain.getJoins(), scope);
            if (plain.getSelectItems() != null) {
                for (SelectItem<?> item : plain.getSelectItems()) {
                    expression(item.getExpression(), scope, "select");
                }
            }
            expression(plain.getWhere(), scope, "filter");
            expression(plain.getHaving(), scope, "filter");
            int items = plain.getSelectItems() == null ? 0 : plain.getSelectItems().size();
            GroupByElement group = plain.getGroupBy();
            if (group != null && group.getGroupByExpressionList() != null) {
                for (Object e : group.getGroupByExpressionList()) {
                    ordinal((Expression) e, items);
                    expression((Expression) e, scope, "group_by");
                }
            }
            if (plain.getOrderByElements() != null) {
                for (OrderByElement o : plain.getOrderByElements()) {
                    ordinal(o.getExpression(), items);
                    expression(o.getExpression(), scope, "order_by");
                }
            }
        }

        void ordinal(Expression e, int items) {
            if (e instanceof JdbcParameter p && p.isUseFixedIndex() && literals.ordinal(p.getIndex(), items)) {
                kept.add(p.getIndex());
            }
        }

        /** {@code column op value} (either way round): a filter, and the value kept when the column already shows it. */
        void compared(ComparisonOperator comparison, Scope<ColumnRef> scope, String role) {
            Expression left = comparison.getLeftExpression();
            Expression right = comparison.getRightExpression();
            String op = comparison.getStringExpression();
            if (right instanceof Column && !(left instanceof Column)) {
                Expression swap = left;
                left = right;
                right = swap;
                op = switch (op) {
                    case "<" -> ">";
                    case ">" -> "<";
                    case "<=" -> ">=";
                    case ">=" -> "<=";
                    default -> op;
                };
            }
            if (left instanceof Column column && !(right instanceof Column)) {
                String operator = op;
                Expression value = right;
                resolve(column, scope).ifPresent(r -> filter(r, operator, List.of(value), role));
            }
        }

        /** {@code column [NOT] IN (values)}: the values kept only when the column already shows every one. */
        void in(InExpression in, Scope<ColumnRef> scope, String role) {
            if (in.getLeftExpression() instanceof Column column && in.getRightExpression() instanceof ExpressionList<?> list) {
                List<Expression> values = new ArrayList<>();
                list.forEach(e -> values.add((Expression) e));
                resolve(column, scope).ifPresent(r -> filter(r, in.isNot() ? "not in" : "in", values, role));
            }
        }

        void filter(ColumnRef ref, String operator, List<Expression> values, String role) {
            if (values.size() == 1 && flag(ref, operator, values.get(0), role)) {
                return;
            }
            boolean equality = List.of("=", "<>", "!=", "in", "not in").contains(operator);
            List<Integer> known = new ArrayList<>();
            for (Expression v : values) {
                if (!(v instanceof JdbcParameter p) || !p.isUseFixedIndex()) {
                    if (!(v instanceof JdbcParameter)) {
                        return;   // compared with an expression, not a value: no filter on a value
                    }
                } else if (equality && literals.known(ref, p.getIndex())) {
                    known.add(p.getIndex());
                }
            }
            List<String> shown = new ArrayList<>();
            if (known.size() == values.size()) {
                kept.addAll(known);
                known.forEach(k -> shown.add(literals.text(k)));
            }
            if (role.equals("filter")) {
                filters.add(new Filter(ref, operator, shown));
            }
        }

        /**
         * {@code flag = false}, {@code flag <> TRUE}, {@code deleted = 0}, {@code flag = 'f'} on a yes/no column: the literal
         * kept, the filter recorded as {@code = false} (or {@code = 0} on a number flag) however it was written.
         */
        boolean flag(ColumnRef ref, String operator, Expression value, String role) {
            boolean negated = operator.equals("<>") || operator.equals("!=");
            if (!negated && !operator.equals("=")) {
                return false;
            }
            Integer k = value instanceof JdbcParameter p && p.isUseFixedIndex() ? p.getIndex() : null;
            String text = value instanceof BooleanValue b ? String.valueOf(b.getValue()) : k != null ? literals.text(k) : null;
            Optional<Boolean> truth = literals.truth(ref, text);
            if (truth.isEmpty()) {
                return false;
            }
            if (k != null) {
                kept.add(k);
            }
            yesNo(ref, truth.get() != negated, role);
            return true;
        }

        /** A yes/no test of a flag column, as {@code = true|false} ({@code = 1|0} on a number column). */
        void yesNo(ColumnRef ref, boolean truth, String role) {
            if (role.equals("filter")) {
                literals.flag(ref).ifPresent(c -> filters.add(new Filter(ref, "=", List.of(Flags.literal(c, truth)))));
            }
        }

        /** {@code flag IS [NOT] TRUE|FALSE}; the NOT forms also keep NULL rows, so they are {@code = …} only on a NOT NULL column. */
        void isBoolean(IsBooleanExpression is, Scope<ColumnRef> scope, String role) {
            if (is.getLeftExpression() instanceof Column column) {
                resolve(column, scope).ifPresent(r -> literals.flag(r)
                        .filter(c -> !is.isNot() || !c.nullable())
                        .ifPresent(c -> yesNo(r, is.isTrue() != is.isNot(), role)));
            }
        }

        /** The flag columns a condition tests bare, through AND, OR, NOT and parentheses: {@code WHERE active AND NOT is_test}. */
        void bareFlags(Expression condition, Scope<ColumnRef> scope, boolean truth) {
            if (condition instanceof AndExpression || condition instanceof OrExpression) {
                bareFlags(((BinaryExpression) condition).getLeftExpression(), scope, truth);
                bareFlags(((BinaryExpression) condition).getRightExpression(), scope, truth);
            } else if (condition instanceof NotExpression not) {
                bareFlags(not.getExpression(), scope, !truth);
            } else if (condition instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
                bareFlags((Expression) list.get(0), scope, truth);
            } else if (condition instanceof Column column) {
                resolve(column, scope).ifPresent(r -> yesNo(r, truth, "filter"));
            }
        }

        /** JOIN … USING (c): c of the joined table equals c of the one earlier table that has it. */
        void using(Join join, Scope<ColumnRef> scope) {
            if (join.getUsingColumns() == null || !(join.getFromItem() instanceof Table t)) {
                return;
            }
            Source<ColumnRef> right = scope.source(aliasOf(t), null);
            if (right == null || right.opaque()) {
                return;
            }
            for (Column c : join.getUsingColumns()) {
                String name = unquote(c.getColumnName());
                Col<ColumnRef> b = scope.find(right.columns(), name);
                if (b == null) {
                    continue;
                }
                for (Source<ColumnRef> left : scope.sources()) {
                    if (left == right) {
                        break;
                    }
                    Col<ColumnRef> a = scope.find(left.columns(), name);
                    if (a != null) {
                        touch(a.value(), "join");
                        touch(b.value(), "join");
                        equate(a.value(), b.value());
                        break;
                    }
                }
            }
        }

        void fromItem(FromItem item, Scope<ColumnRef> scope) {
            if (item instanceof Table table) {
                bind(scope, table);
            } else if (item instanceof ParenthesedSelect sub) {
                select(sub.getSelect(), scope.parent());
                if (sub.getAlias() != null) {
                    scope.sources().add(Source.opaque(unquote(sub.getAlias().getName()).toLowerCase(Locale.ROOT), null));
                }
            } else if (item instanceof ParenthesedFromItem nested) {
                from(nested.getFromItem(), nested.getJoins(), scope);
            }
        }

        /** A FROM clause: every item bound first (an ON may name a later one), then each join's ON and USING. */
        void from(FromItem first, List<Join> joins, Scope<ColumnRef> scope) {
            fromItem(first, scope);
            if (joins == null) {
                return;
            }
            for (Join join : joins) {
                fromItem(join.getFromItem(), scope);
            }
            for (Join join : joins) {
                for (Expression on : join.getOnExpressions()) {
                    expression(on, scope, "join");
                }
                using(join, scope);
            }
        }

        /** A table as its FROM level sees it: a catalog table's columns, or unknown ones (a CTE, a table not indexed). */
        void bind(Scope<ColumnRef> scope, Table table) {
            String name = unquote(table.getName());
            Optional<QualifiedName> resolved = table.getSchemaName() == null && name != null && scope.isCte(name)
                    ? Optional.empty() : resolveTable(table);
            resolved.ifPresent(tables::add);
            scope.sources().add(resolved.<Source<ColumnRef>>map(t -> new Source<>(aliasOf(table), t, columnsOf(t)))
                    .orElse(Source.opaque(aliasOf(table), null)));
        }

        String aliasOf(Table table) {
            String alias = table.getAlias() != null ? table.getAlias().getName() : table.getName();
            return unquote(alias).toLowerCase(Locale.ROOT);
        }

        void expression(Expression expression, Scope<ColumnRef> scope, String role) {
            if (expression == null) {
                return;
            }
            if (role.equals("filter")) {
                bareFlags(expression, scope, true);
            }
            expression.accept(new ExpressionVisitorAdapter<Void>() {
                @Override
                public <S> Void visit(Column column, S context) {
                    resolve(column, scope).ifPresent(r -> touch(r, role));
                    return null;
                }

                @Override
                public <S> Void visit(EqualsTo equals, S context) {
                    if (equals.getLeftExpression() instanceof Column a && equals.getRightExpression() instanceof Column b) {
                        Optional<ColumnRef> ra = resolve(a, scope);
                        Optional<ColumnRef> rb = resolve(b, scope);
                        if (ra.isPresent() && rb.isPresent()) {
                            touch(ra.get(), "join");
                            touch(rb.get(), "join");
                            equate(ra.get(), rb.get());
                            return null;
                        }
                    }
                    compared(equals, scope, role);
                    return super.visit(equals, context);
                }

                @Override
                public <S> Void visit(NotEqualsTo comparison, S context) {
                    compared(comparison, scope, role);
                    return super.visit(comparison, context);
                }

                @Override
                public <S> Void visit(GreaterThan comparison, S context) {
                    compared(comparison, scope, role);
                    return super.visit(comparison, context);
                }

                @Override
                public <S> Void visit(GreaterThanEquals comparison, S context) {
                    compared(comparison, scope, role);
                    return super.visit(comparison, context);
                }

                @Override
                public <S> Void visit(MinorThan comparison, S context) {
                    compared(comparison, scope, role);
                    return super.visit(comparison, context);
                }

                @Override
                public <S> Void visit(MinorThanEquals comparison, S context) {
                    compared(comparison, scope, role);
                    return super.visit(comparison, context);
                }

                @Override
                public <S> Void visit(InExpression in, S context) {
                    in(in, scope, role);
                    return super.visit(in, context);
                }

                @Override
                public <S> Void visit(IsNullExpression isNull, S context) {
                    if (isNull.getLeftExpression() instanceof Column column && role.equals("filter")) {
                        resolve(column, scope).ifPresent(r -> filters.add(new Filter(r, isNull.isNot() ? "is not null" : "is null", List.of())));
                    }
                    return super.visit(isNull, context);
                }

                @Override
                public <S> Void visit(IsBooleanExpression is, S context) {
                    isBoolean(is, scope, role);
                    return super.visit(is, context);
                }

                @Override
                public <S> Void visit(Function function, S context) {
                    if (function.getName() != null && AGGREGATES.contains(function.getName().toLowerCase(Locale.ROOT))) {
                        aggregates.add(function.getName().toLowerCase(Locale.ROOT));
                    }
                    if (function.getName() != null && function.getParameters() != null) {
                        int position = 0;
                        for (Object argument : function.getParameters()) {
                            if (argument instanceof JdbcParameter p && p.isUseFixedIndex()
                                    && literals.syntax(function.getName(), position, p.getIndex())) {
                                kept.add(p.getIndex());
                            }
                            position++;
                        }
                    }
                    return super.visit(function, context);
                }

                @Override
                public <S> Void visit(ParenthesedSelect sub, S context) {
                    select(sub.getSelect(), scope);
                    return null;
                }

                @Override
                public <S> Void visit(Select sub, S context) {
                    select(sub, scope);
                    return null;
                }
            }, null);
        }

        /** The catalog column a column reference names, when its scopes settle it; none for a derived table's. */
        Optional<ColumnRef> resolve(Column column, Scope<ColumnRef> scope) {
            String name = unquote(column.getColumnName());
            Table qualifier = column.getTable();
            if (qualifier != null && qualifier.getName() != null) {
                // The statement ran, so the engine matched any schema written here: the alias alone decides.
                Source<ColumnRef> source = scope.source(unquote(qualifier.getName()).toLowerCase(Locale.ROOT), null);
                return Optional.ofNullable(source == null ? null : scope.find(source.columns(), name)).map(Col::value);
            }
            Scope.Match<ColumnRef> match = scope.unqualified(name);
            return match != null && match.matches().size() == 1 ? Optional.of(match.matches().get(0).value()) : Optional.empty();
        }

        void touch(ColumnRef ref, String role) {
            columns.computeIfAbsent(ref, r -> new TreeSet<>()).add(role);
        }

        void equate(ColumnRef a, ColumnRef b) {
            if (a.table().equals(b.table())) {
                return;   // a filter within one table, or a self-join, which the join graph leaves to foreign keys
            }
            boolean ordered = a.table().compareTo(b.table()) < 0;
            ColumnRef first = ordered ? a : b;
            ColumnRef second = ordered ? b : a;
            equalities.computeIfAbsent(List.of(first.table(), second.table()), k -> new ArrayList<>())
                    .add(new ColumnRef[] {first, second});
        }

        List<ObservedJoin> joins() {
            Set<ObservedJoin> out = new LinkedHashSet<>();
            for (List<ColumnRef[]> pairs : equalities.values()) {
                List<String> left = new ArrayList<>();
                List<String> right = new ArrayList<>();
                Set<String> seen = new HashSet<>();
                for (ColumnRef[] p : pairs) {
                    if (seen.add(p[0].column() + "=" + p[1].column())) {
                        left.add(p[0].column());
                        right.add(p[1].column());
                    }
                }
                out.add(ObservedJoin.of(pairs.get(0)[0].table(), left, pairs.get(0)[1].table(), right));
            }
            return List.copyOf(out);
        }
    }

    private static String unquote(String name) {
        if (name == null || name.length() < 2) {
            return name;
        }
        char first = name.charAt(0);
        char last = name.charAt(name.length() - 1);
        if ((first == '"' && last == '"') || (first == '`' && last == '`') || (first == '[' && last == ']')) {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }
}
