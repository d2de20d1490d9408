package dev.schemabrain.sql.scope;

import dev.schemabrain.catalog.QualifiedName;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One query level's names, as SQL resolves them: the FROM items it reads under their aliases, the CTEs it declares,
 * the column names a USING or NATURAL join merged, its named windows, its output columns, and the level around it.
 * A name resolves in the level that declares it, then outwards (correlated subqueries). Each column carries what the
 * caller tracks for it ({@code C}): the gate's lineage, the miner's catalog column. The gate and the query-log miner
 * both bind through this class; they differ only in {@link Mode}: the gate refuses a name it cannot settle, the miner
 * takes the likeliest reading and never throws.
 *
 * @param <C> what the caller knows of each column
 */
public final class Scope<C> {

    /** A column as a level shows it: its name and what the caller tracks for it. */
    public record Col<C>(String name, C value) {
    }

    /**
     * A FROM item under the name the query knows it by: a catalog table ({@link #table()} set) or a derived one.
     * Its columns are null when unknown (the miner does not follow a CTE's or subquery's columns, or a table the
     * catalog lacks), which hides any unqualified name that might be one of them.
     */
    public static final class Source<C> {
        private final String alias;
        private final QualifiedName table;
        private final List<Col<C>> columns;

        public Source(String alias, QualifiedName table, List<Col<C>> columns) {
            this.alias = alias;
            this.table = table;
            this.columns = columns;
        }

        /** A FROM item whose columns are not known. */
        public static <C> Source<C> opaque(String alias, QualifiedName table) {
            return new Source<>(alias, table, null);
        }

        public String alias() {
            return alias;
        }

        public QualifiedName table() {
            return table;
        }

        public List<Col<C>> columns() {
            return columns;
        }

        public boolean opaque() {
            return columns == null;
        }
    }

    /**
     * How a lookup settles a name that matches several columns once case is ignored: the gate refuses (it must not
     * guess what the engine runs), the miner reads it as the engine most likely did (the statement ran).
     */
    public static final class Mode {
        private final Function<String, RuntimeException> caseClash;

        private Mode(Function<String, RuntimeException> caseClash) {
            this.caseClash = caseClash;
        }

        /** Throws {@code refusal}'s exception on a name no lookup can settle. */
        public static Mode strict(Function<String, RuntimeException> refusal) {
            return new Mode(refusal);
        }

        /** Never throws: of columns differing only in case, the lower-case one, else the first. */
        public static final Mode LENIENT = new Mode(null);
    }

    /** Where an unqualified column name resolved: the level, its FROM columns of that name, its output of that name. */
    public record Match<C>(Scope<C> level, List<Col<C>> matches, Col<C> output) {
    }

    private final Mode mode;
    private final Scope<C> parent;
    private final List<Source<C>> sources = new ArrayList<>();
    private final Map<String, List<Col<C>>> ctes = new HashMap<>();
    private final Set<String> merged = new HashSet<>();
    private final Map<String, C> windows = new HashMap<>();
    private List<Col<C>> outputs = List.of();

    private Scope(Mode mode, Scope<C> parent) {
        this.mode = mode;
        this.parent = parent;
    }

    /** A level nested in {@code parent}; the outermost, binding in {@code mode}, when {@code parent} is null. */
    public static <C> Scope<C> inside(Scope<C> parent, Mode mode) {
        return new Scope<>(parent == null ? mode : parent.mode, parent);
    }

    public Scope<C> parent() {
        return parent;
    }

    public List<Source<C>> sources() {
        return sources;
    }

    public Set<String> merged() {
        return merged;
    }

    public Map<String, C> windows() {
        return windows;
    }

    public List<Col<C>> outputs() {
        return outputs;
    }

    public void outputs(List<Col<C>> outputs) {
        this.outputs = outputs;
    }

    /** Declares a CTE; null columns when its columns are not followed. */
    public void cte(String name, List<Col<C>> columns) {
        ctes.put(name.toLowerCase(Locale.ROOT), columns);
    }

    /** Copies this level's CTEs into {@code other} (a parenthesised join sees them). */
    public void ctesInto(Scope<C> other) {
        other.ctes.putAll(ctes);
    }

    /** Whether {@code name} is a CTE declared here or around. */
    public boolean isCte(String name) {
        for (Scope<C> s = this; s != null; s = s.parent) {
            if (s.ctes.containsKey(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** The nearest CTE called {@code name}'s columns; null when there is none or its columns are not followed. */
    public List<Col<C>> cte(String name) {
        for (Scope<C> s = this; s != null; s = s.parent) {
            List<Col<C>> cte = s.ctes.get(name.toLowerCase(Locale.ROOT));
            if (cte != null) {
                return cte;
            }
        }
        return null;
    }

    /**
     * The FROM item a qualifier names, nearest level first: an alias written exactly, else one differing in case;
     * a schema, when written, must be the item's table's. Null when none.
     */
    public Source<C> source(String qualifier, String schema) {
        for (Scope<C> s = this; s != null; s = s.parent) {
            for (boolean exact : new boolean[] {true, false}) {
                for (Source<C> source : s.sources) {
                    boolean aliasMatches = exact ? source.alias().equals(qualifier) : source.alias().equalsIgnoreCase(qualifier);
                    boolean schemaMatches = schema == null || (source.table() != null
                            && source.table().schema().equalsIgnoreCase(schema));
                    if (aliasMatches && schemaMatches) {
                        return source;
                    }
                }
            }
        }
        return null;
    }

    /**
     * Where an unqualified column name resolves: the nearest level whose FROM items or outputs have it. Null when no
     * level has it, or when a level with FROM items of unknown columns comes first (it might be one of theirs).
     */
    public Match<C> unqualified(String name) {
        for (Scope<C> s = this; s != null; s = s.parent) {
            List<Col<C>> matches = new ArrayList<>();
            boolean hidden = false;
            for (Source<C> source : s.sources) {
                if (source.opaque()) {
                    hidden = true;
                    continue;
                }
                Col<C> found = find(source.columns(), name);
                if (found != null) {
                    matches.add(found);
                }
            }
            Col<C> output = matches.size() <= 1 ? find(s.outputs, name) : null;
            if (!matches.isEmpty() || output != null) {
                return new Match<>(s, matches, output);
            }
            if (hidden) {
                return null;
            }
        }
        return null;
    }

    /** The column called {@code name}: written exactly, else differing in case, settled by {@link Mode}. */
    public Col<C> find(List<Col<C>> columns, String name) {
        if (columns == null || name == null) {
            return null;
        }
        for (Col<C> c : columns) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        Col<C> first = null;
        for (Col<C> c : columns) {
            if (c.name().equalsIgnoreCase(name)) {
                if (first != null && mode.caseClash != null) {
                    throw mode.caseClash.apply(name);
                }
                if (mode.caseClash == null && c.name().equals(lower)) {
                    return c;
                }
                first = first == null ? c : first;
            }
        }
        return first;
    }
}
