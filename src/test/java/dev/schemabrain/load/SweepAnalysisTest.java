package dev.schemabrain.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The knee and the recommendation on named, hand-made sweeps: the rule, not the machine. */
class SweepAnalysisTest {

    private static final Slo SLO = new Slo(20, 50);

    /** A point with the given throughput and tails (p50 is irrelevant to the rule). */
    private static LoadPoint point(int concurrency, double callsPerSecond, double p95, double p99, int errors) {
        return new LoadPoint(concurrency, 1000, errors, 1000 / callsPerSecond, callsPerSecond,
                new Latencies(p95 / 2, p95, p99, p99 * 2, p95 / 2));
    }

    private static LoadPoint point(int concurrency, double callsPerSecond, double p95, double p99) {
        return point(concurrency, callsPerSecond, p95, p99, 0);
    }

    static Stream<Arguments> sweeps() {
        return Stream.of(
                Arguments.of("throughput flattens after 32, all within SLO: knee 32, run at 32",
                        List.of(point(8, 1000, 5, 8), point(16, 1800, 8, 12), point(32, 2000, 15, 25), point(64, 2020, 30, 45)),
                        32, true, Optional.of(32)),
                Arguments.of("64 breaks p99: the best point within SLO is 32",
                        List.of(point(8, 1000, 5, 8), point(16, 1500, 8, 12), point(32, 1700, 15, 25), point(64, 2400, 19, 80)),
                        64, false, Optional.of(32)),
                Arguments.of("64 breaks p95 only: still refused",
                        List.of(point(8, 1000, 5, 8), point(16, 1900, 8, 12), point(64, 2000, 21, 30)),
                        16, true, Optional.of(16)),
                Arguments.of("a tie within 5% goes to the lower concurrency, which queues less",
                        List.of(point(8, 1960, 5, 8), point(16, 2000, 9, 14), point(32, 1990, 18, 30)),
                        8, true, Optional.of(8)),
                Arguments.of("errors disqualify a point however fast it is",
                        List.of(point(8, 1000, 5, 8), point(16, 3000, 6, 9, 3)),
                        16, false, Optional.of(8)),
                Arguments.of("nothing meets the SLO: no recommendation",
                        List.of(point(8, 1000, 25, 60), point(16, 1100, 40, 90)),
                        8, true, Optional.empty()),
                Arguments.of("throughput still growing: knee at the top, not saturated",
                        List.of(point(8, 500, 2, 3), point(16, 1000, 3, 4), point(32, 2000, 4, 6)),
                        32, false, Optional.of(32)),
                Arguments.of("points given out of order are read in concurrency order",
                        List.of(point(64, 2020, 30, 45), point(8, 1000, 5, 8), point(32, 2000, 15, 25), point(16, 1800, 8, 12)),
                        32, true, Optional.of(32)),
                Arguments.of("a single point is its own knee",
                        List.of(point(8, 1000, 5, 8)),
                        8, false, Optional.of(8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sweeps")
    void kneeAndRecommendation(String name, List<LoadPoint> points, int knee, boolean saturated, Optional<Integer> recommended) {
        SweepAnalysis analysis = SweepAnalysis.of(points, SLO);
        assertEquals(knee, analysis.knee(), "knee");
        assertEquals(saturated, analysis.saturated(), "saturated");
        assertEquals(recommended, analysis.recommended(), analysis.reason());
    }

    @Test
    void theReasonOfANoRecommendationNamesTheSloAndTheLowestPointsTails() {
        String reason = SweepAnalysis.of(List.of(point(8, 1000, 25, 60)), SLO).reason();
        assertTrue(reason.contains("p95 ≤ 20 ms and p99 ≤ 50 ms") && reason.contains("p99 60 ms"), reason);
    }

    @Test
    void theReasonWarnsWhenThroughputWasStillGrowing() {
        String reason = SweepAnalysis.of(List.of(point(8, 500, 2, 3), point(16, 1000, 3, 4)), SLO).reason();
        assertTrue(reason.contains("still growing"), reason);
    }

    @Test
    void withinSloListsEveryPassingConcurrencyInOrder() {
        SweepAnalysis analysis = SweepAnalysis.of(List.of(point(32, 1700, 15, 25), point(8, 1000, 5, 8),
                point(64, 2400, 19, 80)), SLO);
        assertEquals(List.of(8, 32), analysis.withinSlo());
    }

    @Test
    void anEmptySweepIsABug() {
        assertThrows(IllegalArgumentException.class, () -> SweepAnalysis.of(List.of(), SLO));
    }

    @Test
    void percentilesAreNearestRank() {
        long[] nanos = new long[200];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000_000L;
        }
        Latencies l = Latencies.ofNanos(nanos);
        assertEquals(100, l.p50Ms());
        assertEquals(190, l.p95Ms());
        assertEquals(198, l.p99Ms());
        assertEquals(200, l.maxMs());
    }

    @Test
    void anEmptyRunHasNoLatency() {
        assertEquals(Latencies.NONE, Latencies.ofNanos(new long[0]));
    }
}
