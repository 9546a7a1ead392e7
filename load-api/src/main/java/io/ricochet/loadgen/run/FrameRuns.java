package io.ricochet.loadgen.run;

import io.ricochet.loadgen.engine.ConnectionPerRequest;
import io.ricochet.loadgen.engine.HeldConnections;
import io.ricochet.loadgen.engine.Load;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.Schedule;
import io.ricochet.loadgen.report.Summaries;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.workload.FrameWorkload;

/** One framed run on the engine, measured over the spec's warmup, duration and timeout, summed up as a {@link Summary}. */
public final class FrameRuns {
    private FrameRuns() {
    }

    /** On held connections: echo, rr, massive, and ramp's and sweep's steps. */
    public static Summary held(String command, LoadSpec spec, FrameWorkload workload, RunOptions options)
            throws InterruptedException {
        try (HeldConnections load = new HeldConnections(spec, workload)) {
            return measure(command, spec, load, options);
        }
    }

    /** A connection per request: crr. */
    public static Summary perRequest(String command, LoadSpec spec, FrameWorkload workload, boolean resume,
            RunOptions options) throws InterruptedException {
        try (ConnectionPerRequest load = new ConnectionPerRequest(spec, workload, resume)) {
            return measure(command, spec, load, options);
        }
    }

    private static Summary measure(String command, LoadSpec spec, Load load, RunOptions options)
            throws InterruptedException {
        Schedule schedule = new Schedule(spec.warmup(), spec.duration(), spec.interval(), spec.timeout());
        return Runs.measure(load, schedule, options, (measured, server, report) -> Summaries.frames(command,
                spec.targets().toString(), spec.protocol().tag(), spec.connections(), measured, spec.handshakes(),
                server));
    }
}
