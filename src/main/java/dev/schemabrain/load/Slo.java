package dev.schemabrain.load;

/** The tail latency a point must stay within to be recommended. */
public record Slo(double p95Ms, double p99Ms) {

    public Slo {
        if (!(p95Ms > 0) || !(p99Ms > 0)) {
            throw new IllegalArgumentException("SLO bounds must be positive");
        }
    }

    public boolean holds(LoadPoint point) {
        return point.errors() == 0 && point.latency().p95Ms() <= p95Ms && point.latency().p99Ms() <= p99Ms;
    }
}
