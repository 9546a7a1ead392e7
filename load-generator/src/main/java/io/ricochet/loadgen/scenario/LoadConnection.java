package io.ricochet.loadgen.scenario;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.ricochet.codec.FrameHeader;
import io.ricochet.codec.FrameRun;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.noise.NoiseHandshakeCompletionEvent;
import io.ricochet.transport.FrameClient;

/**
 * One client connection's requests: sends them (closed loop: keeps the pipeline full; open loop: at
 * their intended times, waiting for a free slot when behind), verifies every reply against the body it
 * regenerates, records latency from the intended and the actual send, and fails requests that outlive
 * the timeout. Event-loop confined; the per-slot arrays are its only per-request state.
 */
abstract class LoadConnection extends ChannelInboundHandlerAdapter {
    /** A batch is written before it would grow past this; a larger request goes out in a buffer of its own. */
    static final int MAX_BATCH_BYTES = 256 * 1024;
    protected final EchoLoad load;
    protected final LoopDriver driver;
    protected final long id;
    protected final RunStats stats;
    protected final Payload payload;
    private final int width;
    private final int depth;
    private final long[] intended;
    private final long[] sentAt;
    private final int mask;
    private final long intervalNanos;
    private final long timeoutNanos;
    protected ChannelHandlerContext ctx;
    private long nextSeq;
    private int inFlight;
    private long nextIntended;
    private boolean wrote;
    /** Requests made by the current {@link #fill}, in one buffer, when they {@linkplain #coalescesRequests coalesce}. */
    private ByteBuf batch;
    private boolean failed;
    private boolean queued;
    private long unpublishedSent;
    private long unpublishedOk;
    private long unpublishedOkBytes;
    private final boolean timeBounds;
    private boolean closed;
    /** False until the connection may send: at once in plaintext, after the handshake over TLS or Noise. */
    private boolean ready;
    /** This connection's index in its driver's list, kept by the driver. */
    int driverSlot;

    LoadConnection(EchoLoad load, LoopDriver driver, long id) {
        this.load = load;
        this.driver = driver;
        this.id = id;
        this.stats = load.stats();
        this.payload = load.payload();
        LoadSpec spec = load.spec();
        this.width = spec.lengthField().width();
        this.depth = spec.effectivePipeline();
        int capacity = Integer.highestOneBit(Math.max(1, depth - 1)) << 1;
        this.intended = new long[capacity];
        this.sentAt = new long[capacity];
        this.mask = capacity - 1;
        this.intervalNanos = spec.openLoop() ? (long) (1e9 / spec.rateOfOneConnection()) : 0;
        this.timeoutNanos = spec.timeout().toNanos();
        this.timeBounds = spec.maxRequests() > 0;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        driver.add(this);
        stats.openConnections.incrementAndGet();
        // Over TLS or Noise the requests wait for the handshake, so none of it counts as the first requests' latency.
        if (FrameClient.handshakeFuture(ctx.channel()) == null) {
            begin();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        boolean handshaken = evt instanceof SslHandshakeCompletionEvent tls ? tls.isSuccess()
                : evt instanceof NoiseHandshakeCompletionEvent noise && noise.isSuccess();
        if (handshaken && !closed) {
            begin();
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void begin() {
        ready = true;
        long now = System.nanoTime();
        if (intervalNanos > 0) {
            // Stagger connections across one interval so an open-loop rate does not arrive in bursts.
            nextIntended = now + Math.floorMod(id * 0x9E3779B97F4A7C15L, Math.max(1, intervalNanos));
        }
        fill(now);
        flushIfWritten();
    }

    /** Sends what the schedule allows now: all free slots in closed loop, every overdue request in open loop. */
    final void fill(long now) {
        if (closed || !ready || !load.sending()) {
            return;
        }
        if (intervalNanos == 0) {
            while (inFlight < depth && load.mayStartRequest()) {
                send(now, now);
            }
            writeBatch();
        } else {
            while (inFlight < depth && nextIntended <= now && load.mayStartRequest()) {
                send(nextIntended, now);
                nextIntended += intervalNanos;
            }
            writeBatch();
            // Behind schedule with every slot taken: a reply will send the overdue request; otherwise wait in the heap.
            if (!queued && inFlight < depth && load.sending()) {
                queued = true;
                driver.schedule(this);
            }
        }
    }

    /** Called by the driver when this connection's intended time has come. */
    final void fillAndReschedule(long now) {
        queued = false;
        fill(now);
    }

    final long nextIntended() {
        return nextIntended;
    }

    private void send(long intendedNanos, long now) {
        long seq = nextSeq++;
        long base = payload.base(id, seq);
        int size = payload.size(base);
        int frameBytes = width + size;
        ByteBuf buf = batch;
        if (buf != null && buf.readableBytes() + (long) frameBytes > MAX_BATCH_BYTES) {
            writeBatch();
            buf = null;
        }
        if (buf == null) {
            // Room for every free slot at this request's size, up to the cap; it grows if later sizes are larger.
            long room = coalescesRequests() ? Math.min(MAX_BATCH_BYTES, (long) (depth - inFlight) * frameBytes) : 0;
            buf = ctx.alloc().ioBuffer((int) Math.max(frameBytes, room));
        }
        try {
            Payload.appendFrame(buf, width, base, size);
        } catch (RuntimeException e) {
            if (buf != batch) {
                buf.release();
            }
            throw e;
        }
        int slot = (int) (seq & mask);
        intended[slot] = intendedNanos;
        sentAt[slot] = now;
        inFlight++;
        unpublishedSent++;
        if (timeBounds && stats.firstSendNanos.get() == 0) {
            stats.firstSendNanos.compareAndSet(0, now);
        }
        if (coalescesRequests()) {
            batch = buf;
        } else {
            write(buf);
        }
        wrote = true;
    }

    /** Writes the requests {@link #fill} put in one buffer, if any. */
    private void writeBatch() {
        if (batch != null) {
            ByteBuf requests = batch;
            batch = null;
            write(requests);
        }
    }

    /** Whether requests made together go out as one buffer (a stream), or each as its own message (datagrams). */
    protected abstract boolean coalescesRequests();

    /** Writes one request, or several in one buffer (without flushing). */
    protected abstract void write(ByteBuf requests);

    /** Handles one reply body (readable bytes = the body); takes ownership. */
    final void onReply(ByteBuf body) {
        try {
            long now = System.nanoTime();
            long batch = stats.beginReplies(driver.index());
            try {
                reply(body, body.readerIndex(), body.readableBytes(), now);
            } finally {
                stats.endReplies(driver.index(), batch);
            }
            fill(now);
        } finally {
            body.release();
        }
    }

    /**
     * Handles a read's replies where they lie, taking ownership: one clock reading for all of them (they arrived
     * together), then the requests they free go out together.
     */
    final void onReplies(FrameRun run) {
        try {
            ByteBuf frames = run.content();
            long now = System.nanoTime();
            int at = frames.readerIndex();
            long batch = stats.beginReplies(driver.index());
            try {
                for (int i = run.count(); i > 0; i--) {
                    int length = (int) FrameHeader.getLength(frames, at, width);
                    reply(frames, at + width, length, now);
                    at += width + length;
                }
            } finally {
                stats.endReplies(driver.index(), batch);
            }
            fill(now);
        } finally {
            run.release();
        }
    }

    /**
     * Verifies and records the reply at {@code buf[index, index + length)}, received at {@code now}; inside a batch of
     * {@link RunStats#beginReplies}.
     */
    private void reply(ByteBuf buf, int index, int length, long now) {
        if (inFlight == 0) {
            unexpectedReply(buf, index, length);
            return;
        }
        long seq = nextSeq - inFlight;
        long base = payload.base(id, seq);
        int size = payload.size(base);
        if (Payload.verifyReversed(buf, index, length, base, size)) {
            int slot = (int) (seq & mask);
            unpublishedOk++;
            unpublishedOkBytes += size;
            stats.recordBatchedReply(driver.index(), intended[slot], sentAt[slot], now, intervalNanos > 0);
            inFlight--;
            if (timeBounds) {
                stats.lastReplyNanos.lazySet(now);
            }
        } else if (!isLateReply(buf, index, length)) {
            stats.bad.increment();
            inFlight--;
        }
    }

    /** A reply when none is outstanding: bad unless it answers a request already failed by its timeout. */
    private void unexpectedReply(ByteBuf buf, int index, int length) {
        if (!isLateReply(buf, index, length)) {
            stats.bad.increment();
        }
    }

    /** UDP may see replies to requests it already failed; TCP closes the connection on a timeout instead. */
    protected boolean isLateReply(ByteBuf buf, int index, int length) {
        return false;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushIfWritten();
        ctx.fireChannelReadComplete();
    }

    final void flushIfWritten() {
        publishCounts();
        if (wrote) {
            wrote = false;
            ctx.flush();
        }
    }

    /** Adds this connection's counts to the run's, once per read batch or tick rather than per request. */
    final void publishCounts() {
        if (unpublishedSent != 0) {
            stats.sent.add(unpublishedSent);
            unpublishedSent = 0;
        }
        if (unpublishedOk != 0) {
            stats.ok.add(unpublishedOk);
            stats.okBytes.add(unpublishedOkBytes);
            unpublishedOk = 0;
            unpublishedOkBytes = 0;
        }
    }

    /** Called by the driver's timeout sweep. */
    final void checkTimeout(long now) {
        if (inFlight > 0) {
            long oldest = nextSeq - inFlight;
            if (now - sentAt[(int) (oldest & mask)] > timeoutNanos) {
                load.timedOut();
                timedOut(oldest);
            }
        }
    }

    /** TCP: fail every outstanding request and drop the connection, so no late reply can be taken as ok. */
    protected void timedOut(long oldestSeq) {
        failOutstanding();
        ctx.close();
    }

    protected final void abandonOldest() {
        inFlight--;
        stats.errors.increment();
    }

    /** Counts every outstanding request as an error, once. */
    final void failOutstanding() {
        publishCounts();
        if (inFlight > 0) {
            stats.errors.add(inFlight);
            inFlight = 0;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (batch != null) {
            // Left by a fill that failed half way: never written.
            batch.release();
            batch = null;
        }
        driver.remove(this);
        stats.openConnections.decrementAndGet();
        if (inFlight > 0) {
            // Every close of ours fails what is in flight first: this one is the server's.
            load.serverClosedOn(inFlight);
        }
        failOutstanding();
        load.connectionClosed(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!failed) {
            failed = true;
            load.connectionFailed(cause);
        }
        ctx.close();
    }

    final boolean isClosed() {
        return closed;
    }

    final int inFlightCount() {
        return inFlight;
    }
}
