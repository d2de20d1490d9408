package dev.schemabrain.mcp.transport.http;

import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;

import java.util.concurrent.TimeUnit;

/**
 * A quantile read from cumulative histogram buckets as Prometheus' {@code histogram_quantile} reads the
 * {@code _bucket} series of /metrics: the bucket holding the rank, linearly interpolated within it.
 */
final class BucketQuantile {

    private BucketQuantile() {
    }

    /** The {@code q} quantile in milliseconds, two decimals; null when nothing was recorded. */
    static Double ms(HistogramSnapshot snapshot, double q) {
        CountAtBucket[] buckets = snapshot.histogramCounts();
        long total = snapshot.count();
        if (total == 0 || buckets.length == 0) {
            return null;
        }
        double rank = q * total;
        double lower = 0;
        double below = 0;
        for (CountAtBucket bucket : buckets) {
            double upper = bucket.bucket(TimeUnit.MILLISECONDS);
            if (bucket.count() >= rank) {
                double inBucket = bucket.count() - below;
                double at = inBucket <= 0 ? upper : lower + (upper - lower) * (rank - below) / inBucket;
                return Math.round(at * 100) / 100.0;
            }
            lower = upper;
            below = bucket.count();
        }
        // Past the last bound (over a minute): Prometheus answers the highest finite bound too.
        return Math.round(lower * 100) / 100.0;
    }
}
