package io.ricochet.loadgen.engine;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's share of a load: its lanes, and the two clocks they need. Open loop: lanes wait in a heap ordered
 * by their next intended send time, and a tick sends whatever is due, so a request leaves within one tick (100 µs) of
 * its intended time however many lanes the loop holds; only the top of the heap is looked at when nothing is due. The
 * tick comes at the next intended send, 100 µs apart at the least: a loop holding thousands of rarely sending
 * connections (a held-connection run) wakes when one is due, not 10,000 times a second, which with a dozen such
 * processes on two cores took the CPU the replies needed. A slower sweep checks timeouts. Writes are flushed once per
 * tick.
 *
 * <p>It also counts the requests in flight on its loop, so a drain, or a load with a fixed amount of work, waits on a
 * future that completes when the loop is idle, never on a sleep.
 */
final class LoopDriver {
    static final long SEND_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final EventLoop loop;
    private final int index;
    private final List<Lane> lanes = new ArrayList<>();
    private final PriorityQueue<Lane> due = new PriorityQueue<>(Comparator.comparingLong(Lane::heapKey));
    private final List<Lane> written = new ArrayList<>();
    private Future<?> sendTick;
    /** When the pending send tick runs; {@link Long#MAX_VALUE} while none is pending. */
    private long sendTickAt = Long.MAX_VALUE;
    private boolean ticking;
    private long ticks;
    private Future<?> timeoutTicker;
    private long inFlight;
    /** Completed when the loop is idle (nothing in flight) after {@link #completeWhenIdle}; null until then. */
    private CompletableFuture<Void> idle;

    LoopDriver(EventLoop loop, int index) {
        this.loop = loop;
        this.index = index;
    }

    /** Starts the timeout sweep, every {@code timeoutSweepNanos}. */
    void start(long timeoutSweepNanos) {
        loop.execute(() -> timeoutTicker = loop.scheduleAtFixedRate(this::sweepTimeouts, timeoutSweepNanos,
                timeoutSweepNanos, TimeUnit.NANOSECONDS));
    }

    int index() {
        return index;
    }

    EventLoop loop() {
        return loop;
    }

    void add(Lane c) {
        c.driverSlot = lanes.size();
        lanes.add(c);
    }

    /**
     * O(1): the last lane takes the removed one's slot. The heap is not searched; a closed lane is dropped when it
     * reaches the top.
     */
    void remove(Lane c) {
        Lane last = lanes.remove(lanes.size() - 1);
        if (last != c) {
            lanes.set(c.driverSlot, last);
            last.driverSlot = c.driverSlot;
        }
    }

    List<Lane> lanes() {
        return lanes;
    }

    void started() {
        inFlight++;
    }

    void ended(int n) {
        inFlight -= n;
        if (inFlight <= 0 && idle != null) {
            idle.complete(null);
        }
    }

    /** Requests in flight on this loop; read on the loop. */
    long inFlight() {
        return inFlight;
    }

    /**
     * A future that completes once nothing is in flight on this loop (at once if nothing is now), for a drain or the
     * end of a fixed amount of work. Called on the loop.
     */
    CompletableFuture<Void> completeWhenIdle() {
        if (idle == null || idle.isDone()) {
            idle = new CompletableFuture<>();
        }
        if (inFlight <= 0) {
            idle.complete(null);
        }
        return idle;
    }

    /** Queues {@code c} for its next intended send, bringing the tick forward to it if need be. */
    void schedule(Lane c) {
        due.add(c);
        if (!ticking) {
            armSendTick(c.heapKey());
        }
    }

    /** Sends at {@code at}, no sooner than one tick from now, unless a tick is pending by then already. */
    private void armSendTick(long at) {
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
        Lane next = due.peek();
        if (next != null) {
            armSendTick(next.heapKey());
        }
    }

    private void sendDue() {
        long now = System.nanoTime();
        Lane c;
        while ((c = due.peek()) != null && c.heapKey() <= now) {
            due.poll();
            if (c.closed) {
                continue;
            }
            c.fillAndReschedule(now);
            written.add(c);
        }
        for (int i = 0; i < written.size(); i++) {
            written.get(i).flush();
        }
        written.clear();
    }

    private void sweepTimeouts() {
        long now = System.nanoTime();
        // A lane that times out may close; it leaves this list later, when it does.
        for (int i = 0; i < lanes.size(); i++) {
            Lane c = lanes.get(i);
            c.checkTimeout(now);
            c.flush();
        }
    }

    /** Fails what is still outstanding (the run is over) and stops the ticks. On the loop. */
    void finish() {
        if (sendTick != null) {
            sendTick.cancel(false);
        }
        if (timeoutTicker != null) {
            timeoutTicker.cancel(false);
        }
        due.clear();
        for (Lane c : List.copyOf(lanes)) {
            c.failOutstanding();
        }
        if (idle != null) {
            idle.complete(null);
        }
    }
}
