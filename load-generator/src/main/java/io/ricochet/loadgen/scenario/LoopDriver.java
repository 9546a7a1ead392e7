package io.ricochet.loadgen.scenario;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's share of a load: its connections and one fixed-rate tick that sends open-loop
 * requests that are due, checks timeouts, and flushes once per tick for all its connections.
 */
final class LoopDriver implements Runnable {
    private final EventLoop loop;
    private final int index;
    private final List<LoadConnection> connections = new ArrayList<>();
    private Future<?> ticker;

    LoopDriver(EventLoop loop, int index) {
        this.loop = loop;
        this.index = index;
    }

    void start(long tickNanos) {
        ticker = loop.scheduleAtFixedRate(this, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    int index() {
        return index;
    }

    EventLoop loop() {
        return loop;
    }

    void add(LoadConnection c) {
        connections.add(c);
    }

    void remove(LoadConnection c) {
        connections.remove(c);
    }

    @Override
    public void run() {
        long now = System.nanoTime();
        // Iterate a snapshot by index: a timeout closes a connection, which removes it from the list.
        for (int i = connections.size() - 1; i >= 0; i--) {
            if (i < connections.size()) {
                LoadConnection c = connections.get(i);
                c.tick(now);
                c.flushIfWritten();
            }
        }
    }

    int inFlight() {
        int n = 0;
        for (LoadConnection c : connections) {
            n += c.inFlightCount();
        }
        return n;
    }

    /** Fails what is still outstanding (the run is over) and stops the tick. */
    void finish() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        for (LoadConnection c : connections) {
            c.failOutstanding();
        }
    }
}
