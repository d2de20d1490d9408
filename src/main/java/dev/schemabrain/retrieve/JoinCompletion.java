package dev.schemabrain.retrieve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Join completion: the tables on the shortest foreign-key path between two of the top hits, moved up to just
 * after those hits. A question about "employees covering a territory" finds both ends by their words; the link
 * table between them carries no word of the question, yet the SQL cannot be written without it.
 * <p>
 * Only paths of at most {@link #MAX_BRIDGES} tables between two anchors count (a longer path is more likely a
 * coincidence of a connected schema than the question's join), and only tables among the candidates (the
 * {@code schema} filter) are walked. The anchors keep their places; the bridges follow them in path order; the
 * rest of the ranking follows unchanged, cut to the same length.
 */
final class JoinCompletion {

    /** How many of the best hits are joined to each other. */
    static final int ANCHORS = 3;
    /** The most tables a path may add between two anchors. */
    static final int MAX_BRIDGES = 1;

    private final int[][] neighbours;

    /** @param neighbours each table's foreign-key neighbours, both directions, by table position */
    JoinCompletion(int[][] neighbours) {
        this.neighbours = neighbours;
    }

    /**
     * @param ranking  the positions (into {@code candidates}) of the hits, best first
     * @param candidates the table of each position
     * @param at       for each table, its position in {@code candidates}, or -1 when it is not a candidate
     * @param limit    the length of the answer
     * @return the positions with the bridges moved up after the anchors, at most {@code limit} of them
     */
    int[] complete(int[] ranking, int[] candidates, int[] at, int limit) {
        int anchors = Math.min(ANCHORS, ranking.length);
        if (anchors < 2) {
            return ranking;
        }
        Set<Integer> anchorTables = new LinkedHashSet<>();
        for (int r = 0; r < anchors; r++) {
            anchorTables.add(candidates[ranking[r]]);
        }
        Set<Integer> bridges = new LinkedHashSet<>();
        List<Integer> ends = new ArrayList<>(anchorTables);
        for (int i = 0; i < ends.size(); i++) {
            int[] parent = walk(ends.get(i), at);
            for (int j = i + 1; j < ends.size(); j++) {
                int b = ends.get(j);
                if (parent[b] == -1) {
                    continue;
                }
                List<Integer> between = new ArrayList<>();
                for (int t = parent[b]; t != ends.get(i); t = parent[t]) {
                    between.add(0, t);
                }
                if (between.stream().noneMatch(anchorTables::contains)) {
                    bridges.addAll(between);
                }
            }
        }
        if (bridges.isEmpty()) {
            return ranking;
        }
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < anchors; r++) {
            out.add(ranking[r]);
        }
        bridges.forEach(t -> out.add(at[t]));
        for (int r = anchors; r < ranking.length; r++) {
            if (!bridges.contains(candidates[ranking[r]])) {
                out.add(ranking[r]);
            }
        }
        return out.stream().limit(limit).mapToInt(Integer::intValue).toArray();
    }

    /** Breadth-first from {@code start} over candidate tables, at most {@code MAX_BRIDGES + 1} steps: each table's parent, or -1. */
    private int[] walk(int start, int[] at) {
        int[] parent = new int[neighbours.length];
        int[] depth = new int[neighbours.length];
        Arrays.fill(parent, -1);
        parent[start] = start;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            int t = queue.poll();
            if (depth[t] > MAX_BRIDGES) {
                continue;
            }
            for (int j : neighbours[t]) {
                if (parent[j] == -1 && at[j] >= 0) {
                    parent[j] = t;
                    depth[j] = depth[t] + 1;
                    queue.add(j);
                }
            }
        }
        parent[start] = -1;
        return parent;
    }
}
