package io.ricochet.loadgen.scenario;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.FrameClient;
import io.ricochet.transport.IoTransport;
import java.util.ArrayList;
import java.util.List;

/**
 * What every TCP load engine runs on: the framework's client for the spec (transport, TLS or Noise, loops), its
 * event loops in order, the run's statistics with one recorder per loop, and the request bodies.
 */
record FrameEngine(FrameClient frames, IoTransport io, List<EventLoop> loops, RunStats stats, Payload payload) {

    static FrameEngine of(LoadSpec spec) {
        FrameClient frames = spec.newClient();
        List<EventLoop> loops = new ArrayList<>();
        for (EventExecutor executor : frames.eventLoops().group()) {
            loops.add((EventLoop) executor);
        }
        return new FrameEngine(frames, frames.eventLoops().transport(), List.copyOf(loops), new RunStats(loops.size()),
                new Payload(spec.seed(), spec.minSize(), spec.maxSize()));
    }
}
