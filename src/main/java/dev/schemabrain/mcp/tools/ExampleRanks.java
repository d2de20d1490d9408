package dev.schemabrain.mcp.tools;

import dev.schemabrain.store.QueryLogRepository.Example;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Ranks of examples already ordered by observations then recency: 1, 2, 2, 4 (competition ranking), so that two
 * examples with the same count and the same last sighting say they are tied rather than one looking better.
 */
final class ExampleRanks {

    private ExampleRanks() {
    }

    static List<Integer> of(List<Example> ordered) {
        List<Integer> out = new ArrayList<>(ordered.size());
        for (int i = 0; i < ordered.size(); i++) {
            boolean tied = i > 0 && tied(ordered.get(i - 1), ordered.get(i));
            out.add(tied ? out.get(i - 1) : i + 1);
        }
        return out;
    }

    /** For an example sharing its rank: how many others share it and why. */
    static Optional<String> note(List<Integer> ranks, int i) {
        long others = ranks.stream().filter(r -> r.equals(ranks.get(i))).count() - 1;
        return others == 0 ? Optional.empty() : Optional.of("tied with " + others + " other example" + (others == 1 ? "" : "s")
                + ": the same number of observations and the same last sighting");
    }

    private static boolean tied(Example a, Example b) {
        return a.observations() == b.observations() && Objects.equals(a.lastSeenAt(), b.lastSeenAt());
    }
}
