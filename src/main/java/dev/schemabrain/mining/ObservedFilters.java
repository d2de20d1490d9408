package dev.schemabrain.mining;

import dev.schemabrain.mining.StatementAnalysis.Filter;
import dev.schemabrain.store.QueryLogRepository;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Counts the filters of the stored statements: one {@link ObservedFilter} per column, operator and kept values. */
final class ObservedFilters {

    private ObservedFilters() {
    }

    static List<ObservedFilter> count(Map<String, List<Filter>> byFingerprint,
                                      Map<String, QueryLogRepository.Statement> statements) {
        Map<Filter, Set<String>> users = new LinkedHashMap<>();
        byFingerprint.forEach((fingerprint, filters) -> {
            for (Filter f : filters) {
                users.computeIfAbsent(f, k -> new LinkedHashSet<>()).add(fingerprint);
            }
        });
        List<ObservedFilter> out = new ArrayList<>();
        users.forEach((f, fingerprints) -> {
            long observations = fingerprints.stream().mapToLong(fp -> statements.get(fp).rawCalls()).sum();
            out.add(new ObservedFilter(f.column().table(), f.column().column(), f.operator(), f.values(),
                    fingerprints.size(), observations, fingerprints, null));
        });
        out.sort(Comparator.comparingInt(ObservedFilter::statements).reversed()
                .thenComparing(Comparator.comparingLong(ObservedFilter::observations).reversed())
                .thenComparing(ObservedFilter::describe));
        return out;
    }

    /** The filters with when each was last seen: the latest last-seen of the stored statements using it. */
    static List<ObservedFilter> seen(List<ObservedFilter> filters, Map<String, String> lastSeenByFingerprint) {
        return filters.stream().map(f -> f.seen(f.fingerprints().stream().map(lastSeenByFingerprint::get)
                .filter(Objects::nonNull).max(String::compareTo).orElse(null))).toList();
    }
}
