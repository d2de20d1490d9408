package dev.schemabrain.gate;

import dev.schemabrain.access.Access;
import dev.schemabrain.access.BoundRowFilter;
import dev.schemabrain.access.RowFilter;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mining.SqlNormalizer;
import dev.schemabrain.pii.MetricPiiCheck;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;
import dev.schemabrain.semantic.compile.SubjectGraph;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.sql.guard.BoundSelect;
import dev.schemabrain.sql.guard.ColumnRef;
import dev.schemabrain.sql.guard.GuardResult;
import dev.schemabrain.sql.guard.OutputColumn;
import dev.schemabrain.sql.guard.Refusal;
import dev.schemabrain.sql.guard.SqlRules;
import dev.schemabrain.sql.guard.SqlGuard;
import dev.schemabrain.sql.guard.WrittenSql;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Everything between a caller's SQL text and the statement that may run, shared by validate_query and
 * execute: the guard's parse and bind, the caller's allow-list and row filters, the disclosure rules over each
 * column's lineage, small-cell suppression by distinct people per group, and the rewrite. Either a {@link Plan} or
 * the refusal envelope; nothing here touches the source.
 *
 * <p>The disclosure rules, stricter than get_metric's where lineage cannot tell two uses apart:
 * <ul>
 * <li>a column on the block list anywhere (output, filter, grouping, ordering, even counted) refuses;</li>
 * <li>a tagged column among an output's {@code values} refuses, whatever the alias, function, cast, CASE,
 *     window or aggregate (min, max, string_agg return an input);</li>
 * <li>a tagged column that shapes a row-level output (a CASE oracle, length(email)) refuses; inside an aggregate
 *     a direct identifier refuses too (a count of CASE WHEN email LIKE ... is the range oracle), other tags are
 *     counted or summed as get_metric's measures are;</li>
 * <li>a tagged column in WHERE, HAVING, ON or a filter's subquery refuses (the text does not say whether it is
 *     an equality or a range test, so the strictest rule applies), and so does one in GROUP BY, ORDER BY or
 *     PARTITION BY;</li>
 * <li>a query that lists rows (no GROUP BY, not all aggregates, or a window) of a table whose rows are about
 *     people (a person entity, or a fact whose subject is one) refuses: each row is a group of one;</li>
 * <li>an aggregate over such rows runs with {@code HAVING count(DISTINCT subject) >= K} ANDed in, so groups of
 *     fewer than K people are left out (not listed), an ungrouped total included; when the subject key is not
 *     on a table of the top-level FROM (or passed on by a CTE or subquery there), it refuses and points at
 *     get_metric.</li>
 * </ul>
 */
public final class SqlGate {

    private final SqlRules engine;
    private final int serverMinGroupSize;

    /**
     * @param engine             the rules of the engine that reads the text
     * @param serverMinGroupSize the server's K (a role may raise it, never lower it)
     */
    public SqlGate(SqlRules engine, int serverMinGroupSize) {
        this.engine = engine;
        this.serverMinGroupSize = serverMinGroupSize;
    }

    /** The decision for {@code sql} from {@code access}'s caller in {@code served}, its rows cut at {@code limit}. */
    public SqlDecision check(String tool, String sql, ServedCatalog served, Access access, int limit) {
        try {
            return new Check(tool, served, access, limit).run(sql);
        } catch (Stop stop) {
            return stop.refused;
        }
    }

    /** A step's refusal: the check ends there and the gate answers it. */
    private static final class Stop extends RuntimeException {
        private final Refused refused;

        Stop(Refused refused) {
            super(null, null, false, false);
            this.refused = refused;
        }
    }

    /** The row filters that apply to a statement, and the labels the audit row names. */
    private record RowFilters(List<SqlRewrite.TableFilter> filters, List<String> applied) {
    }

    /** The small-group rule for a statement: a HAVING per level where rows become groups, and the K shown. */
    private record SmallGroups(List<SqlRewrite.Grouping> groupings, java.util.OptionalInt shownK) {
    }

    /** The statement that runs, and for each grouping the count of the groups it leaves out. */
    private record Written(SqlRewrite.Rewritten statement, List<SqlRewrite.Rewritten> suppressedCount) {
    }

    /** One statement's check, step by step; each step returns what the next needs or throws the refusal. */
    private final class Check {
        private final String tool;
        private final ServedCatalog served;
        private final Access access;
        private final int limit;
        private final UnaryOperator<String> quote = engine::quote;
        private final Map<String, QualifiedName> entityTables = new java.util.HashMap<>();

        Check(String tool, ServedCatalog served, Access access, int limit) {
            this.tool = tool;
            this.served = served;
            this.access = access;
            this.limit = limit;
            served.whole().semantic().entities().forEach(e -> entityTables.put(e.name(), e.table()));
        }

        SqlDecision run(String sql) {
            if (access.denial().isPresent()) {
                throw new Stop(refused(ErrorKind.ALLOWLIST_VIOLATION, "This caller reaches no tables: "
                        + access.denial().get() + "; use a credential with a role.", null, null));
            }
            BoundSelect bound = bind(sql);
            allowed(bound);
            RowFilters rowFilters = rowFilters(bound);
            piiRefusal(bound, served).ifPresent(r -> {
                throw new Stop(r);
            });
            bound.unrendered().ifPresent(r -> {
                throw new Stop(guardRefusal(tool, r));
            });
            SmallGroups groups = smallGroups(bound);
            Written written = rewrite(bound, rowFilters, groups);
            readable(written, bound);
            String fingerprint = SqlNormalizer.fingerprint(SqlNormalizer.normalize(written.statement().sql(),
                    engine.lexical(), name -> true));
            return new SqlDecision.Plan(bound, written.statement().sql(), written.statement().params(), categories(bound),
                    groups.shownK(), rowFilters.applied(), fingerprint, List.copyOf(written.suppressedCount()));
        }

        /** The guard's parse and bind; a qualified name outside the role is refused by name, whether or not it exists. */
        private BoundSelect bind(String sql) {
            GuardResult checked = SqlGuard.check(sql, engine, served.catalog());
            if (checked instanceof Refusal r) {
                Optional<QualifiedName> named = r.reason() == Refusal.Reason.UNKNOWN_NAME && access.restricted()
                        ? hiddenByQualifiedName(sql, engine, served, access) : Optional.empty();
                if (named.isPresent()) {
                    throw new Stop(refused(ErrorKind.ALLOWLIST_VIOLATION, "The query reads " + named.get() + ", which"
                            + " this caller's role does not allow; query only the tables find_relevant_tables shows.",
                            null, access.wideningHint(named.get())));
                }
                throw new Stop(guardRefusal(tool, r));
            }
            return (BoundSelect) checked;
        }

        private void allowed(BoundSelect bound) {
            for (QualifiedName t : bound.tables()) {
                if (!access.sees(t)) {
                    throw new Stop(refused(ErrorKind.ALLOWLIST_VIOLATION, "The query reads " + t + ", which this"
                            + " caller's role does not allow; query only the tables find_relevant_tables shows.", null,
                            access.wideningHint(t)));
                }
            }
        }

        /**
         * Row filters of the tables read: a missing claim refuses, the others become subselects. A table whose rows
         * belong to a filtered entity (invoices of a customer) is limited too: its subselect keeps the rows whose
         * foreign keys lead, hop by hop, to a kept row of the entity's table.
         */
        private RowFilters rowFilters(BoundSelect bound) {
            Set<QualifiedName> belonging = belonging(bound);
            for (RowFilter missing : access.missingClaims()) {
                QualifiedName t = entityTables.get(missing.entity());
                if (t == null || bound.tables().contains(t)) {
                    throw new Stop(refused(ErrorKind.POLICY_BLOCKED, "The query reads " + (t == null ? missing.entity()
                            : t) + ", whose rows this role filters by the claim " + missing.claim() + ", and the"
                            + " credential has no such claim; use a credential that carries it.", null, null));
                }
            }
            List<SqlRewrite.TableFilter> filters = new ArrayList<>();
            List<String> applied = new ArrayList<>();
            Set<QualifiedName> covered = new java.util.HashSet<>();
            for (BoundRowFilter f : access.rowFilters()) {
                QualifiedName t = entityTables.get(f.filter().entity());
                if (t == null) {
                    throw new Stop(refused(ErrorKind.POLICY_BLOCKED, "The role filters rows of an entity the semantic"
                            + " layer does not have, so no query can be checked; ask the operator to fix the access"
                            + " policy.", null, null));
                }
                if (!bound.tables().contains(t) && belonging.isEmpty()) {
                    continue;
                }
                String col = f.filter().column().substring(f.filter().column().indexOf('.') + 1);
                List<Object> typed = typed(served, t, col, f.values()).orElseThrow(() -> new Stop(refused(
                        ErrorKind.POLICY_BLOCKED, "The credential's claim " + f.filter().claim() + " is not a value"
                                + " of " + t + "." + col + "'s type, so its row filter cannot apply; use a credential"
                                + " whose claim matches the column.", null, null)));
                boolean used = bound.tables().contains(t);
                if (used) {
                    filters.add(new SqlRewrite.TableFilter(t, col, typed));
                }
                for (QualifiedName b : belonging) {
                    Chain chain = chain(served.whole().catalog(), b, t);
                    // A table of the chain hidden from the role would be named in the SQL validate_query shows.
                    if (chain.ambiguous() || chain.hops() != null
                            && chain.hops().stream().anyMatch(h -> !access.sees(h.target()))) {
                        throw new Stop(belongingRefusal(b));
                    }
                    if (chain.hops() != null) {
                        filters.add(new SqlRewrite.TableFilter(b, col, typed, chain.hops()));
                        covered.add(b);
                        used = true;
                    }
                }
                if (used) {
                    applied.add(f.filter().entity() + "." + col);
                }
            }
            for (QualifiedName b : belonging) {
                if (!covered.contains(b)) {
                    // Limited through the semantic layer's joins, with no foreign key chain a subselect could follow.
                    throw new Stop(belongingRefusal(b));
                }
            }
            return new RowFilters(filters, applied);
        }

        /** The tables read whose rows belong to a filtered entity other than their own. */
        private Set<QualifiedName> belonging(BoundSelect bound) {
            Set<QualifiedName> own = new java.util.HashSet<>();
            access.rowFilters().forEach(f -> Optional.ofNullable(entityTables.get(f.filter().entity())).ifPresent(own::add));
            access.missingClaims().forEach(f -> Optional.ofNullable(entityTables.get(f.entity())).ifPresent(own::add));
            Set<QualifiedName> belonging = new java.util.LinkedHashSet<>();
            if (access.restricted() && (!access.rowFilters().isEmpty() || !access.missingClaims().isEmpty())) {
                Set<QualifiedName> limited = served.whole().rowFiltered(access);
                for (QualifiedName t : bound.tables()) {
                    if (limited.contains(t) && !own.contains(t)) {
                        if (!access.missingClaims().isEmpty()) {
                            throw new Stop(belongingRefusal(t));
                        }
                        belonging.add(t);
                    }
                }
            }
            return belonging;
        }

        /**
         * Where the rows about people become groups, and the HAVING that leaves out a group of fewer than K of them:
         * the statement itself, or the grouped CTEs and subqueries its rows are read from (a running total over
         * monthly sums, a ratio of two grouped CTEs).
         */
        private SmallGroups smallGroups(BoundSelect bound) {
            int k = access.minGroupSize().orElse(serverMinGroupSize);
            List<QualifiedName> people = bound.tables().stream().filter(t -> aboutPeople(t, served)).toList();
            Set<ColumnRef> personKeys = bound.aggregatePredicates().isEmpty() ? Set.of() : personKeys(served);
            Optional<ColumnRef> picking = bound.aggregatePredicates().stream().filter(personKeys::contains).findFirst();
            if (picking.isPresent() && k > 1) {
                throw new Stop(refused(ErrorKind.PII_BLOCKED, "The query tests " + picking.get() + ", which identifies"
                        + " a person, inside an aggregate (CASE WHEN, FILTER or a comparison), so one group's number"
                        + " could be one person's; filter in WHERE instead, where groups about fewer than " + k
                        + " people are left out.", null, null));
            }
            if (people.isEmpty()) {
                return new SmallGroups(List.of(), java.util.OptionalInt.empty());
            }
            // An aggregate that can count its people at the top is ruled there (patients by how many prescriptions
            // each has, over a per-patient CTE); one that cannot (the average month) where its sources group.
            List<Level> levels;
            Optional<List<Level>> grouped = groupedSources(bound.ast(), served);
            boolean aggregated = aggregated(bound);
            Subjects top = aggregated ? subjectKeys((PlainSelect) bound.ast(), served, quote) : null;
            boolean topCounts = aggregated && !top.keys().isEmpty() && top.uncounted().isEmpty();
            if (aggregated && (topCounts || grouped.isEmpty())) {
                levels = List.of(new Level(null, null, -1, (PlainSelect) bound.ast()));
            } else if (grouped.isEmpty()) {
                QualifiedName t = people.get(0);
                throw new Stop(refused(ErrorKind.PII_BLOCKED, "The query lists rows of " + t + ", and each row is"
                        + " about one person; ask for an aggregate instead (GROUP BY, or a grouped CTE the query"
                        + " reads).", listingRewrite(bound, served).orElse(aggregateRewrite(served, t, quote)), null));
            } else {
                levels = grouped.get();
            }
            if (k <= 1) {
                return new SmallGroups(List.of(), java.util.OptionalInt.empty());
            }
            List<SqlRewrite.Grouping> groupings = new ArrayList<>();
            for (Level level : levels) {
                Subjects subjects = top != null && level.plain() == bound.ast() ? top
                        : subjectKeys(level.plain(), served, quote);
                if (subjects.keys().isEmpty() || subjects.uncounted().isPresent()) {
                    QualifiedName t = subjects.uncounted().orElse(people.get(0));
                    throw new Stop(refused(ErrorKind.PII_BLOCKED, "The query aggregates rows about people (" + t
                            + "), but the people in each group cannot be counted from the FROM where it groups, so"
                            + " small groups could not be left out; use get_metric, or join the person's table"
                            + " there.", null, null));
                }
                // Every person the rows are about is counted: a group passes only if each kind of person in it
                // (both sides of a self-join, the customer and the employee of a sale) numbers at least k.
                groupings.add(new SqlRewrite.Grouping(level.cte(), level.derived(), level.branch(), subjects.joins(),
                        String.join(" AND ", subjects.keys().stream()
                                .map(key -> "count(DISTINCT " + key + ") >= " + k).toList())));
            }
            return new SmallGroups(groupings, java.util.OptionalInt.of(k));
        }

        private Written rewrite(BoundSelect bound, RowFilters rowFilters, SmallGroups groups) {
            List<SqlRewrite.TableFilter> filters = rowFilters.filters();
            List<SqlRewrite.Grouping> groupings = groups.groupings();
            try {
                String text = bound.ast().toString();
                SqlRewrite.Rewritten rewritten = filters.isEmpty() && groupings.isEmpty()
                        ? SqlRewrite.limited(bound.ast(), limit)
                        : SqlRewrite.rewrite(text, quote, filters, groupings, limit);
                List<SqlRewrite.Rewritten> suppressedCount = new ArrayList<>();
                for (SqlRewrite.Grouping g : groupings) {
                    // The same statement keeping only the groups the rule leaves out, counted: how many were withheld.
                    suppressedCount.add(SqlRewrite.leftOut(text, quote, filters, groupings, g));
                }
                return new Written(rewritten, suppressedCount);
            } catch (SqlRewrite.Unsafe e) {
                throw new Stop(refused(ErrorKind.POLICY_BLOCKED, "The query could not be rewritten to apply this"
                        + " caller's row filters or the small-group rule (" + e.getMessage() + "); reference each table"
                        + " directly in FROM or JOIN.", "SELECT ... FROM table AS t JOIN other AS o ON ... (no table"
                        + " references outside FROM and JOIN)", null));
            }
        }

        /** What runs is what was checked: the engine's lexer must read our text as we wrote it. */
        private void readable(Written written, BoundSelect bound) {
            List<Optional<Refusal>> unreadable = new ArrayList<>();
            unreadable.add(WrittenSql.check(written.statement().sql(), engine, bound.literals()));
            written.suppressedCount().forEach(c -> unreadable.add(WrittenSql.checkPart(c.sql(), engine, bound.literals())));
            for (Optional<Refusal> r : unreadable) {
                if (r.isPresent()) {
                    throw new Stop(guardRefusal(tool, r.get()));
                }
            }
        }

        /** The PII categories the outputs carry, by lineage. */
        private List<String> categories(BoundSelect bound) {
            Set<PiiCategory> propagated = EnumSet.noneOf(PiiCategory.class);
            for (OutputColumn o : bound.outputs()) {
                o.lineage().forEach(c -> propagated.addAll(served.pii().tag(c.table(), c.column()).categories()));
            }
            return propagated.stream().sorted().map(PiiCategory::wireName).toList();
        }
    }

    /** Claim values in the column's type (the engine compares an integer with text only in SQLite); empty if one is not. */
    private static Optional<List<Object>> typed(ServedCatalog served, QualifiedName table, String column, List<String> values) {
        String type = served.catalog().table(table).flatMap(t -> t.column(column)).map(Column::dataType).orElse("")
                .toLowerCase(java.util.Locale.ROOT);
        List<Object> out = new ArrayList<>();
        try {
            for (String v : values) {
                if (type.contains("int") || type.equals("serial") || type.equals("bigserial")) {
                    out.add(Long.parseLong(v.strip()));
                } else if (type.contains("numeric") || type.contains("decimal") || type.contains("real")
                        || type.contains("double") || type.contains("float")) {
                    out.add(new java.math.BigDecimal(v.strip()));
                } else {
                    out.add(v);
                }
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.of(out);
    }

    /** A level where rows become groups: the top ({@code cte} and {@code derived} null), a WITH item or a subquery. */
    private record Level(String cte, String derived, int branch, PlainSelect plain) {
    }

    /**
     * The grouped CTEs and top-level FROM subqueries a statement that lists rows reads, when its rows are all groups:
     * each top-level FROM item is such a level or a table whose rows are about no one. Empty otherwise.
     */
    private static Optional<List<Level>> groupedSources(net.sf.jsqlparser.statement.select.Select ast,
                                                        ServedCatalog served) {
        if (ast instanceof net.sf.jsqlparser.statement.select.SetOperationList set) {
            // UNION ALL of aggregates (this month's count beside last month's): each branch is a level of its own.
            boolean all = set.getOperations().stream().allMatch(op -> op instanceof net.sf.jsqlparser.statement.select
                    .UnionOp union && union.isAll());
            List<Level> branches = new ArrayList<>();
            for (int i = 0; all && i < set.getSelects().size(); i++) {
                if (!(set.getSelects().get(i) instanceof PlainSelect branch) || !grouping(branch)) {
                    return Optional.empty();
                }
                branches.add(new Level(null, null, i, branch));
            }
            return all ? Optional.of(branches) : Optional.empty();
        }
        if (!(ast instanceof PlainSelect top) || top.getFromItem() == null) {
            return Optional.empty();
        }
        List<FromItem> items = new ArrayList<>();
        items.add(top.getFromItem());
        if (top.getJoins() != null) {
            top.getJoins().stream().map(Join::getFromItem).forEach(items::add);
        }
        List<Level> levels = new ArrayList<>();
        for (FromItem item : items) {
            if (item instanceof Table t) {
                Optional<net.sf.jsqlparser.statement.select.WithItem<?>> cte = cte(top, t);
                if (cte.isPresent()) {
                    if (!(cte.get().getSelect().getSelect() instanceof PlainSelect body) || body.getGroupBy() == null) {
                        return Optional.empty();
                    }
                    String name = cte.get().getAlias().getName();
                    if (levels.stream().noneMatch(l -> name.equals(l.cte()))) {
                        levels.add(new Level(name, null, -1, body));
                    }
                } else if (aboutPeople(SqlRewrite.unquote(t.getName()), served)) {
                    return Optional.empty();
                }
            } else if (item instanceof net.sf.jsqlparser.statement.select.ParenthesedSelect sub && sub.getAlias() != null
                    && sub.getSelect() instanceof PlainSelect body && body.getGroupBy() != null) {
                levels.add(new Level(null, sub.getAlias().getName(), -1, body));
            } else {
                return Optional.empty();
            }
        }
        return levels.isEmpty() ? Optional.empty() : Optional.of(levels);
    }

    /** Whether a branch answers with groups: GROUP BY, or only plain aggregate calls (an ungrouped total). */
    private static boolean grouping(PlainSelect branch) {
        if (branch.getGroupBy() != null) {
            return true;
        }
        return branch.getSelectItems().stream().allMatch(item -> item.getExpression() instanceof
                net.sf.jsqlparser.expression.Function f && f.getName() != null
                && Set.of("count", "sum", "avg", "min", "max", "total").contains(f.getName().toLowerCase(java.util.Locale.ROOT))
                && !windowed(f));
    }

    /** Whether an expression holds a window function (OVER), outside the subqueries in it. */
    private static boolean windowed(net.sf.jsqlparser.expression.Expression e) {
        boolean[] found = {false};
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(net.sf.jsqlparser.expression.AnalyticExpression a, S context) {
                found[0] |= a.getType() != net.sf.jsqlparser.expression.AnalyticType.FILTER_ONLY;
                return super.visit(a, context);
            }
        }, null);
        return found[0];
    }

    /** Whether the statement answers with groups (GROUP BY, or only aggregates) rather than rows. */
    static boolean aggregated(BoundSelect bound) {
        if (!(bound.ast() instanceof PlainSelect plain)) {
            return false;
        }
        if (plain.getGroupBy() != null) {
            return true;   // a window over grouped rows (a running total by month) still answers one row per group
        }
        for (SelectItem<?> item : plain.getSelectItems()) {
            if (windowed(item.getExpression())) {
                return false;   // a window keeps one row per input row
            }
        }
        return plain.getGroupBy() != null || bound.outputs().stream().allMatch(OutputColumn::aggregate);
    }

    private static Optional<SubjectGraph.Path> subjectOf(ServedCatalog served, QualifiedName table) {
        for (Entity e : served.semantic().entities()) {
            if (e.table().equals(table)) {
                Optional<SubjectGraph.Path> p = served.subjectGraph().subjectOf(e.name());
                if (p.isPresent()) {
                    return p;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The people a grouped statement's rows are about: one {@code alias.key} per top-level FROM item whose rows carry
     * a person's key (a person entity by its identity, a fact by its key one hop away, a CTE or subquery over such a
     * table that selects the key), and for a fact whose person is further away, the key reached through LEFT JOINs
     * SchemaBrain adds along the many-to-one path (each to a unique key, so no row is repeated or dropped).
     * {@code uncounted} names a top-level table about people whose people could not be reached.
     */
    record Subjects(List<String> keys, List<String> joins, Optional<QualifiedName> uncounted) {
    }

    private static Subjects subjectKeys(PlainSelect plain, ServedCatalog served, UnaryOperator<String> quote) {
        List<FromItem> items = new ArrayList<>();
        items.add(plain.getFromItem());
        if (plain.getJoins() != null) {
            plain.getJoins().stream().map(Join::getFromItem).forEach(items::add);
        }
        List<String> keys = new ArrayList<>();
        List<String> joins = new ArrayList<>();
        Optional<QualifiedName> uncounted = Optional.empty();
        for (FromItem item : items) {
            Optional<String> column = Optional.empty();
            String alias = item == null || item.getAlias() == null ? null : item.getAlias().getName();
            if (item instanceof Table t) {
                alias = alias != null ? alias : t.getName();
                Optional<net.sf.jsqlparser.statement.select.WithItem<?>> cte = cte(plain, t);
                if (cte.isPresent()) {
                    column = keyThrough(cte.get().getSelect().getSelect(), served);
                } else {
                    String table = SqlRewrite.unquote(t.getName());
                    column = keyOf(table, served).map(quote);
                    if (column.isEmpty() && aboutPeople(table, served)) {
                        Optional<String> joined = pathKey(table, alias, served, quote, joins);
                        if (joined.isPresent()) {
                            keys.add(joined.get());
                        } else {
                            uncounted = uncounted.or(() -> tableNamed(table, served));
                        }
                        continue;
                    }
                }
            } else if (item instanceof net.sf.jsqlparser.statement.select.ParenthesedSelect sub && alias != null) {
                column = keyThrough(sub.getSelect(), served);
            }
            if (column.isPresent() && alias != null && !keys.contains(alias + "." + column.get())) {
                keys.add(alias + "." + column.get());
            }
        }
        return new Subjects(List.copyOf(keys), List.copyOf(joins), uncounted);
    }

    private static boolean aboutPeople(String table, ServedCatalog served) {
        return tableNamed(table, served).filter(q -> aboutPeople(q, served)).isPresent();
    }

    /** Whether a table's rows are about people: through the semantic layer's subject path, or its own foreign key. */
    private static boolean aboutPeople(QualifiedName table, ServedCatalog served) {
        return subjectOf(served, table).isPresent() || foreignPersonKey(table, served).isPresent();
    }

    private static Optional<QualifiedName> tableNamed(String table, ServedCatalog served) {
        return served.catalog().tables().stream().map(dev.schemabrain.catalog.Table::name)
                .filter(q -> q.table().equalsIgnoreCase(table)).findFirst();
    }

    /**
     * For a table the semantic layer has no entity for (a purchase or visit history without a primary key), the
     * column of its own single-column foreign key onto a person entity's identity: its rows are that person's.
     */
    private static Optional<String> foreignPersonKey(QualifiedName table, ServedCatalog served) {
        if (served.semantic().entities().stream().anyMatch(e -> e.table().equals(table))) {
            return Optional.empty();
        }
        List<dev.schemabrain.catalog.ForeignKey> fks = served.catalog().table(table)
                .map(dev.schemabrain.catalog.Table::foreignKeys).orElse(List.of());
        for (dev.schemabrain.catalog.ForeignKey fk : fks) {
            if (fk.columns().size() != 1) {
                continue;
            }
            for (Entity e : served.semantic().entities()) {
                Optional<SubjectGraph.Path> p = served.subjectGraph().subjectOf(e.name());
                if (e.table().equals(fk.target()) && p.isPresent() && p.get().hops().isEmpty()
                        && e.identity().equals(fk.targetColumns())) {
                    return Optional.of(fk.columns().get(0));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The person's key of a fact two or more many-to-one steps from its person, reached through LEFT JOINs added to
     * {@code joins} (aliases {@code sb_pN}); empty when a step is not one column onto a unique key of its target.
     */
    private static Optional<String> pathKey(String table, String alias, ServedCatalog served, UnaryOperator<String> quote,
                                            List<String> joins) {
        for (Entity e : served.semantic().entities()) {
            if (!e.table().table().equalsIgnoreCase(table)) {
                continue;
            }
            Optional<SubjectGraph.Path> path = served.subjectGraph().subjectOf(e.name());
            if (path.isEmpty() || path.get().hops().size() < 2) {
                continue;
            }
            List<String> added = new ArrayList<>();
            List<SubjectGraph.Hop> hops = path.get().hops();
            if (hops.get(0).on().size() != 1 || hops.get(hops.size() - 1).on().size() != 1) {
                return Optional.empty();
            }
            String from = alias + "." + quote.apply(hops.get(0).on().get(0).source());
            for (int i = 0; i < hops.size() - 1; i++) {
                SubjectGraph.Hop hop = hops.get(i);
                SubjectGraph.Hop onward = hops.get(i + 1);
                Optional<Entity> target = served.semantic().entities().stream()
                        .filter(x -> x.name().equals(hop.to())).findFirst();
                if (hop.on().size() != 1 || onward.on().size() != 1 || target.isEmpty()
                        || !served.catalog().table(target.get().table())
                        .map(t -> t.isUnique(List.of(hop.on().get(0).target()))).orElse(false)) {
                    return Optional.empty();
                }
                // A subquery that shows only the step's two columns, under names of ours: the caller's unqualified
                // column names cannot become ambiguous with the joined table's.
                String next = "sb_p" + (joins.size() + added.size() + 1);
                added.add("LEFT JOIN (SELECT " + quote.apply(hop.on().get(0).target()) + " AS sb_k, "
                        + quote.apply(onward.on().get(0).source()) + " AS sb_v FROM "
                        + quote.apply(target.get().table().schema()) + "." + quote.apply(target.get().table().table())
                        + ") " + next + " ON " + next + ".sb_k = " + from);
                from = next + ".sb_v";
            }
            joins.addAll(added);
            return Optional.of(from);
        }
        return Optional.empty();
    }

    /** The columns that identify a person: a person entity's identity, and each fact's key one step from its person. */
    private static Set<ColumnRef> personKeys(ServedCatalog served) {
        Set<ColumnRef> keys = new java.util.HashSet<>();
        for (Entity e : served.semantic().entities()) {
            Optional<SubjectGraph.Path> p = served.subjectGraph().subjectOf(e.name());
            if (p.isEmpty()) {
                continue;
            }
            if (p.get().hops().isEmpty()) {
                e.identity().forEach(c -> keys.add(new ColumnRef(e.table(), c)));
            } else {
                keys.add(new ColumnRef(e.table(), p.get().hops().get(0).keyColumn()));
            }
        }
        for (dev.schemabrain.catalog.Table t : served.catalog().tables()) {
            foreignPersonKey(t.name(), served).ifPresent(c -> keys.add(new ColumnRef(t.name(), c)));
        }
        return keys;
    }

    private static Optional<net.sf.jsqlparser.statement.select.WithItem<?>> cte(PlainSelect plain, Table t) {
        if (plain.getWithItemsList() == null || t.getSchemaName() != null) {
            return Optional.empty();
        }
        String name = SqlRewrite.unquote(t.getName());
        return plain.getWithItemsList().stream()
                .filter(w -> w.getAlias() != null && SqlRewrite.unquote(w.getAlias().getName()).equalsIgnoreCase(name)
                        && (w.getWithItemList() == null || w.getWithItemList().isEmpty()))
                .<net.sf.jsqlparser.statement.select.WithItem<?>>map(w -> w).findFirst();
    }

    /** The output name under which a plain SELECT over a person-keyed table passes the key on, as written. */
    private static Optional<String> keyThrough(net.sf.jsqlparser.statement.select.Select inner, ServedCatalog served) {
        if (!(inner instanceof PlainSelect p) || !(p.getFromItem() instanceof Table t) || p.getJoins() != null
                && !p.getJoins().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> key = keyOf(SqlRewrite.unquote(t.getName()), served);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        for (SelectItem<?> item : p.getSelectItems()) {
            if (item.getExpression() instanceof net.sf.jsqlparser.statement.select.AllColumns) {
                return Optional.of(key.get());
            }
            if (item.getExpression() instanceof net.sf.jsqlparser.schema.Column c
                    && SqlRewrite.unquote(c.getColumnName()).equalsIgnoreCase(key.get())) {
                return Optional.of(item.getAlias() != null ? item.getAlias().getName() : c.getColumnName());
            }
        }
        return Optional.empty();
    }

    /** The column of {@code table}'s rows that names their person: its identity, or its key one hop away. */
    private static Optional<String> keyOf(String table, ServedCatalog served) {
        for (Entity e : served.semantic().entities()) {
            if (!e.table().table().equalsIgnoreCase(table)) {
                continue;
            }
            Optional<SubjectGraph.Path> p = served.subjectGraph().subjectOf(e.name());
            if (p.isPresent() && p.get().hops().isEmpty() && e.identity().size() == 1) {
                return Optional.of(e.identity().get(0));
            }
            if (p.isPresent() && p.get().hops().size() == 1) {
                return Optional.of(p.get().hops().get(0).keyColumn());
            }
        }
        return tableNamed(table, served).flatMap(q -> foreignPersonKey(q, served));
    }

    /** The first column whose lineage meets a disclosure rule, as a pii_blocked refusal. */
    private static Optional<Refused> piiRefusal(BoundSelect bound, ServedCatalog served) {
        Set<PiiCategory> blockList = served.blockList().categories();
        for (OutputColumn o : bound.outputs()) {
            for (ColumnRef c : o.lineage()) {
                PiiTag tag = served.pii().tag(c.table(), c.column());
                if (!tag.blockedBy(blockList).isEmpty()) {
                    return Optional.of(pii(served, c, tag.blockedBy(blockList), "output " + o.name() + " reads " + c
                            + ", and this server blocks " + names(tag.blockedBy(blockList))));
                }
            }
            for (ColumnRef c : o.values()) {
                PiiTag tag = served.pii().tag(c.table(), c.column());
                if (tag.tagged()) {
                    return Optional.of(pii(served, c, tag.categories(), "output " + o.name() + " would show values of "
                            + c + ", a column tagged " + names(tag.categories())));
                }
            }
            for (ColumnRef c : o.derived()) {
                PiiTag tag = served.pii().tag(c.table(), c.column());
                Set<PiiCategory> hit = o.aggregate() ? tag.blockedBy(MetricPiiCheck.DIRECT_IDENTIFIERS) : tag.categories();
                if (!hit.isEmpty()) {
                    return Optional.of(pii(served, c, hit, "output " + o.name() + " is computed from " + c
                            + ", a column tagged " + names(hit) + ", and could reveal it row by row"));
                }
            }
        }
        for (ColumnRef c : bound.filters()) {
            PiiTag tag = served.pii().tag(c.table(), c.column());
            if (tag.tagged()) {
                return Optional.of(pii(served, c, tag.categories(), "it filters or joins on " + c + ", a column tagged "
                        + names(tag.categories()) + ", and repeated tests recover a personal value"));
            }
        }
        for (ColumnRef c : bound.shaping()) {
            PiiTag tag = served.pii().tag(c.table(), c.column());
            if (tag.tagged()) {
                return Optional.of(pii(served, c, tag.categories(), "it groups or orders by " + c + ", a column tagged "
                        + names(tag.categories()) + ", and each group or position would expose a personal value"));
            }
        }
        return Optional.empty();
    }

    private static String names(Set<PiiCategory> categories) {
        return String.join(", ", new TreeSet<>(categories.stream().map(PiiCategory::wireName).toList()));
    }

    private static Refused pii(ServedCatalog served, ColumnRef c, Set<PiiCategory> categories, String why) {
        return new Refused(ErrorKind.PII_BLOCKED, "Refused: " + why + "; ask for an aggregate that leaves the column"
                + " out.", "describe_table", Map.of("qualified_name", c.table().toString()), List.of(),
                aggregateRewrite(served, c.table(), SqlGate::ansi), null,
                categories.stream().map(PiiCategory::wireName).sorted().toList(), List.of("describe_table", "list_metrics"));
    }

    private static String ansi(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** An aggregate instead of a list: count(*) by the table's first untagged, non-key column. */
    /**
     * The caller's listing asked as an aggregate, so the suggestion answers the same question: the same FROM and
     * WHERE, each shown number summed, each other shown column (not a key, not tagged) a group, and a count of rows.
     * Empty when the statement is not one plain SELECT of plain columns, or nothing would be left to group or sum.
     */
    private static Optional<String> listingRewrite(BoundSelect bound, ServedCatalog served) {
        if (!(bound.ast() instanceof PlainSelect listing) || listing.getWithItemsList() != null) {
            return Optional.empty();
        }
        PlainSelect plain;
        try {
            plain = (PlainSelect) dev.schemabrain.sql.guard.Parsing.statement(listing.toString());
        } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException e) {
            return Optional.empty();
        }
        Set<ColumnRef> keys = personKeys(served);
        List<String> groups = new ArrayList<>();
        List<String> sums = new ArrayList<>();
        for (int i = 0; i < plain.getSelectItems().size() && i < bound.outputs().size(); i++) {
            OutputColumn out = bound.outputs().get(i);
            if (!(plain.getSelectItems().get(i).getExpression() instanceof net.sf.jsqlparser.schema.Column column)
                    || out.values().size() != 1) {
                return Optional.empty();
            }
            ColumnRef source = out.values().first();
            Optional<Column> c = served.catalog().table(source.table()).flatMap(t -> t.column(source.column()));
            boolean key = keys.contains(source) || served.catalog().table(source.table())
                    .map(t -> t.isPrimaryKey(source.column()) || t.foreignKeys().stream()
                            .anyMatch(fk -> fk.columns().contains(source.column()))).orElse(false);
            if (c.isEmpty() || key || served.pii().tag(source.table(), source.column()).tagged()) {
                continue;
            }
            if (dev.schemabrain.catalog.TypeClass.of(c.get()) == dev.schemabrain.catalog.TypeClass.NUMBER) {
                sums.add("sum(" + column + ") AS " + column.getColumnName());
            } else {
                groups.add(column.toString());
            }
        }
        if (groups.isEmpty() && sums.isEmpty()) {
            return Optional.empty();
        }
        List<String> items = new ArrayList<>(groups);
        items.add("count(*) AS n");
        items.addAll(sums);
        String from = plain.getFromItem() + (plain.getJoins() == null ? "" : " " + plain.getJoins().stream()
                .map(Object::toString).collect(java.util.stream.Collectors.joining(" ")));
        return Optional.of("SELECT " + String.join(", ", items) + " FROM " + from
                + (plain.getWhere() == null ? "" : " WHERE " + plain.getWhere())
                + (groups.isEmpty() ? "" : " GROUP BY " + String.join(", ", groups)));
    }

    public static String aggregateRewrite(ServedCatalog served, QualifiedName table, UnaryOperator<String> quote) {
        String from = quote.apply(table.schema()) + "." + quote.apply(table.table());
        Optional<String> by = served.catalog().table(table).flatMap(t -> t.columns().stream()
                .filter(c -> !t.isPrimaryKey(c.name()) && !served.pii().tag(table, c.name()).tagged())
                .filter(c -> !c.name().toLowerCase(java.util.Locale.ROOT).endsWith("id"))
                .map(Column::name).findFirst());
        return by.map(c -> "SELECT " + quote.apply(c) + ", count(*) FROM " + from + " GROUP BY " + quote.apply(c))
                .orElse("SELECT count(*) FROM " + from) + " (or get_metric with a metric from list_metrics)";
    }

    private static Refused belongingRefusal(QualifiedName t) {
        return refused(ErrorKind.POLICY_BLOCKED, "The query reads " + t + ", whose rows this caller's role limits"
                + " through a row filter on a table they belong to, and no single chain of one-column foreign keys"
                + " leads there; ask with get_metric, which applies it through joins.", null, null);
    }

    /** The many-to-one path from a table to a filtered one: hops when one shortest exists, else none or ambiguous. */
    record Chain(List<SqlRewrite.Hop> hops, boolean ambiguous) {
    }

    /**
     * The shortest foreign-key path from {@code from} to {@code to}. Two shortest paths (through different keys)
     * would each claim the rows, so neither is chosen; a multi-column key on the path cannot be one IN.
     */
    static Chain chain(dev.schemabrain.catalog.Catalog catalog, QualifiedName from, QualifiedName to) {
        Map<QualifiedName, Integer> paths = new java.util.HashMap<>();
        Map<QualifiedName, List<dev.schemabrain.catalog.ForeignKey>> via = new java.util.HashMap<>();
        paths.put(from, 1);
        via.put(from, List.of());
        List<QualifiedName> layer = List.of(from);
        while (!layer.isEmpty() && !paths.containsKey(to)) {
            Map<QualifiedName, Integer> next = new java.util.LinkedHashMap<>();
            Map<QualifiedName, List<dev.schemabrain.catalog.ForeignKey>> nextVia = new java.util.HashMap<>();
            for (QualifiedName q : layer) {
                for (dev.schemabrain.catalog.ForeignKey fk : catalog.table(q).map(dev.schemabrain.catalog.Table::foreignKeys)
                        .orElse(List.of())) {
                    if (paths.containsKey(fk.target())) {
                        continue;   // reached in an earlier layer: a longer path, not another shortest one
                    }
                    next.merge(fk.target(), paths.get(q), (a, b) -> Math.min(2, a + b));
                    List<dev.schemabrain.catalog.ForeignKey> path = new ArrayList<>(via.get(q));
                    path.add(fk);
                    nextVia.putIfAbsent(fk.target(), path);
                }
            }
            paths.putAll(next);
            via.putAll(nextVia);
            layer = List.copyOf(next.keySet());
        }
        if (!paths.containsKey(to)) {
            return new Chain(null, false);
        }
        if (paths.get(to) > 1 || via.get(to).stream().anyMatch(fk -> fk.columns().size() != 1)) {
            return new Chain(null, true);
        }
        return new Chain(via.get(to).stream().map(fk -> new SqlRewrite.Hop(fk.columns().get(0), fk.target(),
                fk.targetColumns().get(0))).toList(), false);
    }

    private static Refused refused(ErrorKind kind, String message, String rewrite, String widening) {
        return new Refused(kind, message, "list_metrics", Map.of(), List.of(), rewrite, widening, List.of(),
                List.of("list_metrics", "find_relevant_tables"));
    }

    /** The guard's reason as an error kind: names and syntax are the caller's to fix, the rest is policy. */
    private static Refused guardRefusal(String tool, Refusal r) {
        String message = r.message() + " (" + r.reason().wireName() + ")";
        return switch (r.reason()) {
            // The next call that works: the closest table described, or a search (its arguments must be valid).
            case UNKNOWN_NAME -> r.suggestions().isEmpty()
                    ? new Refused(ErrorKind.UNKNOWN_NAME, message, "find_relevant_tables", Map.of("query", "*"),
                            List.of(), null, null, List.of(), List.of("find_relevant_tables", "describe_table"))
                    : new Refused(ErrorKind.UNKNOWN_NAME, message, "describe_table",
                            Map.of("qualified_name", r.suggestions().get(0)),
                            r.suggestions().subList(0, Math.min(3, r.suggestions().size())), null, null, List.of(),
                            List.of("find_relevant_tables", "describe_table"));
            case AMBIGUOUS_NAME, SYNTAX_ERROR -> new Refused(ErrorKind.INVALID_ARGUMENT, message, "describe_table",
                    Map.of(), List.of(), null, null, List.of(), List.of("describe_table", "validate_query"));
            default -> new Refused(ErrorKind.POLICY_BLOCKED, message, "list_metrics", Map.of(), List.of(),
                    "one plain SELECT over catalog tables (WITH allowed), or get_metric with a metric from list_metrics",
                    null, List.of(), List.of("list_metrics", "describe_table"));
        };
    }

    /**
     * A {@code schema.table} the query names outside the caller's role: refused by name as describe_table refuses it,
     * whether or not the table exists, so the answer says nothing of what is indexed (a hidden table and a missing one
     * answer alike). A bare name stays unknown_name among the visible tables.
     */
    private static Optional<QualifiedName> hiddenByQualifiedName(String sql, SqlRules engine, ServedCatalog served,
                                                                 Access access) {
        net.sf.jsqlparser.statement.Statement statement;
        try {
            statement = dev.schemabrain.sql.guard.Parsing.statement(sql);
        } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException e) {
            return Optional.empty();
        }
        List<QualifiedName> named = new ArrayList<>();
        new net.sf.jsqlparser.util.TablesNamesFinder<Void>() {
            {
                init(false);
            }

            @Override
            public <S> Void visit(Table table, S context) {
                if (table.getSchemaName() != null && table.getName() != null) {
                    named.add(new QualifiedName(SqlRewrite.unquote(table.getSchemaName()),
                            SqlRewrite.unquote(table.getName())));
                }
                return super.visit(table, context);
            }
        }.getTables(statement);
        return named.stream().filter(q -> !access.sees(q)).findFirst();
    }
}
