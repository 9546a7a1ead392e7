package io.ricochet.loadgen.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.stats.RunStats;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The load generator's own figures for Prometheus: what the run's intervals added up to so far. It takes every
 * measured interval (the same {@link Interval} the report and the controller get, so the endpoint and the report
 * cannot disagree) and answers each scrape with counters, a connections gauge and latency as classic histograms whose
 * buckets are read from the run's HdrHistograms. Figures move once per {@code --interval}; warmup is not counted.
 */
public final class GeneratorMetrics implements Consumer<Interval>, MultiCollector {
    /** Bucket bounds in microseconds, 50 µs to 10 s: the range between a loopback round trip and a timeout. */
    private static final long[] BOUNDS_US = {50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000,
        100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000};

    private RunStats.Counts totals = RunStats.Counts.ZERO;
    private long handshakeFailures;
    private int connections;
    private final Histogram corrected = RunStats.newHistogram();
    private final Histogram service = RunStats.newHistogram();
    private final Histogram connect = RunStats.newHistogram();
    private final Histogram handshake = RunStats.newHistogram();

    /** Adds one interval; called by the reporting thread while a scrape may be reading. */
    @Override
    public synchronized void accept(Interval interval) {
        totals = totals.plus(interval.delta());
        handshakeFailures += interval.handshakeFailures();
        connections = interval.openConnections();
        // Open loop reports a service time beside the corrected latency; a controller's merged interval always has
        // a service histogram, empty in closed loop.
        if (interval.service() != null && interval.service().getTotalCount() > 0) {
            corrected.add(interval.latency());
            service.add(interval.service());
        } else {
            service.add(interval.latency());
        }
        if (interval.connect() != null) {
            connect.add(interval.connect());
        }
        if (interval.handshake() != null) {
            handshake.add(interval.handshake());
        }
    }

    @Override
    public synchronized MetricSnapshots collect() {
        RunStats.Counts t = totals;
        return MetricSnapshots.of(
                counter("ricochet_loadgen_requests_sent", "Requests sent", Labels.EMPTY, t.sent()),
                CounterSnapshot.builder().name("ricochet_loadgen_replies")
                        .help("Replies received: ok (verified), bad (refused by the check), or unexpected (answering "
                                + "no request)")
                        .dataPoint(point(Labels.of("result", "ok"), t.ok()))
                        .dataPoint(point(Labels.of("result", "bad"), t.bad()))
                        .dataPoint(point(Labels.of("result", "unexpected"), t.unexpected())).build(),
                counter("ricochet_loadgen_errors", "Requests that failed: timed out, refused or cut off",
                        Labels.EMPTY, t.errors()),
                counter("ricochet_loadgen_reply_bytes", "Bytes of verified replies", Labels.EMPTY, t.okBytes()),
                counter("ricochet_loadgen_connects", "Connections established", Labels.EMPTY, t.connects()),
                counter("ricochet_loadgen_connect_failures", "Connects that failed", Labels.EMPTY, t.connectFailures()),
                counter("ricochet_loadgen_handshake_failures", "TLS or Noise handshakes that failed", Labels.EMPTY,
                        handshakeFailures),
                GaugeSnapshot.builder().name("ricochet_loadgen_connections").help("Connections open")
                        .dataPoint(GaugeDataPointSnapshot.builder().value(connections).build()).build(),
                HistogramSnapshot.builder().name("ricochet_loadgen_latency_seconds")
                        .help("Reply latency: service (from the actual send) and, in open loop, corrected (from the "
                                + "intended send, for coordinated omission)")
                        .dataPoint(histogram(Labels.of("kind", "service"), service))
                        .dataPoint(histogram(Labels.of("kind", "corrected"), corrected)).build(),
                HistogramSnapshot.builder().name("ricochet_loadgen_connect_seconds").help("TCP connect time")
                        .dataPoint(histogram(Labels.EMPTY, connect)).build(),
                HistogramSnapshot.builder().name("ricochet_loadgen_handshake_seconds")
                        .help("TLS or Noise handshake time, from the TCP connect")
                        .dataPoint(histogram(Labels.EMPTY, handshake)).build());
    }

    private static CounterSnapshot counter(String name, String help, Labels labels, long value) {
        return CounterSnapshot.builder().name(name).help(help).dataPoint(point(labels, value)).build();
    }

    private static CounterDataPointSnapshot point(Labels labels, long value) {
        return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    /** Prometheus's classic buckets (counts per bucket, the last +Inf) from an HdrHistogram in microseconds. */
    private static HistogramDataPointSnapshot histogram(Labels labels, Histogram h) {
        double[] bounds = new double[BOUNDS_US.length + 1];
        long[] counts = new long[BOUNDS_US.length + 1];
        long below = 0;
        for (int i = 0; i < BOUNDS_US.length; i++) {
            long upTo = h.getTotalCount() == 0 ? 0 : h.getCountBetweenValues(0, BOUNDS_US[i]);
            bounds[i] = BOUNDS_US[i] / 1e6;
            counts[i] = upTo - below;
            below = upTo;
        }
        bounds[BOUNDS_US.length] = Double.POSITIVE_INFINITY;
        counts[BOUNDS_US.length] = h.getTotalCount() - below;
        // HdrHistogram keeps no exact sum; its mean is within its 3 significant digits.
        return HistogramDataPointSnapshot.builder().labels(labels)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                .sum(h.getMean() * h.getTotalCount() / 1e6).build();
    }
}
