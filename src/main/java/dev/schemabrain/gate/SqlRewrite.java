package dev.schemabrain.gate;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.sql.guard.Parsing;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectVisitor;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statement that runs instead of the caller's text: the guard's rendering, re-parsed into a tree
 * of our own, with each reference to a row-filtered table replaced by a filtered subselect under the same alias,
 * a HAVING that leaves out small groups, and the LIMIT. Filter values become bound parameters, never text.
 */
public final class SqlRewrite {

    /**
     * One table's row filter: keep rows whose {@code column} equals one of {@code values}. With a {@code chain},
     * {@code table} is one whose rows belong to the filtered table {@code chain}'s last target through many-to-one
     * foreign keys, and {@code column} is that target's: rows are kept whose key leads, hop by hop, to a kept row.
     */
    public record TableFilter(QualifiedName table, String column, List<Object> values, List<Hop> chain) {
        public TableFilter(QualifiedName table, String column, List<Object> values) {
            this(table, column, values, List.of());
        }

        public TableFilter {
            chain = List.copyOf(chain);
        }
    }

    /** One many-to-one step: the referencing table's {@code column} points at {@code target}'s {@code targetColumn}. */
    public record Hop(String column, QualifiedName target, String targetColumn) {
    }

    /**
     * Where the small-group rule applies and how: the top level ({@code cte} and {@code derived} both null, {@code branch}
     * -1), the body of the top-level WITH item named {@code cte}, the top-level FROM subquery aliased {@code derived}, or
     * the {@code branch}th branch of a top-level UNION ALL; with the
     * LEFT JOINs that reach the people and the condition ANDed into that level's HAVING.
     */
    record Grouping(String cte, String derived, int branch, List<String> joins, String having) {
        Grouping {
            joins = List.copyOf(joins);
        }

        Grouping inverted() {
            return new Grouping(cte, derived, branch, joins, "NOT (" + having + ")");
        }
    }

    /** The SQL to run with its parameters in placeholder order. */
    public record Rewritten(String sql, List<Object> params) {
    }

    /** A rewrite that could not be made safely: the statement must not run. */
    static final class Unsafe extends Exception {
        Unsafe(String message) {
            super(message);
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    private SqlRewrite() {
    }

    /**
     * The statement with row filters, the small-group rule at each {@code groupings} level, and the LIMIT.
     *
     * @param rendered the guard's rendering of the caller's statement
     * @param quote    the engine's identifier quoting
     * @param limit    rows to fetch at most; the statement's own smaller LIMIT is kept
     */
    public static Rewritten rewrite(String rendered, UnaryOperator<String> quote, List<TableFilter> filters,
                             List<Grouping> groupings, int limit) throws Unsafe {
        Prepared p = prepare(rendered, quote, filters, groupings);
        Select select = p.select();
        Limit own = select.getLimit();
        if (own == null) {
            select.setLimit(new Limit().withRowCount(new LongValue(limit + 1L)));
        } else if (own.getRowCount() instanceof LongValue n && n.getValue() > limit + 1L) {
            own.setRowCount(new LongValue(limit + 1L));
        }   // any other LIMIT expression is the statement's own; the executor's row cap still holds
        return p.render(select.toString());
    }

    /**
     * How many groups the small-group rule leaves out at {@code grouping}: the same statement with that level's
     * condition inverted, its groups counted (the level's own rows, before anything above it reads them).
     */
    static Rewritten leftOut(String rendered, UnaryOperator<String> quote, List<TableFilter> filters,
                             List<Grouping> groupings, Grouping grouping) throws Unsafe {
        List<Grouping> inverted = groupings.stream().map(g -> g == grouping ? g.inverted() : g).toList();
        Prepared p = prepare(rendered, quote, filters, inverted);
        if (grouping.cte() == null && grouping.derived() == null && grouping.branch() < 0) {
            return p.render("SELECT count(*) FROM (" + p.select() + ") sb_suppressed");
        }
        if (grouping.branch() >= 0) {
            Select count = parse("SELECT count(*) FROM (" + level(p.select(), grouping) + ") sb_suppressed");
            count.setWithItemsList(p.select().getWithItemsList());
            return p.render(count.toString());
        }
        PlainSelect top = (PlainSelect) p.select();
        String counted = grouping.cte() != null ? "SELECT count(*) FROM " + grouping.cte()
                : "SELECT count(*) FROM (" + level(top, grouping) + ") sb_suppressed";
        Select count = parse(counted);
        if (top.getWithItemsList() != null) {
            count.setWithItemsList(top.getWithItemsList());
        }
        return p.render(count.toString());
    }

    /** A parsed statement with filters and groupings applied, and the filter values its markers stand for. */
    private record Prepared(Select select, String nonce, List<Object> values) {
        Rewritten render(String text) {
            Matcher m = Pattern.compile(":" + nonce + "(\\d+)").matcher(text);
            List<Object> params = new ArrayList<>();
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                params.add(values.get(Integer.parseInt(m.group(1))));
                m.appendReplacement(out, "?");
            }
            m.appendTail(out);
            return new Rewritten(out.toString(), params);
        }
    }

    private static Prepared prepare(String rendered, UnaryOperator<String> quote, List<TableFilter> filters,
                                    List<Grouping> groupings) throws Unsafe {
        // A marker no caller text holds: named parameters carry the filter values' slots through rendering.
        // nextBytes, not generateSeed: the latter reads the kernel's seed source on every call.
        byte[] marker = new byte[6];
        RANDOM.nextBytes(marker);
        String nonce = "sbrf" + HexFormat.of().formatHex(marker) + "_";
        if (rendered.contains(nonce)) {
            throw new Unsafe("marker collision");
        }
        Select select = parse(rendered);
        List<Object> values = new ArrayList<>();
        if (!filters.isEmpty()) {
            new Filtering(filters, quote, nonce, values).apply(select);
        }
        for (Grouping g : groupings) {
            if (!(level(select, g) instanceof PlainSelect plain) || plain.getFromItem() == null) {
                throw new Unsafe("small-cell rule on a set operation");
            }
            if (!g.joins().isEmpty()) {
                Select carrier = parse("SELECT 1 FROM sb_carrier " + String.join(" ", g.joins()));
                List<Join> all = new ArrayList<>(plain.getJoins() == null ? List.of() : plain.getJoins());
                all.addAll(((PlainSelect) carrier).getJoins());
                plain.setJoins(all);
            }
            Expression condition = expression(g.having());
            // The caller's own HAVING in parentheses: "HAVING a OR b AND rule" would let a escape the rule.
            plain.setHaving(plain.getHaving() == null ? condition
                    : new AndExpression(new ParenthesedExpressionList<>(
                            plain.getHaving()), condition));
        }
        return new Prepared(select, nonce, values);
    }

    /** The query a grouping names in {@code select}, or null. */
    private static Select level(Select select, Grouping g) {
        if (g.branch() >= 0) {
            return select instanceof SetOperationList set
                    && g.branch() < set.getSelects().size() ? set.getSelects().get(g.branch()) : null;
        }
        if (g.cte() == null && g.derived() == null) {
            return select;
        }
        if (!(select instanceof PlainSelect top)) {
            return null;
        }
        if (g.cte() != null) {
            if (top.getWithItemsList() == null) {
                return null;
            }
            for (WithItem<?> w : top.getWithItemsList()) {
                if (w.getAlias() != null && unquote(w.getAlias().getName()).equalsIgnoreCase(unquote(g.cte()))) {
                    return w.getSelect() == null ? null : w.getSelect().getSelect();
                }
            }
            return null;
        }
        List<FromItem> items = new ArrayList<>();
        items.add(top.getFromItem());
        if (top.getJoins() != null) {
            top.getJoins().forEach(j -> items.add(j.getFromItem()));
        }
        for (FromItem item : items) {
            if (item instanceof ParenthesedSelect sub && sub.getAlias() != null
                    && unquote(sub.getAlias().getName()).equalsIgnoreCase(unquote(g.derived()))) {
                return sub.getSelect();
            }
        }
        return null;
    }

    /**
     * The common case, no row filter and no small-cell rule: the guard's own tree rendered with the LIMIT, without the
     * re-parse {@link #rewrite} needs for a tree it may change (a parse is 0.5 ms hot and several ms in a session's
     * first calls). The tree is left as it was.
     */
    public static Rewritten limited(Select select, int limit) {
        Limit own = select.getLimit();
        if (own == null) {
            select.setLimit(new Limit().withRowCount(new LongValue(limit + 1L)));
            try {
                return new Rewritten(select.toString(), List.of());
            } finally {
                select.setLimit(null);
            }
        }
        if (own.getRowCount() instanceof LongValue n && n.getValue() > limit + 1L) {
            own.setRowCount(new LongValue(limit + 1L));
            try {
                return new Rewritten(select.toString(), List.of());
            } finally {
                own.setRowCount(n);
            }
        }
        return new Rewritten(select.toString(), List.of());   // the statement's own LIMIT (rewrite keeps it too)
    }

    private static Select parse(String sql) throws Unsafe {
        try {
            if (Parsing.statement(sql) instanceof Select s) {
                return s;
            }
        } catch (JSQLParserException | RuntimeException e) {
            // below
        }
        throw new Unsafe("the rendering did not parse again");
    }

    private static Expression expression(String sql) throws Unsafe {
        try {
            return CCJSqlParserUtil.parseCondExpression(sql);
        } catch (JSQLParserException | RuntimeException e) {
            throw new Unsafe("condition did not parse");
        }
    }

    /** Finds every table reference and replaces the filtered ones where they stand (FROM, JOIN, nested FROM). */
    private static final class Filtering extends TablesNamesFinder<Void> {
        private final List<TableFilter> filters;
        private final UnaryOperator<String> quote;
        private final String nonce;
        private final List<Object> values;
        private final Set<Table> ours = Collections.newSetFromMap(new IdentityHashMap<>());
        private final Set<Table> replaced = Collections.newSetFromMap(new IdentityHashMap<>());
        private final List<Table> missed = new ArrayList<>();

        Filtering(List<TableFilter> filters, UnaryOperator<String> quote, String nonce, List<Object> values) {
            this.filters = filters;
            this.quote = quote;
            this.nonce = nonce;
            this.values = values;
            init(false);
        }

        void apply(Select select) throws Unsafe {
            select.accept((SelectVisitor<Void>) this, null);
            if (!missed.isEmpty()) {
                // A filtered table somewhere the rewrite does not reach: never run it unfiltered.
                throw new Unsafe("a filtered table in an unsupported position");
            }
        }

        @Override
        public <S> Void visit(PlainSelect plain, S context) {
            if (plain.getFromItem() != null) {
                plain.setFromItem(filtered(plain.getFromItem()));
            }
            filterJoins(plain.getJoins());
            return super.visit(plain, context);
        }

        @Override
        public <S> Void visit(ParenthesedFromItem item, S context) {
            item.setFromItem(filtered(item.getFromItem()));
            filterJoins(item.getJoins());
            return super.visit(item, context);
        }

        private void filterJoins(List<Join> joins) {
            if (joins != null) {
                joins.forEach(j -> j.setFromItem(filtered(j.getFromItem())));
            }
        }

        @Override
        public <S> Void visit(Table table, S context) {
            if (!ours.contains(table) && !replaced.contains(table) && filterOf(table) != null) {
                missed.add(table);
            }
            return super.visit(table, context);
        }

        private TableFilter filterOf(Table table) {
            String name = unquote(table.getName());
            for (TableFilter f : filters) {
                if (f.table().table().equalsIgnoreCase(name)) {
                    return f;
                }
            }
            return null;
        }

        private FromItem filtered(FromItem item) {
            if (!(item instanceof Table table) || ours.contains(table)) {
                return item;
            }
            List<TableFilter> mine = filters.stream()
                    .filter(f -> f.table().table().equalsIgnoreCase(unquote(table.getName()))).toList();
            if (mine.isEmpty()) {
                return item;
            }
            replaced.add(table);
            StringBuilder where = new StringBuilder();
            for (TableFilter f : mine) {
                where.append(where.isEmpty() ? "" : " AND ");
                // A chain nests one IN per hop; IN leaves out a NULL key, a row that belongs to no filtered row.
                for (Hop h : f.chain()) {
                    where.append(quote.apply(h.column())).append(" IN (SELECT ").append(quote.apply(h.targetColumn()))
                            .append(" FROM ").append(quote.apply(h.target().schema())).append('.')
                            .append(quote.apply(h.target().table())).append(" WHERE ");
                }
                where.append(quote.apply(f.column())).append(f.values().size() == 1 ? " = " : " IN (");
                for (int i = 0; i < f.values().size(); i++) {
                    where.append(i == 0 ? "" : ", ").append(':').append(nonce).append(values.size());
                    values.add(f.values().get(i));
                }
                where.append(f.values().size() == 1 ? "" : ")").append(")".repeat(f.chain().size()));
            }
            QualifiedName q = mine.get(0).table();
            String sql = "SELECT * FROM " + quote.apply(q.schema()) + "." + quote.apply(q.table()) + " WHERE " + where;
            Select inner;
            try {
                inner = (Select) Parsing.statement(sql);
            } catch (JSQLParserException e) {
                throw new IllegalStateException("a filtered subselect must parse", e);
            }
            // Every table of our subselect, the chain's included, is already filtered: neither rewritten nor missed.
            TablesNamesFinder<Void> collect = new TablesNamesFinder<>() {
                {
                    init(false);
                }

                @Override
                public <S> Void visit(Table t, S context) {
                    ours.add(t);
                    return null;
                }
            };
            inner.accept((SelectVisitor<Void>) collect, null);
            Alias alias = table.getAlias() != null ? table.getAlias() : new Alias(table.getName(), true);
            return new ParenthesedSelect().withSelect(inner).withAlias(alias);
        }
    }

    static String unquote(String name) {
        if (name != null && name.length() >= 2 && (name.startsWith("\"") && name.endsWith("\"")
                || name.startsWith("`") && name.endsWith("`") || name.startsWith("[") && name.endsWith("]"))) {
            return name.substring(1, name.length() - 1);
        }
        return name == null ? "" : name;
    }
}
