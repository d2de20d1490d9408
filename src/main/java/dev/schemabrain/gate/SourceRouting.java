package dev.schemabrain.gate;

import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.execute.QueryExecutor;
import dev.schemabrain.execute.SourceExecutors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which database runs a statement: the source its tables were indexed from. A statement over tables of two sources
 * is refused, since no database can join across them; a source the server has no connection for is named.
 */
public final class SourceRouting {

    private SourceRouting() {
    }

    /** The executor that runs a statement, or the refusal that says why none does. */
    public record Routed(Optional<QueryExecutor> executor, Optional<Refused> refusal) {
        static Routed to(QueryExecutor e) {
            return new Routed(Optional.of(e), Optional.empty());
        }

        static Routed refused(Refused e) {
            return new Routed(Optional.empty(), Optional.of(e));
        }
    }

    /** @param executors not empty: a server without any source answers before routing */
    public static Routed route(String tool, Collection<QualifiedName> tables, ServedCatalog served, SourceExecutors executors) {
        Map<String, List<String>> bySource = new TreeMap<>();
        for (QualifiedName t : tables) {
            served.sourceOf(t).ifPresent(id -> bySource.computeIfAbsent(id, k -> new ArrayList<>()).add(t.toString()));
        }
        if (bySource.size() > 1) {
            List<String> parts = new ArrayList<>();
            bySource.forEach((id, names) -> parts.add(String.join(", ", names) + " (" + name(id, executors) + ")"));
            return Routed.refused(Refused.of(ErrorKind.INVALID_ARGUMENT, tool + " names tables of "
                    + bySource.size() + " databases: " + String.join("; ", parts) + ". Each statement runs on one database"
                    + " and nothing is joined across them: ask each database separately.",
                    "list_metrics", Map.of(), List.of("list_metrics", "find_relevant_tables")));
        }
        if (served.sourceCount() <= 1 && executors.only().isPresent()) {
            // One database: serve checked at start that its connection is the store's source.
            return Routed.to(executors.only().get());
        }
        if (bySource.isEmpty()) {
            // A catalog not read from a store knows no sources: a one-source server runs it there.
            return executors.only().map(Routed::to).orElseGet(() -> Routed.refused(Refused.of(ErrorKind.INVALID_ARGUMENT,
                    tool + " names no table of a known database, and this server has several; name the tables the"
                            + " statement reads.", "list_metrics", Map.of(), List.of("list_metrics"))));
        }
        String id = bySource.keySet().iterator().next();
        return executors.forSource(id).map(Routed::to).orElseGet(() -> Routed.refused(Refused.of(ErrorKind.MISSING_CREDENTIAL,
                tool + " reads " + String.join(", ", bySource.get(id)) + ", indexed from a database this server has no connection for (source " + id
                        + "); restart it with --url-env VAR (or --source URL) for each of its store's sources.", "list_metrics", Map.of(),
                List.of("list_metrics"))));
    }

    private static String name(String id, SourceExecutors executors) {
        return executors.forSource(id).map(QueryExecutor::displayUrl).orElse("source " + id);
    }
}
