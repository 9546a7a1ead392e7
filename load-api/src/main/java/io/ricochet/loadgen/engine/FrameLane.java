package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.noise.NoiseHandshakeCompletionEvent;
import io.ricochet.transport.client.FrameClient;

/**
 * One held connection's requests: its conversation makes each request's body and checks each reply, and this lane does
 * the rest. It writes whole frames (a closed loop's requests of one fill coalesced into one buffer), matches replies to
 * requests in order, records latency from the intended and the actual send, and fails requests that outlive the
 * timeout. Per request it keeps two numbers in a ring, nothing else; counts are published once per read or tick.
 * Event-loop confined.
 *
 * <p>Longer than 300 lines: sending, matching replies in order, timeouts and the counts all work on the one ring of
 * requests in flight.
 */
abstract class FrameLane extends Lane {
    /** A batch is written before it would grow past this; a larger request goes out in a buffer of its own. */
    static final int MAX_BATCH_BYTES = 256 * 1024;

    protected final HeldConnections load;
    protected final RunStats stats;
    protected final ConnectionContext context;
    /** The length field's width in bytes. */
    protected final int width;
    /** Whether requests made together go out as one buffer (a stream), or each as its own message (datagrams). */
    private final boolean coalescesRequests;
    private final int largestBody;
    private final int depth;
    private final long[] intended;
    private final long[] sentAt;
    private final int mask;
    private final long timeoutNanos;
    private final boolean openLoop;
    private final boolean timeBounds;
    protected ChannelHandlerContext ctx;
    /**
     * The connection, once its connect began; read by the load's close from another thread. The lanes array finds it,
     * where a set of channels beside the client's own cost each connection 110 B (an entry and a close listener).
     */
    private volatile Channel channel;
    protected FrameConversation conversation;
    private long nextSeq;
    private boolean wrote;
    /** Requests made by the current {@link #fill}, in one buffer, when they {@linkplain #coalescesRequests coalesce}. */
    private ByteBuf batch;
    /** The last request's frame size: how much room the next is given before it writes. */
    private int lastFrameBytes = 64;
    /** The largest body sent and the replies verified on this connection: the reason given when the server closes. */
    private int largestSent;
    private long okOnConnection;
    private boolean failed;
    /** Set when a connection schedule retires this lane: it sends nothing more, and closes once nothing is owed. */
    private boolean retiring;
    private long unpublishedSent;
    private long unpublishedOk;
    private long unpublishedOkBytes;

    FrameLane(HeldConnections load, LoopDriver driver, long id, boolean coalescesRequests) {
        super(driver, load.pace, id, load.spec().effectivePipeline());
        this.load = load;
        this.stats = load.stats;
        this.context = load.context(id);
        LoadSpec spec = load.spec();
        this.width = spec.lengthField().width();
        this.coalescesRequests = coalescesRequests;
        this.largestBody = spec.largestBody();
        this.depth = spec.effectivePipeline();
        // The smallest power of two that holds depth requests: 1 at depth 1, where 2 cost a held connection 16 B.
        int capacity = depth <= 1 ? 1 : Integer.highestOneBit(depth - 1) << 1;
        this.intended = new long[capacity];
        this.sentAt = new long[capacity];
        this.mask = capacity - 1;
        this.timeoutNanos = spec.timeout().toNanos();
        this.openLoop = spec.openLoop();
        this.timeBounds = spec.maxRequests() > 0;
    }

    /**
     * What one request goes in, for the message about a body too large for it: a constant (the length field is 2 or 4
     * bytes), where a string made for each connection cost it 80 B of heap.
     */
    private String carrier() {
        return !coalescesRequests ? "datagram" : width == 2 ? "frame with a 2-byte length field"
                : "frame with a 4-byte length field";
    }

    /** The connection this lane runs on, as its connect begins. */
    final void attach(Channel ch) {
        channel = ch;
    }

    /** Its connection, or null before its connect began. */
    final Channel channel() {
        return channel;
    }

    /** The channel handler that feeds this lane. */
    final ChannelInboundHandlerAdapter handler() {
        return new Handler();
    }

    @Override
    final void send(long intendedNanos, long now) {
        long seq = nextSeq;
        ConnectionContext request = context.at(seq, now);
        ByteBuf buf = batch;
        if (buf != null && buf.readableBytes() + (long) lastFrameBytes > MAX_BATCH_BYTES) {
            writeBatch();
            buf = null;
        }
        if (buf == null) {
            // Room for every free slot at the last request's size, up to the cap; it grows if later ones are larger.
            long room = coalescesRequests ? Math.min(MAX_BATCH_BYTES, (long) (depth - inFlight) * lastFrameBytes) : 0;
            buf = ctx.alloc().ioBuffer((int) Math.max(lastFrameBytes, room));
        }
        int start = buf.writerIndex();
        int size;
        try {
            size = RequestFrames.write(conversation, request, buf, width, largestBody, carrier());
        } catch (RuntimeException e) {
            // Not sent: the request counts as an error, and what it wrote is dropped.
            buf.writerIndex(start);
            if (buf != batch) {
                buf.release();
            }
            // The number is not used up: replies are matched to requests by it.
            unpublishedSent++;
            load.workloadThrew(e, "request", request);
            requestFailed();
            return;
        }
        nextSeq++;
        int slot = (int) (seq & mask);
        intended[slot] = intendedNanos;
        sentAt[slot] = now;
        started();
        unpublishedSent++;
        lastFrameBytes = width + size;
        if (size > largestSent) {
            largestSent = size;
        }
        if (timeBounds && stats.firstSendNanos.get() == 0) {
            stats.firstSendNanos.compareAndSet(0, now);
        }
        if (coalescesRequests) {
            batch = buf;
        } else {
            write(buf);
        }
        wrote = true;
    }

    @Override
    final void endFill() {
        writeBatch();
    }

    /** Writes the requests {@link #fill} put in one buffer, if any. */
    private void writeBatch() {
        if (batch != null) {
            ByteBuf requests = batch;
            batch = null;
            write(requests);
        }
    }

    /** Writes one request, or several in one buffer (without flushing). */
    protected void write(ByteBuf requests) {
        ctx.write(requests, ctx.voidPromise());
    }

    /** Handles what the channel read. */
    protected abstract void read(Object msg);

    /**
     * Checks and records the reply whose body is {@code body}'s readable bytes ({@code length} of them), received at
     * {@code now}; inside a batch of {@link RunStats#beginReplies}. Returns 1 if it ended a request in flight, else 0.
     */
    final int reply(ByteBuf body, int length, long now) {
        if (inFlight == 0) {
            unexpectedReply(body);
            return 0;
        }
        long seq = nextSeq - inFlight;
        int slot = (int) (seq & mask);
        ConnectionContext request = context.at(seq, sentAt[slot]);
        int reader = body.readerIndex();
        Check check;
        try {
            check = CallLane.nonNull(conversation.check(request, body));
        } catch (RuntimeException e) {
            inFlight--;
            load.workloadThrew(e, "check", request);
            return 1;
        }
        if (check.isOk()) {
            unpublishedOk++;
            okOnConnection++;
            unpublishedOkBytes += length;
            stats.recordBatchedReply(driver.index(), intended[slot], sentAt[slot], now, openLoop);
            inFlight--;
            if (timeBounds) {
                stats.lastReplyNanos.lazySet(now);
            }
            return 1;
        }
        body.readerIndex(reader);
        if (isLateReply(body)) {
            return 0;
        }
        stats.bad(context.at(seq, sentAt[slot]), check.reason());
        inFlight--;
        return 1;
    }

    /**
     * A frame when no request is outstanding, unless it answers a request already failed by its timeout: it answers
     * nothing, so it is counted apart from requests, never as one.
     */
    private void unexpectedReply(ByteBuf body) {
        if (!isLateReply(body)) {
            unexpected("a frame with no request outstanding");
        }
    }

    /** Counts a frame that answers no request, keeping {@code why} (with where it came) if it is the first failure. */
    protected final void unexpected(String why) {
        stats.unexpected.increment();
        long last = nextSeq - 1;
        load.failed(() -> "connection " + context.connection() + ": " + why + " ("
                + (last < 0 ? "before any request" : "after request " + last) + ")");
    }

    /** UDP may see replies to requests it already failed; TCP closes the connection on a timeout instead. */
    protected boolean isLateReply(ByteBuf body) {
        return false;
    }

    /** Ends the requests a read answered: counted in the driver, and the slots they freed filled. */
    final void afterReplies(int ended, long now) {
        if (ended > 0) {
            driver.ended(ended);
        }
        fill(now);
        closeIfRetired();
    }

    /**
     * Retires this connection (a connection schedule's target fell): it starts no more requests, and closes once the
     * replies it is owed are in, so nothing in flight is cut off and nothing reconnects. On the lane's loop.
     */
    final void retire() {
        retiring = true;
        closeIfRetired();
    }

    /**
     * Closes a retired lane once nothing is owed. One still in its TLS or Noise handshake closes when the handshake is
     * done: cut off, it would count as a failed handshake.
     */
    final void closeIfRetired() {
        if (retiring && inFlight == 0 && !closed && begun() && ctx != null && ctx.channel().isActive()) {
            flush();
            ctx.close();
        }
    }

    @Override
    final boolean mayFill() {
        return !retiring && super.mayFill();
    }

    @Override
    final void flush() {
        publishCounts();
        if (wrote) {
            wrote = false;
            ctx.flush();
        }
    }

    /** Adds this lane's counts to the run's, once per read batch or tick rather than per request. */
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

    @Override
    final void checkTimeout(long now) {
        if (inFlight > 0) {
            long oldest = nextSeq - inFlight;
            int slot = (int) (oldest & mask);
            if (now - sentAt[slot] > timeoutNanos) {
                load.timedOut();
                timedOut(oldest, sentAt[slot]);
            }
        }
    }

    /** TCP: fail every outstanding request and drop the connection, so no late reply can be taken as ok. */
    protected void timedOut(long oldestSeq, long sentNanos) {
        failOutstanding();
        ctx.close();
    }

    /** Gives up on the oldest request in flight (UDP: its datagram or its reply was lost): an error. */
    protected final void abandonOldest() {
        ended(1);
        stats.errors.increment();
    }

    /** The context of request {@code seq}, sent at {@code sentNanos}, to check a late reply against. */
    protected final ConnectionContext contextOf(long seq, long sentNanos) {
        return context.at(seq, sentNanos);
    }

    /** Counts every outstanding request as an error, once. */
    @Override
    final void failOutstanding() {
        publishCounts();
        if (inFlight > 0) {
            stats.errors.add(inFlight);
            ended(inFlight);
        }
    }

    /** The channel's events, turned into the lane's. */
    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            FrameLane.this.ctx = ctx;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            driver.add(FrameLane.this);
            stats.openConnections.incrementAndGet();
            if (retiring && FrameClient.handshakeFuture(ctx.channel()) == null) {
                // Retired while it connected: it was never needed. (A handshake is let finish: see closeIfRetired.)
                ctx.close();
                return;
            }
            conversation = load.open(context);
            if (conversation == null) {
                ctx.close();
                return;
            }
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
            if (handshaken && !closed && conversation != null) {
                begin();
                closeIfRetired();
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            read(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            flush();
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closed = true;
            if (batch != null) {
                // Left by a fill that failed half way: never written.
                batch.release();
                batch = null;
            }
            driver.remove(FrameLane.this);
            stats.openConnections.decrementAndGet();
            if (inFlight > 0) {
                // Every close of ours fails what is in flight first: this one is the server's.
                load.serverClosedOn(context.connection(), nextSeq - inFlight, inFlight, largestSent, okOnConnection);
            }
            failOutstanding();
            load.connectionClosed(FrameLane.this);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!failed) {
                failed = true;
                stats.failed(cause);
            }
            ctx.close();
        }
    }
}
