package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.engine.postgres.log.SearchPathSetting;
import dev.schemabrain.mining.StatementAnalysis.ColumnRef;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.QueryLogRepository.StoredColumn;
import dev.schemabrain.store.QueryLogRepository.StoredJoin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The pure part of mining: logged statements in, storable statements and counts out. Skips SchemaBrain's own
 * statements and those touching no table of the catalog (system catalogs, other schemas); statements that
 * normalize alike are summed into one.
 */
public final class LogAnalysis {

    /**
     * @param read       statements the engine reported for the database
     * @param own        of those, SchemaBrain's own (marked), skipped
     * @param parsed     queries and writes JSqlParser parsed
     * @param failed     queries and writes it could not parse: counted, not stored
     * @param elsewhere  session, DDL and utility statements, and parsed ones touching no table of the catalog
     * @param unresolved parsed ones skipped: no table of the catalog, and an unqualified name no indexed schema has
     * @param ambiguous  parsed ones skipped: an unqualified name that several indexed schemas could have meant
     * @param statements what to store: one per fingerprint
     * @param joins      distinct joins the stored SELECTs use
     * @param filters    filters of the stored SELECTs, most used first
     */
    public record Result(int read, int own, int parsed, int failed, int elsewhere, int unresolved, int ambiguous,
                         List<QueryLogRepository.Statement> statements, int joins, List<ObservedFilter> filters) {

        public Result {
            statements = List.copyOf(statements);
            filters = List.copyOf(filters);
        }

        /** Parsed over parse attempts (statements read, less SchemaBrain's own); 1 when there were none. */
        public double parseRate() {
            int attempted = parsed + failed;
            return attempted == 0 ? 1.0 : (double) parsed / attempted;
        }

        public long examples() {
            return statements.stream().filter(s -> s.kind().equals("select")).count();
        }

        public long writes() {
            return statements.stream().filter(s -> s.kind().equals("write")).count();
        }

        /** Filters on the tables' columns, most statements first (then most observations). */
        public List<ObservedFilter> observedFilters() {
            return filters;
        }
    }

    private LogAnalysis() {
    }

    /** Every statement's unqualified names resolved through {@code searchPath} (or the catalog's one schema that has them). */
    public static Result analyze(List<LoggedStatement> logged, Catalog catalog, List<String> searchPath, PiiTags pii,
                                 Lexical lexical) {
        return analyze(logged, catalog, searchPath, Map.of(), pii, lexical);
    }

    /**
     * Every statement's unqualified names resolved through its role's path, else {@code fallbackPath} (or the
     * catalog's one schema that has them).
     *
     * @param fallbackPath the path of statements whose role and database are unknown
     * @param rolePaths    each PostgreSQL role's configured search_path; the {@code SET search_path} statements the
     *                     log holds count too, for their role
     */
    public static Result analyze(List<LoggedStatement> logged, Catalog catalog, List<String> fallbackPath,
                                 Map<String, List<String>> rolePaths, PiiTags pii, Lexical lexical) {
        ExampleSql examples = new ExampleSql(catalog, new SearchPaths(catalog, fallbackPath, rolePaths, sessionPaths(logged)),
                pii, lexical);
        int own = 0;
        int parsed = 0;
        int failed = 0;
        int elsewhere = 0;
        int unresolved = 0;
        int ambiguous = 0;
        Map<String, QueryLogRepository.Statement> byFingerprint = new LinkedHashMap<>();
        Map<String, List<StatementAnalysis.Filter>> filters = new LinkedHashMap<>();
        Set<StoredJoin> joins = new LinkedHashSet<>();
        for (LoggedStatement s : logged) {
            if (s.fromSchemaBrain()) {
                own++;
                continue;
            }
            ExampleSql.Outcome outcome = examples.of(s.text(), new SearchPaths.Context(s.role(), s.database(), s.sessionPath()));
            if (outcome instanceof ExampleSql.Outcome.NotAQuery) {
                elsewhere++;
                continue;
            }
            if (!(outcome instanceof ExampleSql.Outcome.Parsed made)) {
                failed++;
                continue;
            }
            parsed++;
            StatementAnalysis a = made.analysis();
            if (!a.names().ambiguous().isEmpty()) {
                ambiguous++;   // which table it read is a guess; a wrong example is worse than none
                continue;
            }
            if (a.kind() == StatementAnalysis.Kind.OTHER || !a.touchesCatalog()) {
                if (a.names().unresolved().isEmpty()) {
                    elsewhere++;
                } else {
                    unresolved++;
                }
                continue;
            }
            String fingerprint = SqlNormalizer.fingerprint(made.sql());
            QueryLogRepository.Statement known = byFingerprint.get(fingerprint);
            if (known != null) {
                byFingerprint.put(fingerprint, withMore(known, s));
                continue;
            }
            QueryLogRepository.Statement stored = stored(fingerprint, made.sql(), s, a, pii);
            byFingerprint.put(fingerprint, stored);
            if (stored.kind().equals("select")) {
                joins.addAll(stored.joins());
                filters.put(fingerprint, a.filters());
            }
        }
        return new Result(logged.size(), own, parsed, failed, elsewhere, unresolved, ambiguous,
                List.copyOf(byFingerprint.values()), joins.size(), ObservedFilters.count(filters, byFingerprint));
    }

    /** The search paths each role set in a logged {@code SET search_path} (PostgreSQL keeps utility statements). */
    private static Map<String, Set<List<String>>> sessionPaths(List<LoggedStatement> logged) {
        Map<String, Set<List<String>>> out = new HashMap<>();
        for (LoggedStatement s : logged) {
            if (s.role() != null && !s.fromSchemaBrain()) {
                SearchPathSetting.ofStatement(s.text())
                        .ifPresent(path -> out.computeIfAbsent(s.role(), r -> new LinkedHashSet<>()).add(path));
            }
        }
        return out;
    }

    /**
     * Whether a stored statement is not what this analysis makes of it: an older normalizer kept something (a quoted
     * alias, the tail of a nested comment) that is now replaced, or a literal that is no longer allowed to stay (the
     * catalog stopped showing that value, the column was tagged), so the row must go.
     */
    public static java.util.function.Predicate<String> storedByAnOlderNormalizer(Catalog catalog, List<String> searchPath,
                                                                                 PiiTags pii, Lexical lexical) {
        ExampleSql examples = new ExampleSql(catalog, SearchPaths.of(catalog, searchPath), pii, lexical);
        return sql -> !(examples.of(sql, SearchPaths.Context.NONE) instanceof ExampleSql.Outcome.Parsed made
                && made.sql().equals(sql));
    }

    private static final Pattern QUERY_OR_WRITE = Pattern.compile(
            "^\\(*\\s*(SELECT|WITH|INSERT|UPDATE|DELETE|MERGE|REPLACE|VALUES|TABLE)\\b",
            Pattern.CASE_INSENSITIVE);

    /** Whether the statement reads or writes rows; only those are parsed (and count in the parse rate). */
    static boolean queryOrWrite(String normalized) {
        return QUERY_OR_WRITE.matcher(normalized).find();
    }

    /** {@code s} summed with another logged statement that normalized alike: calls added, the widest span of times. */
    private static QueryLogRepository.Statement withMore(QueryLogRepository.Statement s, LoggedStatement more) {
        return new QueryLogRepository.Statement(s.fingerprint(), s.kind(), s.normalizedSql(), s.rawCalls() + more.calls(),
                s.tables(), s.joins(), s.columns(), s.aggregates(), s.piiCategories(), s.filters(),
                earliest(s.firstSeen(), more.firstSeen()), latest(s.lastSeen(), more.lastSeen()));
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null ? b : b == null || a.isBefore(b) ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a == null ? b : b == null || a.isAfter(b) ? a : b;
    }

    private static QueryLogRepository.Statement stored(String fingerprint, String normalized, LoggedStatement logged,
                                                       StatementAnalysis a, PiiTags pii) {
        boolean select = a.kind() == StatementAnalysis.Kind.SELECT;
        List<QualifiedName> tables = select ? a.tables() : a.written();
        List<StoredJoin> joins = new ArrayList<>();
        for (ObservedJoin j : a.joins()) {
            joins.add(new StoredJoin(j.left().schema(), j.left().table(), j.leftColumns(),
                    j.right().schema(), j.right().table(), j.rightColumns()));
        }
        List<StoredColumn> columns = new ArrayList<>();
        Set<String> categories = new TreeSet<>();
        for (Map.Entry<ColumnRef, Set<String>> e : a.columns().entrySet()) {
            ColumnRef ref = e.getKey();
            columns.add(new StoredColumn(ref.table().schema(), ref.table().table(), ref.column(), List.copyOf(new TreeSet<>(e.getValue()))));
            for (PiiCategory c : pii.tag(ref.table(), ref.column()).categories()) {
                categories.add(c.wireName());
            }
        }
        List<QueryLogRepository.StoredFilter> filters = select ? a.filters().stream().map(f -> new QueryLogRepository.StoredFilter(
                f.column().table().schema(), f.column().table().table(), f.column().column(), f.operator(), f.values())).toList()
                : List.of();
        return new QueryLogRepository.Statement(fingerprint, select ? "select" : "write", normalized, logged.calls(), tables,
                select ? joins : List.of(), columns, List.copyOf(a.aggregates()), List.copyOf(categories), filters,
                logged.firstSeen(), logged.lastSeen());
    }
}
