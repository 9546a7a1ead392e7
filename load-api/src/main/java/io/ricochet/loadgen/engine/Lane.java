package io.ricochet.loadgen.engine;

/**
 * One connection's pacing, whatever it carries: in closed loop it keeps {@code depth} requests in flight; in open loop
 * it sends each request at its intended time, one interval of the connection's rate after the last, waiting in its
 * {@link LoopDriver}'s heap when ahead and catching up when behind, with at most {@code depth} in flight. What a request
 * is (a frame on a held connection, a connection of its own, a datagram, an RPC call) is the subclass's. Confined to
 * its driver's event loop.
 */
abstract class Lane {
    /** How long a lane whose workload failed to make a request waits before it tries again. */
    static final long RETRY_AFTER_FAILED_REQUEST_MILLIS = 10;
    final LoopDriver driver;
    final Pace pace;
    /** This lane's run-wide connection index. */
    final long id;
    private final int depth;
    private final long intervalNanos;
    /** Whether requests go at intended times (a constant rate, or the pace's rate schedule). */
    private final boolean openLoop;
    /** Under a rate schedule, this lane's next slot: its how-manieth request, counted from the load's start. */
    private long slot;
    /** Set on a connection that replaces one that was sending: it joins a rate schedule where it stands. */
    private boolean joinsLate;
    /** Requests this lane may still start; {@link Long#MAX_VALUE} without a quota of its own. */
    private long quota;
    int inFlight;
    private long nextIntended;
    /**
     * The lane's place in its driver's heap, set when it is queued and left alone until it is polled: a reply may send
     * meanwhile and move {@link #nextIntended} on, and a key changed inside a heap would break its order.
     */
    private long heapKey;
    private boolean queued;
    /** Set while {@link #fill} runs: a request that ends at once (a call failing as it is made) does not nest another. */
    private boolean filling;
    /** False until the lane may send: at once in plaintext, after the handshake over TLS or Noise. */
    private boolean ready;
    boolean closed;
    private boolean holdingAfterFailure;
    /** This lane's index in its driver's list, kept by the driver. */
    int driverSlot;

    Lane(LoopDriver driver, Pace pace, long id, int depth) {
        this.driver = driver;
        this.pace = pace;
        this.id = id;
        this.depth = depth;
        this.intervalNanos = pace.intervalNanos();
        this.openLoop = pace.openLoop();
        this.quota = Long.MAX_VALUE;
    }

    /**
     * Lets the lane send: its first requests go now (closed loop) or from a staggered start (open loop). Called again
     * at a new phase (an RPC load's measured phase after its warmup), it starts the schedule afresh rather than
     * catching up the time in between.
     */
    final void begin() {
        ready = true;
        long now = System.nanoTime();
        if (pace.stages() != null) {
            // A first connection owes every request due since the load's start (sent late, its latency corrected from
            // when it was due); a replacement joins the schedule where it stands, so a reconnect is not a burst.
            slot = joinsLate ? pace.firstSlot(id, now) : 0;
            nextIntended = pace.slotNanos(slot, id);
        } else if (intervalNanos > 0) {
            // Stagger connections across one interval so an open-loop rate does not arrive in bursts.
            nextIntended = now + Math.floorMod(id * 0x9E3779B97F4A7C15L, Math.max(1, intervalNanos));
        }
        fill(now);
        flush();
    }

    /**
     * Sends what the schedule allows now: all free slots in closed loop, every overdue request in open loop. A fill
     * called from within one (an answer that came as its call was made) returns at once: the outer fill's loop sees
     * the slot it freed, so the stack stays flat however many end that way.
     */
    final void fill(long now) {
        if (filling || closed || !ready || !pace.sending() || !mayFill()) {
            return;
        }
        filling = true;
        try {
            fillNow(now);
        } finally {
            filling = false;
        }
    }

    private void fillNow(long now) {
        if (!openLoop) {
            while (inFlight < depth && mayFill() && mayStart()) {
                send(now, now);
            }
            endFill();
        } else {
            while (inFlight < depth && nextIntended <= now && mayFill() && mayStart()) {
                send(nextIntended, now);
                nextIntended = intervalNanos > 0 ? nextIntended + intervalNanos : pace.slotNanos(++slot, id);
            }
            endFill();
            // Behind schedule with every slot taken: a reply will send the overdue request; otherwise wait in the heap,
            // unless nothing more may be started (a quota or the run's request limit spent: it would be due forever).
            // (Nor when the schedule has nothing more for it.)
            if (!queued && inFlight < depth && pace.sending() && quota > 0 && !pace.limitReached()
                    && nextIntended != Long.MAX_VALUE) {
                queued = true;
                heapKey = nextIntended;
                driver.schedule(this);
            }
        }
    }

    private boolean mayStart() {
        if (quota == 0 || !pace.mayStartRequest()) {
            return false;
        }
        if (quota != Long.MAX_VALUE && --quota == 0) {
            pace.laneExhausted();
        }
        return true;
    }

    /** This lane replaces {@code replaced}: if that one was sending, or joined late itself, this one joins late. */
    final void replaces(Lane replaced) {
        joinsLate = replaced.ready || replaced.joinsLate;
    }

    /** Whether the lane may send: connected, and over TLS or Noise, handshaken. */
    final boolean begun() {
        return ready;
    }

    /** Called by the driver when this lane's intended time has come. */
    final void fillAndReschedule(long now) {
        queued = false;
        fill(now);
    }

    /** Where this lane sits in its driver's heap: its intended time when it was queued. */
    final long heapKey() {
        return heapKey;
    }

    /** A request has started: counted in flight here and in the driver. */
    final void started() {
        inFlight++;
        driver.started();
    }

    /** {@code n} requests have ended (answered, failed or abandoned). */
    final void ended(int n) {
        inFlight -= n;
        driver.ended(n);
    }

    /**
     * Gives this lane a quota of its own (an RPC client's share of a phase): it starts {@code requests} more, then
     * tells the pace it is exhausted. On the lane's loop.
     */
    final void quota(long requests) {
        quota = requests;
        if (requests == 0) {
            pace.laneExhausted();
        }
    }

    /** Starts one request, intended at {@code intendedNanos}, sent now; calls {@link #started}. */
    abstract void send(long intendedNanos, long now);

    /** False while the lane must not send for a reason of its own. */
    boolean mayFill() {
        return !holdingAfterFailure;
    }

    /**
     * The workload failed to make a request (counted by the caller): this fill stops, and the lane tries again in
     * {@value #RETRY_AFTER_FAILED_REQUEST_MILLIS} ms, so a workload that always throws costs a retry every 10 ms rather
     * than a busy loop. On the lane's loop.
     */
    final void requestFailed() {
        if (holdingAfterFailure) {
            return;
        }
        holdingAfterFailure = true;
        driver.loop().schedule(() -> {
            holdingAfterFailure = false;
            fill(System.nanoTime());
            flush();
        }, RETRY_AFTER_FAILED_REQUEST_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** After a fill's sends: writes what they batched. */
    void endFill() {
    }

    /** Flushes what was written since the last flush, and publishes counts batched since. */
    void flush() {
    }

    /** Called by the driver's timeout sweep. */
    void checkTimeout(long now) {
    }

    /** Fails every request in flight (the run is over), once. */
    abstract void failOutstanding();
}
