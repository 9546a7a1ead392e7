package io.ricochet.loadgen.scenario;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's share of a load. Open loop: connections wait in a heap ordered by their next
 * intended send time, and a tick sends whatever is due, so a request leaves within one tick (100 µs) of its
 * intended time however many connections the loop holds; only the top of the heap is looked at when nothing is
 * due. The tick comes at the next intended send, 100 µs apart at the least: a loop holding thousands of rarely
 * sending connections (a held-connection run) wakes when one is due, not 10,000 times a second, which with a
 * dozen such processes on two cores took the CPU the replies needed. A slower sweep checks timeouts. Writes are
 * flushed once per tick.
 */
final class LoopDriver {
    static final long SEND_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final EventLoop loop;
    private final int index;
    private final List<LoadConnection> connections = new ArrayList<>();
    private final PriorityQueue<LoadConnection> due =
            new PriorityQueue<>(Comparator.comparingLong(LoadConnection::nextIntended));
    private final List<LoadConnection> written = new ArrayList<>();
    private Future<?> sendTick;
    /** When the pending send tick runs; {@link Long#MAX_VALUE} while none is pending. */
    private long sendTickAt = Long.MAX_VALUE;
    private boolean sending;
    private boolean ticking;
    private long ticks;
    private Future<?> timeoutTicker;

    LoopDriver(EventLoop loop, int index) {
        this.loop = loop;
        this.index = index;
    }

    void start(boolean openLoop, long timeoutSweepNanos) {
        sending = openLoop;
        timeoutTicker = loop.scheduleAtFixedRate(this::sweepTimeouts, timeoutSweepNanos, timeoutSweepNanos,
                TimeUnit.NANOSECONDS);
    }

    int index() {
        return index;
    }

    EventLoop loop() {
        return loop;
    }

    void add(LoadConnection c) {
        c.driverSlot = connections.size();
        connections.add(c);
    }

    /**
     * O(1): the last connection takes the removed one's slot. The heap is not searched; a closed
     * connection is dropped when it reaches the top.
     */
    void remove(LoadConnection c) {
        LoadConnection last = connections.remove(connections.size() - 1);
        if (last != c) {
            connections.set(c.driverSlot, last);
            last.driverSlot = c.driverSlot;
        }
    }

    /** Queues {@code c} for its next intended send, bringing the tick forward to it if need be. */
    void schedule(LoadConnection c) {
        due.add(c);
        if (!ticking) {
            armSendTick(c.nextIntended());
        }
    }

    /** Sends at {@code at}, no sooner than one tick from now, unless a tick is pending by then already. */
    private void armSendTick(long at) {
        if (!sending) {
            return;
        }
        long when = Math.max(at, System.nanoTime() + SEND_TICK_NANOS);
        if (when >= sendTickAt) {
            return;
        }
        if (sendTick != null) {
            sendTick.cancel(false);
        }
        sendTickAt = when;
        sendTick = loop.schedule(this::tick, when - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** Send ticks run so far; read on the loop. */
    long ticks() {
        return ticks;
    }

    private void tick() {
        ticks++;
        sendTick = null;
        sendTickAt = Long.MAX_VALUE;
        ticking = true;
        try {
            sendDue();
        } finally {
            ticking = false;
        }
        LoadConnection next = due.peek();
        if (next != null) {
            armSendTick(next.nextIntended());
        }
    }

    private void sendDue() {
        long now = System.nanoTime();
        LoadConnection c;
        while ((c = due.peek()) != null && c.nextIntended() <= now) {
            due.poll();
            if (c.isClosed()) {
                continue;
            }
            c.fillAndReschedule(now);
            written.add(c);
        }
        for (int i = 0; i < written.size(); i++) {
            written.get(i).flushIfWritten();
        }
        written.clear();
    }

    private void sweepTimeouts() {
        long now = System.nanoTime();
        // A connection that times out is closed; it leaves this list later, when it becomes inactive.
        for (int i = 0; i < connections.size(); i++) {
            LoadConnection c = connections.get(i);
            c.checkTimeout(now);
            c.flushIfWritten();
        }
    }

    int inFlight() {
        int n = 0;
        for (LoadConnection c : connections) {
            n += c.inFlightCount();
        }
        return n;
    }

    /** Fails what is still outstanding (the run is over) and stops the ticks. */
    void finish() {
        sending = false;
        if (sendTick != null) {
            sendTick.cancel(false);
        }
        if (timeoutTicker != null) {
            timeoutTicker.cancel(false);
        }
        due.clear();
        for (LoadConnection c : connections) {
            c.failOutstanding();
        }
    }
}
