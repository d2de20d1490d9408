package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.mining.StatementAnalysis.ColumnRef;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.store.QueryLogRepository;
import dev.schemabrain.store.QueryLogRepository.StoredColumn;
import dev.schemabrain.store.QueryLogRepository.StoredJoin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

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
     * @param statements what to store: one per fingerprint
     * @param joins      distinct joins the stored SELECTs use
     */
    public record Result(int read, int own, int parsed, int failed, int elsewhere,
                         List<QueryLogRepository.Statement> statements, int joins) {

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
    }

    private LogAnalysis() {
    }

    public static Result analyze(List<LoggedStatement> logged, Catalog catalog, List<String> searchPath, PiiTags pii,
                                 SqlNormalizer.Dialect dialect) {
        StatementAnalyzer analyzer = new StatementAnalyzer(catalog, searchPath);
        CatalogNames names = new CatalogNames(catalog, searchPath);
        int own = 0;
        int parsed = 0;
        int failed = 0;
        int elsewhere = 0;
        Map<String, QueryLogRepository.Statement> byFingerprint = new LinkedHashMap<>();
        Set<StoredJoin> joins = new LinkedHashSet<>();
        for (LoggedStatement s : logged) {
            if (s.fromSchemaBrain()) {
                own++;
                continue;
            }
            String normalized = SqlNormalizer.normalize(s.text(), dialect, names::isName);
            if (!queryOrWrite(normalized)) {
                elsewhere++;   // session setup, DDL, utility statements: nothing to learn, not a parse failure
                continue;
            }
            Optional<StatementAnalysis> analysis = analyzer.analyze(normalized);
            if (analysis.isEmpty()) {
                failed++;
                continue;
            }
            parsed++;
            StatementAnalysis a = analysis.get();
            if (a.kind() == StatementAnalysis.Kind.OTHER || !a.touchesCatalog()) {
                elsewhere++;
                continue;
            }
            String fingerprint = SqlNormalizer.fingerprint(normalized);
            QueryLogRepository.Statement known = byFingerprint.get(fingerprint);
            if (known != null) {
                byFingerprint.put(fingerprint, withCalls(known, known.rawCalls() + s.calls()));
                continue;
            }
            QueryLogRepository.Statement stored = stored(fingerprint, normalized, s.calls(), a, pii);
            byFingerprint.put(fingerprint, stored);
            if (stored.kind().equals("select")) {
                joins.addAll(stored.joins());
            }
        }
        return new Result(logged.size(), own, parsed, failed, elsewhere, List.copyOf(byFingerprint.values()), joins.size());
    }

    /**
     * Whether a stored statement is not what this normalizer makes of it: an older one kept something (a quoted
     * alias, the tail of a nested comment) that is now replaced, so the row must go.
     */
    public static java.util.function.Predicate<String> storedByAnOlderNormalizer(Catalog catalog, List<String> searchPath,
                                                                                 SqlNormalizer.Dialect dialect) {
        CatalogNames names = new CatalogNames(catalog, searchPath);
        return sql -> !SqlNormalizer.normalize(sql, dialect, names::isName).equals(sql);
    }

    private static final java.util.regex.Pattern QUERY_OR_WRITE = java.util.regex.Pattern.compile(
            "^\\(*\\s*(SELECT|WITH|INSERT|UPDATE|DELETE|MERGE|REPLACE|VALUES|TABLE)\\b",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Whether the statement reads or writes rows; only those are parsed (and count in the parse rate). */
    static boolean queryOrWrite(String normalized) {
        return QUERY_OR_WRITE.matcher(normalized).find();
    }

    private static QueryLogRepository.Statement withCalls(QueryLogRepository.Statement s, long calls) {
        return new QueryLogRepository.Statement(s.fingerprint(), s.kind(), s.normalizedSql(), calls, s.tables(), s.joins(),
                s.columns(), s.aggregates(), s.piiCategories());
    }

    private static QueryLogRepository.Statement stored(String fingerprint, String normalized, long calls,
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
        return new QueryLogRepository.Statement(fingerprint, select ? "select" : "write", normalized, calls, tables,
                select ? joins : List.of(), columns, List.copyOf(a.aggregates()), List.copyOf(categories));
    }
}
