package dev.schemabrain.load;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a sweep means: the knee (where more concurrency stops buying throughput) and the concurrency to run
 * at under an SLO. A pure function of the measured points, so the rule is tested on named cases.
 *
 * @param knee        the lowest concurrency reaching {@link #KNEE_SHARE} of the best throughput measured
 * @param saturated   whether a higher concurrency than the knee was measured (else throughput may still grow)
 * @param withinSlo   the concurrencies whose p95 and p99 met the SLO without errors
 * @param recommended the lowest concurrency within SLO whose throughput is within {@link #TIE_SHARE} of the best
 *                    such point; empty when no point met the SLO
 * @param reason      one sentence saying why, for the report
 */
public record SweepAnalysis(int knee, boolean saturated, List<Integer> withinSlo, Optional<Integer> recommended,
                            String reason) {

    /** Past the knee, doubling concurrency buys under a tenth more throughput and only adds queueing. */
    public static final double KNEE_SHARE = 0.90;
    /** Throughputs this close are noise on a shared machine; the lower concurrency queues less. */
    public static final double TIE_SHARE = 0.95;

    public SweepAnalysis {
        withinSlo = List.copyOf(withinSlo);
    }

    public static SweepAnalysis of(List<LoadPoint> measured, Slo slo) {
        if (measured.isEmpty()) {
            throw new IllegalArgumentException("a sweep has at least one point");
        }
        List<LoadPoint> points = measured.stream().sorted(Comparator.comparingInt(LoadPoint::concurrency)).toList();
        double peak = points.stream().mapToDouble(LoadPoint::callsPerSecond).max().orElse(0);
        LoadPoint knee = points.stream().filter(p -> p.callsPerSecond() >= KNEE_SHARE * peak).findFirst().orElseThrow();
        boolean saturated = knee.concurrency() < points.get(points.size() - 1).concurrency();
        List<LoadPoint> ok = points.stream().filter(slo::holds).toList();
        List<Integer> withinSlo = ok.stream().map(LoadPoint::concurrency).toList();
        String bounds = "p95 ≤ " + fmt(slo.p95Ms()) + " ms and p99 ≤ " + fmt(slo.p99Ms()) + " ms without errors";
        if (ok.isEmpty()) {
            LoadPoint lowest = points.get(0);
            return new SweepAnalysis(knee.concurrency(), saturated, withinSlo, Optional.empty(),
                    "No concurrency kept " + bounds + " (at " + lowest.concurrency() + ": p95 " + fmt(lowest.latency().p95Ms())
                            + " ms, p99 " + fmt(lowest.latency().p99Ms()) + " ms, " + lowest.errors()
                            + " errors); try lower concurrency or a looser SLO.");
        }
        double best = ok.stream().mapToDouble(LoadPoint::callsPerSecond).max().orElseThrow();
        LoadPoint pick = ok.stream().filter(p -> p.callsPerSecond() >= TIE_SHARE * best).findFirst().orElseThrow();
        return new SweepAnalysis(knee.concurrency(), saturated, withinSlo, Optional.of(pick.concurrency()),
                pick.concurrency() + " is the lowest concurrency within " + Math.round((1 - TIE_SHARE) * 100)
                        + "% of the best throughput that kept " + bounds + " (" + fmt(pick.callsPerSecond()) + " calls/s, p99 "
                        + fmt(pick.latency().p99Ms()) + " ms)" + (saturated ? "." : "; throughput was still growing at the"
                        + " highest concurrency tested, so a higher one may do better."));
    }

    static String fmt(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }
}
