package dev.schemabrain.retrieve;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A plain keyword ranking of tables: the share of the question's terms that a table's name (full
 * weight), its columns' names (0.6) or the database's comments (0.3) contain, with a half-weight
 * prefix match for longer words. A stand-in until embeddings and BM25 arrive; deterministic, ties
 * broken by qualified name. The query {@code *} lists every table.
 */
public final class KeywordRetriever implements TableRetriever {

    static final double TABLE_WEIGHT = 1.0;
    static final double COLUMN_WEIGHT = 0.6;
    static final double COMMENT_WEIGHT = 0.3;
    private static final int MIN_PREFIX = 4;

    private final List<Indexed> tables;

    private record Indexed(Table table, List<String> nameTerms, List<List<String>> columnTerms, List<String> commentTerms) {
    }

    public KeywordRetriever(Catalog catalog) {
        List<Indexed> indexed = new ArrayList<>();
        for (Table t : catalog.tables()) {
            List<String> comments = new ArrayList<>(t.comment() == null ? List.of() : Terms.of(t.comment()));
            List<List<String>> columns = new ArrayList<>();
            for (Column c : t.columns()) {
                columns.add(Terms.of(c.name()));
                if (c.comment() != null) {
                    comments.addAll(Terms.of(c.comment()));
                }
            }
            indexed.add(new Indexed(t, Terms.of(t.name().table()), columns, comments));
        }
        this.tables = List.copyOf(indexed);
    }

    @Override
    public List<TableHit> search(String query, int limit, Optional<String> schema) {
        List<TableHit> hits = new ArrayList<>();
        boolean all = query.strip().equals("*");
        List<String> terms = Terms.of(query);
        if (!all && terms.isEmpty()) {
            return List.of();
        }
        for (Indexed t : tables) {
            if (schema.isPresent() && !t.table.name().schema().equals(schema.get())) {
                continue;
            }
            TableHit hit = all ? new TableHit(t.table, 1.0, null, List.of()) : score(t, terms);
            if (hit.score() > 0) {
                hits.add(hit);
            }
        }
        hits.sort(Comparator.comparingDouble(TableHit::score).reversed().thenComparing(h -> h.table().name()));
        return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
    }

    private static TableHit score(Indexed t, List<String> terms) {
        double total = 0;
        List<String> matched = new ArrayList<>();
        Map<Integer, Double> byColumn = new HashMap<>();
        for (String term : terms) {
            double best = TABLE_WEIGHT * match(term, t.nameTerms);
            for (int i = 0; i < t.columnTerms.size(); i++) {
                double m = COLUMN_WEIGHT * match(term, t.columnTerms.get(i));
                if (m > 0) {
                    byColumn.merge(i, m, Double::sum);
                }
                best = Math.max(best, m);
            }
            best = Math.max(best, COMMENT_WEIGHT * match(term, t.commentTerms));
            if (best > 0) {
                matched.add(term);
                total += best;
            }
        }
        Column bestColumn = byColumn.entrySet().stream()
                .max(Map.Entry.<Integer, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
                .map(e -> t.table.columns().get(e.getKey())).orElse(null);
        return new TableHit(t.table, Math.min(1.0, total / terms.size()), bestColumn, matched);
    }

    /** 1 for an exact term, 0.5 for a prefix either way between words of at least four letters. */
    private static double match(String term, List<String> words) {
        double best = 0;
        for (String w : words) {
            if (w.equals(term)) {
                return 1;
            }
            if (term.length() >= MIN_PREFIX && w.length() >= MIN_PREFIX && (w.startsWith(term) || term.startsWith(w))) {
                best = 0.5;
            }
        }
        return best;
    }
}
