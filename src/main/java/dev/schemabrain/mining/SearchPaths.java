package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which catalog table an unqualified name in a logged statement meant. MySQL/MariaDB: the statement's default
 * database, nothing else. PostgreSQL: the paths known to have been in force for the role that ran it (its
 * {@code ALTER ROLE … SET search_path}, the {@code SET search_path} statements it logged); when they disagree the
 * name is ambiguous, when none finds it the name resolves to the one indexed schema that has it (a path set in the
 * connection string leaves no trace), and is ambiguous when several have it.
 */
final class SearchPaths {

    /** How an unqualified name resolved. */
    sealed interface Resolution {
        record Found(QualifiedName table) implements Resolution {
        }

        record Ambiguous() implements Resolution {
        }

        record Missing() implements Resolution {
        }
    }

    /**
     * Who ran a statement and where: the PostgreSQL role, or the MySQL default database, and the search_path its
     * session had set (a server log shows it); any may be null.
     */
    record Context(String role, String database, List<String> sessionPath) {
        static final Context NONE = new Context(null, null, null);

        Context(String role, String database) {
            this(role, database, null);
        }
    }

    /** Paths in force for statements whose role is unknown, each role's configured path, each role's logged SETs. */
    private final List<String> fallback;
    private final Map<String, List<String>> rolePaths;
    private final Map<String, Set<List<String>>> sessionPaths;
    private final Map<String, Set<QualifiedName>> byName = new HashMap<>();
    private final Map<String, QualifiedName> byQualified = new HashMap<>();

    SearchPaths(Catalog catalog, List<String> fallback, Map<String, List<String>> rolePaths,
                Map<String, Set<List<String>>> sessionPaths) {
        this.fallback = List.copyOf(fallback);
        this.rolePaths = Map.copyOf(rolePaths);
        this.sessionPaths = Map.copyOf(sessionPaths);
        for (Table t : catalog.tables()) {
            byQualified.putIfAbsent(key(t.name().schema(), t.name().table()), t.name());
            byName.computeIfAbsent(t.name().table().toLowerCase(Locale.ROOT), k -> new LinkedHashSet<>()).add(t.name());
        }
    }

    /** Only one path, for every statement (tests, and callers that know no roles). */
    static SearchPaths of(Catalog catalog, List<String> path) {
        return new SearchPaths(catalog, path, Map.of(), Map.of());
    }

    Resolution resolve(String table, Context context) {
        if (context.database() != null) {
            QualifiedName t = byQualified.get(key(context.database(), table));
            return t == null ? new Resolution.Missing() : new Resolution.Found(t);
        }
        Set<QualifiedName> found = new LinkedHashSet<>();
        for (List<String> path : paths(context)) {
            for (String schema : path) {
                QualifiedName t = byQualified.get(key(schema.equals("$user") && context.role() != null ? context.role() : schema, table));
                if (t != null) {
                    found.add(t);
                    break;
                }
            }
        }
        if (found.isEmpty()) {
            found = byName.getOrDefault(table.toLowerCase(Locale.ROOT), Set.of());
        }
        if (found.size() == 1) {
            return new Resolution.Found(found.iterator().next());
        }
        return found.isEmpty() ? new Resolution.Missing() : new Resolution.Ambiguous();
    }

    private List<List<String>> paths(Context context) {
        if (context.sessionPath() != null) {
            return List.of(context.sessionPath());   // the session said which path was in force: nothing else was
        }
        String role = context.role();
        List<List<String>> out = new ArrayList<>();
        if (role == null) {
            out.add(fallback);
            sessionPaths.values().forEach(out::addAll);
            return out;
        }
        List<String> configured = rolePaths.get(role);
        out.add(configured != null ? configured : fallback);
        out.addAll(sessionPaths.getOrDefault(role, Set.of()));
        return out;
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT);
    }
}
