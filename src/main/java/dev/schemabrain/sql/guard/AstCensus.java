package dev.schemabrain.sql.guard;

import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.UserVariable;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.ForMode;
import net.sf.jsqlparser.statement.select.ForUpdateClause;
import net.sf.jsqlparser.statement.select.MySqlProcedureAnalyse;
import net.sf.jsqlparser.statement.select.MySqlSelectIntoClause;
import net.sf.jsqlparser.statement.select.Select;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A second, independent look at the parsed statement: every node reachable by reflection, whatever the binder's
 * visitor knows about. A column, call, table or query the binder did not see means lineage could be missing, so
 * the statement is refused; DML, locking or INTO anywhere in the tree is refused by kind. This is what keeps the
 * binder closed by default when JSqlParser grows a node type it has not been taught.
 */
final class AstCensus {

    private AstCensus() {
    }

    /** A node class's fields: those that may hold nodes (to walk), and those that may hold text (to screen). */
    private record Fields(List<Field> nodes, List<Field> texts) {
    }

    private static final ClassValue<Fields> FIELDS = new ClassValue<>() {
        @Override
        protected Fields computeValue(Class<?> type) {
            List<Field> nodes = new ArrayList<>();
            List<Field> texts = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (!c.getName().startsWith("net.sf.jsqlparser.")) {
                    continue;
                }
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                        continue;
                    }
                    f.setAccessible(true);
                    boolean text = f.getType() == String.class;
                    if (!text) {
                        nodes.add(f);
                    }
                    if (text || Collection.class.isAssignableFrom(f.getType()) || f.getType() == String[].class) {
                        texts.add(f);
                    }
                }
            }
            return new Fields(List.copyOf(nodes), List.copyOf(texts));
        }
    };

    static void check(Statement root, Set<Object> seen) {
        for (Object node : nodes(root)) {
            inspect(node, seen);
        }
    }

    /** Every JSqlParser node reachable from {@code root} through fields, collections, maps and arrays, each once. */
    static List<Object> nodes(Object root) {
        return nodes(root, false);
    }

    /** The nodes of an expression, not entering the queries inside it (they have scopes of their own). */
    static List<Object> nodesOutsideQueries(Object root) {
        return nodes(root, true);
    }

    private static List<Object> nodes(Object root, boolean stopAtQueries) {
        List<Object> nodes = new ArrayList<>();
        Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Object node = todo.pop();
            if (node == null || !visited.add(node)) {
                continue;
            }
            if (node instanceof Collection<?> collection) {
                collection.forEach(o -> push(todo, o));
                continue;
            }
            if (node instanceof Map<?, ?> map) {
                map.keySet().forEach(o -> push(todo, o));
                map.values().forEach(o -> push(todo, o));
                continue;
            }
            if (node.getClass().isArray()) {
                if (!node.getClass().getComponentType().isPrimitive()) {
                    for (int i = 0; i < Array.getLength(node); i++) {
                        push(todo, Array.get(node, i));
                    }
                }
                continue;
            }
            String type = node.getClass().getName();
            if (!type.startsWith("net.sf.jsqlparser.") || type.startsWith("net.sf.jsqlparser.parser.")) {
                continue;
            }
            nodes.add(node);
            if (node.getClass().isEnum() || stopAtQueries && node instanceof Select) {
                continue;
            }
            for (Field f : FIELDS.get(node.getClass()).nodes()) {
                push(todo, read(f, node));
            }
        }
        return nodes;
    }

    /** The texts a node holds itself: its String fields and the strings of its collections and arrays. */
    static List<String> texts(Object node) {
        List<String> texts = new ArrayList<>();
        if (node.getClass().isEnum()) {
            return texts;
        }
        for (Field f : FIELDS.get(node.getClass()).texts()) {
            Object value = read(f, node);
            if (value instanceof String s) {
                texts.add(s);
            } else if (value instanceof Collection<?> c) {
                c.forEach(o -> {
                    if (o instanceof String s) {
                        texts.add(s);
                    }
                });
            } else if (value instanceof String[] array) {
                texts.addAll(Arrays.asList(array));
            }
        }
        return texts;
    }

    private static Object read(Field f, Object node) {
        try {
            return f.get(node);
        } catch (IllegalAccessException e) {
            throw Binder.refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT,
                    "The statement could not be inspected in full; simplify it.");
        }
    }


    private static void push(Deque<Object> todo, Object o) {
        if (o != null) {
            todo.push(o);
        }
    }

    private static void inspect(Object node, Set<Object> seen) {
        if (node instanceof Statement && !(node instanceof Select)) {
            String p = node.getClass().getPackageName();
            boolean dml = p.endsWith(".insert") || p.endsWith(".update") || p.endsWith(".delete")
                    || p.endsWith(".merge") || p.endsWith(".upsert") || p.endsWith(".replace");
            throw Binder.refuse(dml ? Refusal.Reason.DML_IN_STATEMENT : Refusal.Reason.NOT_A_SINGLE_SELECT,
                    dml ? "The statement holds INSERT, UPDATE, DELETE or MERGE; only reading is allowed."
                            : "The statement holds something other than a SELECT; send one SELECT.");
        }
        if (node instanceof ForUpdateClause || node instanceof ForMode) {
            throw Binder.refuse(Refusal.Reason.LOCKING_CLAUSE, Prescreen.lockingClause().message());
        }
        if (node instanceof MySqlSelectIntoClause) {
            throw Binder.refuse(Refusal.Reason.INTO_OUTFILE,
                    "SELECT ... INTO writes the result into a file or variable; remove the INTO clause.");
        }
        if (node instanceof MySqlProcedureAnalyse) {
            // MariaDB still runs it: the rows become each output's minimum, maximum and common values, unseen by lineage.
            throw Binder.refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED, "PROCEDURE ANALYSE replaces the result with"
                    + " statistics of its columns' values; remove the PROCEDURE clause.");
        }
        if (node instanceof UserVariable || node instanceof VariableAssignment || node instanceof NextValExpression) {
            throw Binder.refuse(Refusal.Reason.FUNCTION_NOT_ALLOWED,
                    "Variables and sequences are not allowed in a query; write the value instead.");
        }
        if (node instanceof JdbcParameter || node instanceof JdbcNamedParameter) {
            throw Binder.refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "Parameters cannot be bound here; write the value.");
        }
        boolean mustBeSeen = node instanceof Column || node instanceof Function
                || node instanceof AnalyticExpression || node instanceof Table
                || node instanceof Select;
        if (mustBeSeen && !seen.contains(node)) {
            throw Binder.refuse(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The checker could not follow "
                    + describe(node) + " where it stands in the query, so its lineage is unknown; rewrite that part"
                    + " with plain columns, functions and subqueries.");
        }
    }

    private static String describe(Object node) {
        String text = node.toString();
        if (text.length() > 60) {
            text = text.substring(0, 57) + "...";
        }
        return node.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + text;
    }
}
