package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.sql.scope.Scope;
import dev.schemabrain.sql.scope.Scope.Col;
import dev.schemabrain.sql.scope.Scope.Source;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.RegExpMatchOperator;
import net.sf.jsqlparser.expression.operators.relational.SimilarToExpression;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
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
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Binds one parsed SELECT to the catalog and follows each output column back to catalog columns. One instance per
 * statement (it collects what it saw, for {@link AstCensus} to check that nothing was skipped). Throws
 * {@link Refused} on the first thing it will not accept.
 */
final class Binder {

    /** Carries a refusal out of the walk. */
    static final class Refused extends RuntimeException {
        final Refusal refusal;

        Refused(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }
    }

    /** Where a value comes from, built up while walking an expression. */
    static final class Deriv {
        final TreeSet<ColumnRef> values = new TreeSet<>();
        final TreeSet<ColumnRef> derived = new TreeSet<>();
        boolean aggregate;

        void add(Deriv other) {
            values.addAll(other.values);
            derived.addAll(other.derived);
            aggregate |= other.aggregate;
        }

        /** Adds {@code other}'s columns as shaping this value without showing in it. */
        void addAsDerived(Deriv other) {
            derived.addAll(other.values);
            derived.addAll(other.derived);
        }

        Set<ColumnRef> all() {
            TreeSet<ColumnRef> all = new TreeSet<>(values);
            all.addAll(derived);
            return all;
        }

        static Deriv of(ColumnRef ref) {
            Deriv d = new Deriv();
            d.values.add(ref);
            return d;
        }
    }

    /** The gate refuses a column name that only case could settle: what runs must be what was checked. */
    private static final Scope.Mode MODE = Scope.Mode.strict(name -> refuse(Refusal.Reason.AMBIGUOUS_NAME,
            "The column " + name + " matches more than one column when case is ignored; quote it exactly."));

    private static final Set<String> TIME_KEYS = Set.of(
            "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP");

    private final SqlRules rules;
    private final Catalog catalog;
    final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    final SortedSet<QualifiedName> tables = new TreeSet<>();
    final SortedSet<ColumnRef> filters = new TreeSet<>();
    final SortedSet<ColumnRef> shaping = new TreeSet<>();
    /** Columns read by a condition inside an aggregate (CASE WHEN, FILTER, a comparison): also in {@link #filters}. */
    final SortedSet<ColumnRef> aggregatePredicates = new TreeSet<>();
    /** Each table reference bound to the catalog, by node: the rendering writes it under its catalog name. */
    final Map<net.sf.jsqlparser.schema.Table, QualifiedName> bound = new IdentityHashMap<>();

    Binder(SqlRules rules, Catalog catalog) {
        this.rules = rules;
        this.catalog = catalog;
    }

    static Refused refuse(Refusal.Reason reason, String message) {
        return new Refused(Refusal.of(reason, message));
    }

    /** The top-level statement's outputs. */
    List<OutputColumn> bindTop(Select select) {
        List<Col<Deriv>> columns = bindSelect(select, null);
        List<OutputColumn> outputs = new ArrayList<>();
        for (Col<Deriv> c : columns) {
            outputs.add(new OutputColumn(c.name(), c.value().values, c.value().derived, c.value().aggregate));
        }
        return outputs;
    }

    // ---- queries -------------------------------------------------------------------------------------------------

    private List<Col<Deriv>> bindSelect(Select select, Scope<Deriv> outer) {
        seen.add(select);
        Scope<Deriv> withScope = outer;
        if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
            withScope = Scope.inside(outer, MODE);
            boolean recursive = false;   // WITH RECURSIVE covers every CTE of the list, whichever item carries the flag
            for (WithItem<?> item : select.getWithItemsList()) {
                recursive |= item.isRecursive();
                bindWith(item, withScope, recursive);
            }
        }
        List<Col<Deriv>> result;
        if (select instanceof PlainSelect plain) {
            result = bindPlain(plain, withScope);
        } else if (select instanceof SetOperationList set) {
            result = bindSetOperation(set, withScope);
        } else if (select instanceof ParenthesedSelect parenthesed) {
            result = bindSelect(parenthesed.getSelect(), withScope);
            shapeOrderBy(parenthesed.getOrderByElements(), withScope, result);
        } else if (select instanceof Values values) {
            result = bindValues(values, withScope);
        } else {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                    "This form of query (" + select.getClass().getSimpleName() + ") is not supported; write a plain SELECT.");
        }
        return result;
    }

    private void bindWith(WithItem<?> item, Scope<Deriv> scope, boolean recursive) {
        seen.add(item);
        if (!(item.getStatement() instanceof ParenthesedSelect)) {
            throw refuse(Refusal.Reason.DML_IN_STATEMENT,
                    "The CTE " + item.getAliasName() + " holds INSERT, UPDATE or DELETE; only SELECT is allowed.");
        }
        String name = item.getAlias() == null ? null : plain(item.getAlias().getName());
        if (name == null) {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "A CTE without a name is not supported; name it.");
        }
        seen.add(item.getSelect());
        List<String> columnNames = item.getWithItemList() == null ? null
                : item.getWithItemList().stream().map(si -> {
                    seen.add(si);
                    seen.add(si.getExpression());
                    return unquote(si.getExpression().toString());
                }).toList();
        Select body = item.getSelect().getSelect();
        // SQLite makes a compound CTE recursive without the keyword: there its own name inside means itself.
        if ((recursive || rules.compoundCtesRecurse()) && body instanceof SetOperationList set) {
            // The recursive branch reads the CTE itself: start from the anchor and grow to a fixed point.
            List<Col<Deriv>> anchor = rename(bindSelect(set.getSelects().get(0), scope), columnNames);
            scope.cte(name, anchor);
            List<Col<Deriv>> current = anchor;
            // A true fixed point: each round's lineage is added to the last, until a round adds nothing. The sets only
            // grow and are bounded by the catalog's columns, so this ends (and no fixed count of rounds can stop early).
            while (true) {
                List<Col<Deriv>> next = rename(bindSelect(body, scope), columnNames);
                boolean grew = false;
                List<Col<Deriv>> merged = new ArrayList<>();
                for (int i = 0; i < next.size(); i++) {
                    Deriv d = new Deriv();
                    if (i < current.size()) {
                        d.add(current.get(i).value());
                    }
                    int values = d.values.size();
                    int derived = d.derived.size();
                    boolean aggregate = d.aggregate;
                    d.add(next.get(i).value());
                    grew |= d.values.size() != values || d.derived.size() != derived || d.aggregate != aggregate;
                    merged.add(new Col<>(next.get(i).name(), d));
                }
                current = merged;
                scope.cte(name, current);
                if (!grew) {
                    break;
                }
            }
            return;
        }
        scope.cte(name, rename(bindSelect(body, scope), columnNames));
    }

    private static List<Col<Deriv>> rename(List<Col<Deriv>> columns, List<String> names) {
        if (names == null || names.isEmpty()) {
            return columns;
        }
        if (names.size() != columns.size()) {
            throw refuse(Refusal.Reason.SYNTAX_ERROR, "A column list names " + names.size() + " columns for a query"
                    + " with " + columns.size() + "; give one name per column.");
        }
        List<Col<Deriv>> renamed = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            renamed.add(new Col<>(names.get(i), columns.get(i).value()));
        }
        return renamed;
    }

    private List<Col<Deriv>> bindSetOperation(SetOperationList set, Scope<Deriv> scope) {
        List<Col<Deriv>> merged = null;
        for (Select branch : set.getSelects()) {
            List<Col<Deriv>> columns = bindSelect(branch, scope);
            if (merged == null) {
                merged = new ArrayList<>();
                for (Col<Deriv> c : columns) {
                    Deriv d = new Deriv();
                    d.add(c.value());
                    merged.add(new Col<>(c.name(), d));
                }
            } else {
                if (columns.size() != merged.size()) {
                    throw refuse(Refusal.Reason.SYNTAX_ERROR, "The branches of a UNION, INTERSECT or EXCEPT have "
                            + merged.size() + " and " + columns.size() + " columns; give each branch the same columns.");
                }
                for (int i = 0; i < columns.size(); i++) {
                    merged.get(i).value().add(columns.get(i).value());
                }
            }
        }
        // INTERSECT, EXCEPT and UNION's de-duplication compare whole rows across branches: each operand tests
        // membership, so every column of every branch is read as a filter is. Only UNION ALL keeps rows as they are.
        boolean membership = set.getOperations().stream().anyMatch(op -> !(op instanceof net.sf.jsqlparser.statement
                .select.UnionOp union && union.isAll()));
        if (membership) {
            for (Col<Deriv> c : merged) {
                filters.addAll(c.value().all());
            }
        }
        shapeOrderBy(set.getOrderByElements(), scope, merged);
        return merged;
    }

    private List<Col<Deriv>> bindValues(Values values, Scope<Deriv> scope) {
        List<Col<Deriv>> columns = new ArrayList<>();
        ExpressionList<?> rows = values.getExpressions();
        for (Expression row : rows) {
            List<Expression> cells = row instanceof ExpressionList<?> list ? new ArrayList<>(list) : List.of(row);
            seen.add(row);
            for (int i = 0; i < cells.size(); i++) {
                Deriv d = expression(cells.get(i), scope);
                if (columns.size() <= i) {
                    columns.add(new Col<>("column" + (i + 1), new Deriv()));
                }
                columns.get(i).value().add(d);
            }
        }
        return columns;
    }

    private List<Col<Deriv>> bindPlain(PlainSelect plain, Scope<Deriv> outer) {
        if (plain.getIntoTables() != null || plain.getMySqlSelectIntoClause() != null || plain.getIntoTempTable() != null) {
            throw refuse(Refusal.Reason.INTO_OUTFILE,
                    "SELECT ... INTO writes the result into a table, file or variable; remove the INTO clause.");
        }
        Scope<Deriv> scope = Scope.inside(outer, MODE);
        if (plain.getFromItem() != null) {
            scope.sources().addAll(fromItem(plain.getFromItem(), scope));
        }
        if (plain.getJoins() != null) {
            for (Join join : plain.getJoins()) {
                join(join, scope);
            }
        }
        filter(plain.getWhere(), scope);
        if (plain.getWindowDefinitions() != null) {
            for (WindowDefinition window : plain.getWindowDefinitions()) {
                seen.add(window);
                Deriv d = new Deriv();
                if (window.getPartitionExpressionList() != null) {
                    for (Object e : window.getPartitionExpressionList()) {
                        d.add(expression((Expression) e, scope));
                    }
                }
                if (window.getOrderByElements() != null) {
                    for (OrderByElement o : window.getOrderByElements()) {
                        seen.add(o);
                        d.add(expression(o.getExpression(), scope));
                    }
                }
                shaping.addAll(d.all());
                scope.windows().put(String.valueOf(window.getWindowName()).toLowerCase(Locale.ROOT), d);
            }
        }
        List<Col<Deriv>> outputs = new ArrayList<>();
        for (SelectItem<?> item : plain.getSelectItems()) {
            selectItem(item, scope, outputs);
        }
        scope.outputs(outputs);
        if (plain.getDistinct() != null && plain.getDistinct().getOnSelectItems() != null) {
            for (SelectItem<?> item : plain.getDistinct().getOnSelectItems()) {
                seen.add(item);
                shape(item.getExpression(), scope);
            }
        }
        GroupByElement groupBy = plain.getGroupBy();
        if (groupBy != null) {
            if (groupBy.getGroupByExpressionList() != null) {
                for (Object e : groupBy.getGroupByExpressionList()) {
                    shape((Expression) e, scope);
                }
            }
            if (groupBy.getGroupingSets() != null) {
                for (ExpressionList<Expression> set : groupBy.getGroupingSets()) {
                    seen.add(set);
                    for (Expression e : set) {
                        shape(e, scope);
                    }
                }
            }
        }
        filter(plain.getHaving(), scope);
        filter(plain.getQualify(), scope);
        shapeOrderBy(plain.getOrderByElements(), scope, outputs);
        return outputs;
    }

    private void selectItem(SelectItem<?> item, Scope<Deriv> scope, List<Col<Deriv>> outputs) {
        seen.add(item);
        Expression e = item.getExpression();
        if (e instanceof AllTableColumns all) {
            seen.add(all);
            seen.add(all.getTable());
            Source<Deriv> source = scope.source(plain(all.getTable().getName()), plain(all.getTable().getSchemaName()));
            if (source == null) {
                throw unknown("table " + all.getTable().getFullyQualifiedName(), plain(all.getTable().getName()),
                        scope.sources().stream().map(Source::alias).toList());
            }
            outputs.addAll(source.columns());
            return;
        }
        if (e instanceof AllColumns all) {
            seen.add(all);
            if (scope.sources().isEmpty()) {
                throw refuse(Refusal.Reason.SYNTAX_ERROR, "SELECT * needs a FROM clause; name the table to read.");
            }
            if (!scope.merged().isEmpty()) {
                // Engines order and drop the merged columns of USING and NATURAL joins differently (SQLite keeps the
                // left one in place, PostgreSQL and MySQL put it first): outputs would not line up with the result.
                throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "SELECT * over a USING or NATURAL join is not"
                        + " supported, since engines order its columns differently; list the columns, or use t.*.");
            }
            for (Source<Deriv> source : scope.sources()) {
                outputs.addAll(source.columns());
            }
            return;
        }
        Deriv d = expression(e, scope);
        String name = item.getAlias() != null ? plain(item.getAlias().getName())
                : e instanceof net.sf.jsqlparser.schema.Column c ? plain(c.getColumnName()) : e.toString();
        if (item.getAlias() != null) {
            seen.add(item.getAlias());
        }
        outputs.add(new Col<>(name, d));
    }

    // ---- FROM ----------------------------------------------------------------------------------------------------

    private List<Source<Deriv>> fromItem(FromItem item, Scope<Deriv> scope) {
        seen.add(item);
        if (item instanceof net.sf.jsqlparser.schema.Table table) {
            return List.of(table(table, scope));
        }
        if (item instanceof ParenthesedSelect sub) {
            // A derived table sees the levels around this one (and, when LATERAL, the FROM items before it).
            List<Col<Deriv>> columns = bindSelect(sub.getSelect(), scope);
            shapeOrderBy(sub.getOrderByElements(), scope, columns);
            String alias = sub.getAlias() == null ? "" : plain(sub.getAlias().getName());
            return List.of(new Source<>(alias, null, rename(columns, aliasColumns(sub.getAlias()))));
        }
        if (item instanceof ParenthesedFromItem group) {
            if (group.getAlias() != null) {
                throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                        "An alias on a parenthesised join is not supported; alias the tables inside it instead.");
            }
            Scope<Deriv> inner = Scope.inside(scope.parent(), MODE);
            scope.ctesInto(inner);
            inner.sources().addAll(fromItem(group.getFromItem(), inner));
            if (group.getJoins() != null) {
                for (Join join : group.getJoins()) {
                    join(join, inner);
                }
            }
            scope.merged().addAll(inner.merged());
            return inner.sources();
        }
        if (item instanceof TableFunction function) {
            throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "The table function "
                    + function.getFunction().getName() + " is not allowed; read catalog tables only.");
        }
        if (item instanceof Values values) {
            List<Col<Deriv>> columns = bindValues(values, scope);
            String alias = values.getAlias() == null ? "" : plain(values.getAlias().getName());
            return List.of(new Source<>(alias, null, rename(columns, aliasColumns(values.getAlias()))));
        }
        throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                "This FROM item (" + item.getClass().getSimpleName() + ") is not supported; read tables or subqueries.");
    }

    private List<String> aliasColumns(Alias alias) {
        if (alias == null || alias.getAliasColumns() == null) {
            return null;
        }
        seen.add(alias);
        return alias.getAliasColumns().stream().map(c -> {
            seen.add(c);
            return unquote(c.name);
        }).toList();
    }

    private Source<Deriv> table(net.sf.jsqlparser.schema.Table table, Scope<Deriv> scope) {
        seen.add(table);
        String name = plain(table.getName());
        String schema = plain(table.getSchemaName());
        if (plain(table.getDatabaseName()) != null && !plain(table.getDatabaseName()).isEmpty() && schema != null) {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The three-part name " + table.getFullyQualifiedName()
                    + " reaches another database; name tables as schema.table.");
        }
        if (table.getName() != null && (table.getName().startsWith("'") || table.getName().contains("'"))) {
            // DuckDB reads FROM 'file.csv' (and SQLite and MySQL a quoted name) as a file or an odd table: never.
            throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "FROM " + table.getName()
                    + " names a file or a quoted string, not a catalog table; read catalog tables only.");
        }
        if (table.getTimeTravel() != null || table.getTimeTravelStrAfterAlias() != null) {
            // JSqlParser keeps the clause as raw text no check reads (SLEEP, LOAD_FILE and subqueries pass through it),
            // and MariaDB's FOR SYSTEM_TIME reads rows deleted since, which row filters and erasure do not expect.
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "A time-travel clause (FOR SYSTEM_TIME, AT, BEFORE,"
                    + " VERSION AS OF) on " + table.getFullyQualifiedName() + " reads other rows than the current"
                    + " ones; remove it.");
        }
        String alias = table.getAlias() != null ? plain(table.getAlias().getName()) : name;
        if (table.getAlias() != null) {
            seen.add(table.getAlias());
        }
        if (isSystem(schema, name)) {
            throw refuse(Refusal.Reason.SYSTEM_CATALOG, "The table " + table.getFullyQualifiedName()
                    + " is part of the engine's own catalog; query the database's tables instead.");
        }
        if (schema == null) {
            List<Col<Deriv>> cte = scope.cte(name);
            if (cte != null) {
                return new Source<>(alias, null, rename(cte, aliasColumns(table.getAlias())));
            }
        }
        Table found = lookupTable(schema, name, table.getFullyQualifiedName());
        if (found.kind() == TableKind.VIEW
                || found.kind() == TableKind.MATERIALIZED_VIEW) {
            // The catalog keeps no view's definition, so its columns' lineage, tags and the row filters of the tables
            // it reads are unknown: a view could show a tagged column under an innocent name.
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The table " + found.name() + " is a view, whose"
                    + " definition SchemaBrain does not read, so what its columns show is unknown; query the tables it"
                    + " reads instead.");
        }
        tables.add(found.name());
        bound.put(table, found.name());
        List<Col<Deriv>> columns = new ArrayList<>();
        for (Column c : found.columns()) {
            columns.add(new Col<>(c.name(), Deriv.of(new ColumnRef(found.name(), c.name()))));
        }
        return new Source<>(alias, found.name(), rename(columns, aliasColumns(table.getAlias())));
    }

    private boolean isSystem(String schema, String name) {
        if (schema != null && (rules.systemSchemas().contains(schema.toLowerCase(Locale.ROOT))
                || SqlRules.SYSTEM_SCHEMAS_ANYWHERE.contains(schema.toLowerCase(Locale.ROOT)))) {
            return true;
        }
        String n = name.toLowerCase(Locale.ROOT);
        boolean known = catalog.tables().stream().anyMatch(t -> t.name().table().equalsIgnoreCase(name));
        return !known && (n.startsWith("pg_") || n.startsWith("sqlite_") || n.startsWith("duckdb_")
                || n.equals("information_schema"));
    }

    private Table lookupTable(String schema, String name, String written) {
        List<Table> matches = new ArrayList<>();
        for (boolean exact : new boolean[] {true, false}) {
            for (Table t : catalog.tables()) {
                boolean nameMatches = exact ? t.name().table().equals(name) : t.name().table().equalsIgnoreCase(name);
                boolean schemaMatches = schema == null
                        || (exact ? t.name().schema().equals(schema) : t.name().schema().equalsIgnoreCase(schema));
                if (nameMatches && schemaMatches) {
                    matches.add(t);
                }
            }
            if (!matches.isEmpty()) {
                break;
            }
        }
        if (matches.isEmpty()) {
            List<Fuzzy.Candidate> candidates = catalog.tables().stream()
                    .map(t -> new Fuzzy.Candidate(t.name().toString(), List.of(t.name().toString(), t.name().table())))
                    .toList();
            List<String> near = Fuzzy.over(candidates).best(schema == null ? name : schema + "." + name, Fuzzy.DEFAULT_LIMIT);
            throw new Refused(new Refusal(Refusal.Reason.UNKNOWN_NAME, "The catalog has no table " + written
                    + (near.isEmpty() ? "; list the tables to find the right one." : "; did you mean " + String.join(", ", near) + "?"),
                    near));
        }
        if (matches.size() > 1) {
            List<Table> preferred = matches.stream()
                    .filter(t -> Set.of("public", "main", "dbo").contains(t.name().schema())).toList();
            if (preferred.size() == 1) {
                return preferred.get(0);
            }
            throw new Refused(new Refusal(Refusal.Reason.AMBIGUOUS_NAME, "The table " + written
                    + " exists in several schemas; qualify it as schema.table.",
                    matches.stream().map(t -> t.name().toString()).toList()));
        }
        return matches.get(0);
    }

    private void join(Join join, Scope<Deriv> scope) {
        seen.add(join);
        List<Source<Deriv>> right = fromItem(join.getRightItem(), scope);
        List<Source<Deriv>> left = List.copyOf(scope.sources());
        scope.sources().addAll(right);
        if (join.getOnExpressions() != null) {
            for (Expression on : join.getOnExpressions()) {
                filter(on, scope);
            }
        }
        if (join.getUsingColumns() != null) {
            for (net.sf.jsqlparser.schema.Column c : join.getUsingColumns()) {
                seen.add(c);
                String name = plain(c.getColumnName());
                boolean inLeft = usingSide(left, name);
                boolean inRight = usingSide(right, name);
                if (!inLeft || !inRight) {
                    throw unknown("column " + name + " in USING", name, columnNames(scope));
                }
                scope.merged().add(name.toLowerCase(Locale.ROOT));
            }
        }
        if (join.isNatural()) {
            for (Source<Deriv> r : right) {
                for (Col<Deriv> rc : r.columns()) {
                    for (Source<Deriv> l : left) {
                        for (Col<Deriv> lc : l.columns()) {
                            if (lc.name().equalsIgnoreCase(rc.name())) {
                                filters.addAll(lc.value().all());
                                filters.addAll(rc.value().all());
                                scope.merged().add(rc.name().toLowerCase(Locale.ROOT));
                            }
                        }
                    }
                }
            }
        }
    }

    /** Whether {@code sources} have a column {@code name}; its sources become filter columns. */
    private boolean usingSide(List<Source<Deriv>> sources, String name) {
        boolean found = false;
        for (Source<Deriv> s : sources) {
            for (Col<Deriv> rc : s.columns()) {
                if (rc.name().equalsIgnoreCase(name)) {
                    filters.addAll(rc.value().all());
                    found = true;
                }
            }
        }
        return found;
    }

    // ---- expressions ---------------------------------------------------------------------------------------------

    private void filter(Expression e, Scope<Deriv> scope) {
        if (e != null) {
            filters.addAll(expression(e, scope).all());
        }
    }

    private void shape(Expression e, Scope<Deriv> scope) {
        if (e != null) {
            shaping.addAll(expression(e, scope).all());
        }
    }

    private void shapeOrderBy(List<OrderByElement> elements, Scope<Deriv> scope, List<Col<Deriv>> outputs) {
        if (elements == null) {
            return;
        }
        Scope<Deriv> withOutputs = scope;
        if (scope == null || scope.outputs() != outputs) {
            withOutputs = Scope.inside(scope, MODE);
            withOutputs.outputs(outputs);
            // A set operation's ORDER BY names its output columns, as if they were a table.
            withOutputs.sources().add(new Source<>("", null, outputs));
        }
        for (OrderByElement o : elements) {
            seen.add(o);
            shape(o.getExpression(), withOutputs);
        }
    }

    Deriv expression(Expression e, Scope<Deriv> scope) {
        Walker walker = new Walker(scope);
        e.accept(walker, null);
        return walker.deriv;
    }

    private List<String> columnNames(Scope<Deriv> scope) {
        List<String> names = new ArrayList<>();
        for (Scope<Deriv> s = scope; s != null; s = s.parent()) {
            for (Source<Deriv> source : s.sources()) {
                for (Col<Deriv> c : source.columns()) {
                    names.add(source.alias().isEmpty() ? c.name() : source.alias() + "." + c.name());
                }
            }
        }
        return names;
    }

    private static Refused unknown(String what, String written, List<String> candidates) {
        // A qualified candidate (alias.column) is also known by its bare column name.
        List<Fuzzy.Candidate> keyed = candidates.stream().distinct().map(c -> new Fuzzy.Candidate(c,
                c.contains(".") ? List.of(c, c.substring(c.lastIndexOf('.') + 1)) : List.of(c))).toList();
        List<String> near = Fuzzy.over(keyed).best(written, Fuzzy.DEFAULT_LIMIT);
        return new Refused(new Refusal(Refusal.Reason.UNKNOWN_NAME, "The query names " + what
                + ", which is not there" + (near.isEmpty() ? "; check the table's columns." : "; did you mean "
                + String.join(", ", near) + "?"), near));
    }

    /** The derivation of a column reference, or null when it names nothing (a double-quoted string, perhaps). */
    private Deriv column(net.sf.jsqlparser.schema.Column column, Scope<Deriv> scope) {
        seen.add(column);
        String name = plain(column.getColumnName());
        net.sf.jsqlparser.schema.Table qualifier = column.getTable();
        if (qualifier != null && qualifier.getName() != null) {
            seen.add(qualifier);
            Source<Deriv> source = scope.source(plain(qualifier.getName()), plain(qualifier.getSchemaName()));
            if (source == null) {
                throw unknown("table or alias " + qualifier.getFullyQualifiedName(), plain(qualifier.getName()),
                        allAliases(scope));
            }
            Col<Deriv> found = scope.find(source.columns(), name);
            if (found == null) {
                throw unknown("column " + column.getFullyQualifiedName(), name,
                        source.columns().stream().map(Col::name).toList());
            }
            return found.value();
        }
        Scope.Match<Deriv> match = scope.unqualified(name);
        if (match != null) {
            List<Col<Deriv>> matches = match.matches();
            Col<Deriv> output = match.output();
            if (matches.size() == 1) {
                if (output != null && output.value() != matches.get(0).value()) {
                    // ORDER BY prefers an output alias in PostgreSQL, GROUP BY the input column: count both.
                    Deriv both = new Deriv();
                    both.add(matches.get(0).value());
                    both.add(output.value());
                    return both;
                }
                return matches.get(0).value();
            }
            if (matches.size() > 1) {
                if (match.level().merged().contains(name.toLowerCase(Locale.ROOT))) {
                    Deriv d = new Deriv();
                    matches.forEach(m -> d.add(m.value()));
                    return d;
                }
                throw refuse(Refusal.Reason.AMBIGUOUS_NAME, "The column " + name
                        + " is in more than one table of the query; qualify it as table.column.");
            }
            return output.value();
        }
        if (rules.wholeRowReferences()) {
            // PostgreSQL and DuckDB read a bare name that is no column but a FROM item's name as its whole row
            // (c::text, row_to_json-like casts): every column of the row is shown.
            Source<Deriv> whole = scope.source(name, null);
            if (whole != null) {
                Deriv d = new Deriv();
                whole.columns().forEach(rc -> d.add(rc.value()));
                return d;
            }
        }
        String written = column.getColumnName();
        if (rules.doubleQuotedStrings() && written.startsWith("\"")) {
            return null;   // what SQLite and MySQL read as a string literal
        }
        if (written.equalsIgnoreCase("true") || written.equalsIgnoreCase("false")) {
            return null;
        }
        throw unknown("column " + column.getFullyQualifiedName(), name, columnNames(scope));
    }

    private static List<String> allAliases(Scope<Deriv> scope) {
        List<String> names = new ArrayList<>();
        for (Scope<Deriv> s = scope; s != null; s = s.parent()) {
            s.sources().forEach(source -> names.add(source.alias()));
        }
        return names;
    }

    /**
     * A name as the engine reads it: one pair of double quotes, back quotes or brackets taken off, a doubled quote
     * inside read as one; a plain word as written. JSqlParser's own unquoting drops a bracket or quote at either end
     * on its own, which the engine does not, so what was bound and what runs could differ.
     */
    static String plain(String written) {
        if (written == null || written.length() < 2) {
            return written;
        }
        char first = written.charAt(0);
        char last = written.charAt(written.length() - 1);
        String inner = written.substring(1, written.length() - 1);
        if (first == '"' && last == '"') {
            return inner.replace("\"\"", "\"");
        }
        if (first == '`' && last == '`') {
            return inner.replace("``", "`");
        }
        if (first == '[' && last == ']') {
            return inner;
        }
        return written;
    }

    private static String unquote(String name) {
        if (name.length() >= 2 && (name.charAt(0) == '"' || name.charAt(0) == '`')
                && name.charAt(name.length() - 1) == name.charAt(0)) {
            return name.substring(1, name.length() - 1);
        }
        return name;
    }

    /** Walks one expression, adding every column it reads to {@link #deriv} and checking every call. */
    private final class Walker extends ExpressionVisitorAdapter<Void> {
        final Scope<Deriv> scope;
        final Deriv deriv = new Deriv();

        Walker(Scope<Deriv> scope) {
            this.scope = scope;
        }

        /**
         * A subquery's value: its lineage counts, but an aggregate inside it is computed per outer row (a correlated
         * count), so it does not make the outer expression an aggregate.
         */
        private void subquery(Deriv inner) {
            boolean aggregate = deriv.aggregate;
            deriv.add(inner);
            deriv.aggregate = aggregate;
        }

        private Deriv sub(Expression e) {
            return e == null ? new Deriv() : expression(e, scope);
        }

        @Override
        public <S> Void visit(net.sf.jsqlparser.schema.Column column, S context) {
            Deriv d = column(column, scope);
            if (d != null) {
                deriv.add(d);
            }
            return null;
        }

        @Override
        public <S> Void visit(Function function, S context) {
            seen.add(function);
            checkCall(function.getMultipartName(), function.getName());
            Deriv args = new Deriv();
            if (function.getParameters() != null) {
                seen.add(function.getParameters());
                for (Object p : function.getParameters()) {
                    args.add(sub((Expression) p));
                }
            }
            if (function.getNamedParameters() != null || function.getKeep() != null
                    || function.getAttribute() != null || function.getChainedParameters() != null) {
                throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The call to " + function.getName()
                        + " uses a form the checker cannot follow; call it with plain arguments.");
            }
            if (function.getParameters() != null && Functions.aggregate(function.getName()) != Functions.Aggregate.NONE) {
                for (Object p : function.getParameters()) {
                    predicatesInAggregate((Expression) p);
                }
            }
            if (function.getOrderByElements() != null) {
                for (OrderByElement o : function.getOrderByElements()) {
                    seen.add(o);
                    Deriv order = sub(o.getExpression());
                    shaping.addAll(order.all());
                    args.addAsDerived(order);
                }
            }
            merge(function.getName(), args);
            return null;
        }

        /**
         * A condition inside an aggregate's argument (CASE WHEN, a comparison, LIKE, IN, BETWEEN, IS NULL) decides
         * which rows count: it filters as WHERE does, but inside one group, where the small-group rule cannot see it.
         * Its columns are filters, and kept apart so the gate can refuse one that picks out a person.
         */
        private void predicatesInAggregate(Expression arg) {
            if (arg == null) {
                return;
            }
            for (Object node : AstCensus.nodesOutsideQueries(arg)) {
                Expression predicate = node instanceof WhenClause when ? when.getWhenExpression()
                        : node instanceof ComparisonOperator
                        || node instanceof LikeExpression
                        || node instanceof InExpression
                        || node instanceof Between
                        || node instanceof IsNullExpression
                        || node instanceof IsBooleanExpression
                        || node instanceof SimilarToExpression
                        || node instanceof RegExpMatchOperator
                        ? (Expression) node : null;
                if (predicate != null) {
                    Set<ColumnRef> read = expression(predicate, scope).all();
                    filters.addAll(read);
                    aggregatePredicates.addAll(read);
                }
            }
        }

        private void merge(String name, Deriv args) {
            switch (Functions.aggregate(name)) {
                case COUNTING -> {
                    deriv.addAsDerived(args);
                    deriv.aggregate = true;
                }
                case VALUE -> {
                    deriv.add(args);
                    deriv.aggregate = true;
                }
                case NONE -> deriv.add(args);
            }
        }

        private void checkCall(List<String> parts, String name) {
            if (parts != null && parts.size() > 1) {
                throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "The function " + String.join(".", parts)
                        + " is schema-qualified; call allowed functions by their plain name.");
            }
            if (name == null || !Functions.allowed(rules, unquote(name))) {
                throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "The function " + name + " is not on the "
                        + rules.title() + " allow-list (aggregates, math, string and date"
                        + " functions); rewrite the query without it.");
            }
        }

        @Override
        public <S> Void visit(AnalyticExpression analytic, S context) {
            seen.add(analytic);
            String name = analytic.getName();
            checkCall(List.of(name), name);
            if (analytic.getKeep() != null || analytic.getWindowDefinition() != null
                    && analytic.getWindowDefinition().getWindowName() != null) {
                throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "This window form is not supported; write the"
                        + " window (PARTITION BY ... ORDER BY ...) in the OVER clause or as WINDOW w AS (...).");
            }
            Deriv window = new Deriv();
            if (analytic.getWindowName() != null) {
                Deriv named = null;
                for (Scope<Deriv> s = scope; s != null && named == null; s = s.parent()) {
                    named = s.windows().get(analytic.getWindowName().toLowerCase(Locale.ROOT));
                }
                if (named == null) {
                    throw unknown("window " + analytic.getWindowName(), analytic.getWindowName(), List.copyOf(scope.windows().keySet()));
                }
                window.add(named);
            }
            Deriv args = new Deriv();
            args.add(sub(analytic.getExpression()));
            args.add(sub(analytic.getOffset()));
            args.add(sub(analytic.getDefaultValue()));
            if (analytic.getPartitionExpressionList() != null) {
                seen.add(analytic.getPartitionExpressionList());
                for (Object p : analytic.getPartitionExpressionList()) {
                    window.add(sub((Expression) p));
                }
            }
            List<OrderByElement> orders = new ArrayList<>();
            if (analytic.getOrderByElements() != null) {
                orders.addAll(analytic.getOrderByElements());
            }
            if (analytic.getFuncOrderBy() != null) {
                orders.addAll(analytic.getFuncOrderBy());
            }
            for (OrderByElement o : orders) {
                seen.add(o);
                window.add(sub(o.getExpression()));
            }
            if (analytic.getWindowDefinition() != null) {
                seen.add(analytic.getWindowDefinition());
            }
            if (analytic.getWindowElement() != null) {
                seen.add(analytic.getWindowElement());
            }
            shaping.addAll(window.all());
            if (analytic.getFilterExpression() != null) {
                Set<ColumnRef> read = sub(analytic.getFilterExpression()).all();
                filters.addAll(read);
                aggregatePredicates.addAll(read);
            }
            if (Functions.aggregate(name) != Functions.Aggregate.NONE) {
                predicatesInAggregate(analytic.getExpression());
            }
            String n = name.toLowerCase(Locale.ROOT);
            if (Functions.VALUE_WINDOWS.contains(n)) {
                deriv.add(args);
            } else if (Functions.RANKING_WINDOWS.contains(n)) {
                deriv.addAsDerived(window);
                deriv.addAsDerived(args);
                deriv.aggregate = true;
            } else {
                merge(name, args);
                deriv.aggregate = true;
            }
            return null;
        }

        @Override
        public <S> Void visit(CaseExpression expr, S context) {
            seen.add(expr);
            deriv.addAsDerived(sub(expr.getSwitchExpression()));
            for (WhenClause when : expr.getWhenClauses()) {
                seen.add(when);
                deriv.addAsDerived(sub(when.getWhenExpression()));
                deriv.add(sub(when.getThenExpression()));
            }
            deriv.add(sub(expr.getElseExpression()));
            return null;
        }

        @Override
        public <S> Void visit(CastExpression cast, S context) {
            seen.add(cast);
            String type = cast.getColDataType() == null ? null : cast.getColDataType().getDataType();
            if (type == null || !Functions.castAllowed(unquote(type))) {
                throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "A cast to " + type + " is not allowed; cast to a"
                        + " plain data type (integer, numeric, text, date, timestamp, boolean).");
            }
            deriv.add(sub(cast.getLeftExpression()));
            return null;
        }

        @Override
        public <S> Void visit(ParenthesedSelect select, S context) {
            seen.add(select);
            for (Col<Deriv> c : bindSelect(select.getSelect(), scope)) {
                subquery(c.value());
            }
            shapeOrderBy(select.getOrderByElements(), scope, List.of());
            return null;
        }

        @Override
        public <S> Void visit(Select select, S context) {
            for (Col<Deriv> c : bindSelect(select, scope)) {
                subquery(c.value());
            }
            return null;
        }

        /**
         * JSqlParser reads a bare YEAR, MONTH, DAY ... as a date unit, but in a value position every engine reads a
         * column of that name: resolved as one when the scope has it, a unit keyword (TIMESTAMPDIFF(DAY, ...)) when not.
         */
        @Override
        public <S> Void visit(DateUnitExpression unit, S context) {
            seen.add(unit);
            bareName(unit.toString());
            return null;
        }

        /**
         * SQLite reads TRUE and FALSE as a column when the table has one of that name; the column's lineage is
         * added for every engine, since attributing too much is safe and too little is not.
         */
        @Override
        public <S> Void visit(BooleanValue value, S context) {
            bareName(value.toString());
            return null;
        }

        /** The column a keyword-like word names when the scope has one, else nothing (it is then the keyword). */
        private void bareName(String word) {
            try {
                Deriv d = column(new net.sf.jsqlparser.schema.Column(word), scope);
                if (d != null) {
                    deriv.add(d);
                }
            } catch (Refused refused) {
                if (refused.refusal.reason() != Refusal.Reason.UNKNOWN_NAME) {
                    throw refused;
                }
            }
        }

        @Override
        public <S> Void visit(TimeKeyExpression key, S context) {
            seen.add(key);
            bareName(key.getStringValue());
            String k = key.getStringValue().toUpperCase(Locale.ROOT).replace("()", "").strip();
            if (!TIME_KEYS.contains(k)) {
                throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, key.getStringValue()
                        + " is not allowed; of the special values only CURRENT_DATE and CURRENT_TIMESTAMP are.");
            }
            return null;
        }

        @Override
        public <S> Void visit(AllColumns all, S context) {
            seen.add(all);
            return null;
        }

        @Override
        public <S> Void visit(AllTableColumns all, S context) {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "table.* is only allowed as a select item.");
        }

        @Override
        public <S> Void visit(UserVariable variable, S context) {
            throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "Variables (" + variable
                    + ") are not allowed; write the value into the query.");
        }

        @Override
        public <S> Void visit(VariableAssignment assignment, S context) {
            throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "Assigning a variable is not allowed in a query.");
        }

        @Override
        public <S> Void visit(NextValExpression next, S context) {
            throw refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "NEXT VALUE FOR changes a sequence; it is not allowed.");
        }

        @Override
        public <S> Void visit(JdbcParameter parameter, S context) {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "Parameters (?) cannot be bound here; write the value.");
        }

        @Override
        public <S> Void visit(JdbcNamedParameter parameter, S context) {
            throw refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "Named parameters cannot be bound here; write the value.");
        }
    }

}
