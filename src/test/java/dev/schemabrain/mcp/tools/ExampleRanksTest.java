package dev.schemabrain.mcp.tools;

import dev.schemabrain.store.QueryLogRepository.Example;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** get_example_queries' ranks: by observations then recency, a tie an equal rank that says so. */
class ExampleRanksTest {

    private static Example example(String fingerprint, long observations, String lastSeen) {
        return new Example("s", fingerprint, "select", "SELECT 1", observations, "2026-01-01T00:00:00Z", lastSeen,
                List.of(), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void equalCountsAndSightingsShareARankAndSayWhy() {
        List<Example> ordered = List.of(example("a", 9, "2026-03-01T00:00:00Z"), example("b", 5, "2026-03-01T00:00:00Z"),
                example("c", 5, "2026-03-01T00:00:00Z"), example("d", 5, "2026-02-01T00:00:00Z"));
        List<Integer> ranks = ExampleRanks.of(ordered);
        assertEquals(List.of(1, 2, 2, 4), ranks, "the older sighting of the same count ranks below");
        assertEquals(Optional.empty(), ExampleRanks.note(ranks, 0));
        assertTrue(ExampleRanks.note(ranks, 1).orElseThrow().startsWith("tied with 1 other example"));
        assertEquals(Optional.empty(), ExampleRanks.note(ranks, 3));
    }
}
