package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.stats.RunStats;
import java.util.function.Function;

/**
 * One echo-style run (echo, rr, massive, ramp and sweep steps, CRR): its {@link FrameLoad} measured by the
 * {@link LoadDriver} over the spec's warmup, duration and timeout, and summed up in the reference reports' columns.
 */
public final class LoadRun {
    private final LoadSpec spec;
    private final RunOptions options;
    private final Function<LoadSpec, FrameLoad> factory;

    public LoadRun(LoadSpec spec, RunOptions options) {
        this(spec, options, EchoLoad::new);
    }

    public LoadRun(LoadSpec spec, RunOptions options, Function<LoadSpec, FrameLoad> factory) {
        this.factory = factory;
        this.spec = spec;
        this.options = options;
    }

    public Summary run() throws InterruptedException {
        try (FrameLoad load = factory.apply(spec)) {
            Schedule schedule = new Schedule(spec.warmup(), spec.duration(), spec.interval(), spec.timeout());
            return new LoadDriver(options, schedule).run(load, (measured, report) -> summary(load, measured));
        }
    }

    private Summary summary(FrameLoad load, Measurement measured) {
        RunStats stats = load.stats();
        double seconds = measured.seconds();
        // A run bounded by a request count is timed from its first send to its last reply.
        if (spec.maxRequests() > 0 && stats.firstSendNanos.get() > 0
                && stats.lastReplyNanos.get() > stats.firstSendNanos.get()) {
            seconds = (stats.lastReplyNanos.get() - stats.firstSendNanos.get()) / 1e9;
        }
        RunStats.Counts total = measured.total();
        Latencies latencies = measured.latencies();
        String negotiated = stats.negotiated.get();
        Throwable failure = load.firstFailure();
        return new Summary(options.command(), spec.targets().toString(),
                spec.protocol().tag(), load.io().kind().label(), total.completed(), spec.connections(), total.ok(),
                total.bad(), total.errors(), total.late(), total.connectFailures(), round(seconds),
                round(total.completed() / seconds), round(total.okBytes() / seconds),
                LatencySummary.of(spec.openLoop() ? latencies.corrected() : latencies.service()), load.latencyKind(),
                spec.openLoop() ? LatencySummary.of(latencies.service()) : null, LatencySummary.of(latencies.connect()),
                spec.handshakes() ? LatencySummary.of(latencies.handshake()) : null,
                spec.handshakes() ? measured.handshakeFailures() : null,
                negotiated == null ? null : negotiated + " (" + spec.tls().provider() + " client)", load.earlyData(),
                measured.server(),
                failure == null ? null : failure.toString());
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
