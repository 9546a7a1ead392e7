package io.ricochet.loadgen.scenario;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.ssl.SslHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * netperf TCP_CRR: each of {@code connections} workers loops connect, one request, verified reply,
 * close. A transaction's latency runs from the connect call to the verified reply; its timeout covers
 * the whole transaction.
 */
public final class CrrLoad extends FrameLoad {
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder opened = new LongAdder();
    private final LongAdder sentEarly = new LongAdder();
    private volatile boolean sending = true;
    private final boolean resume;

    public CrrLoad(LoadSpec spec) {
        this(spec, false);
    }

    /** @param resume over TLS, let transactions resume earlier sessions instead of a full handshake each */
    public CrrLoad(LoadSpec spec, boolean resume) {
        super(spec);
        this.resume = resume;
    }

    @Override
    public void start() {
        for (int w = 0; w < spec.connections(); w++) {
            int loop = w % loops.size();
            new Worker(w, loop).next();
        }
    }

    /** One worker's transactions, each on a fresh connection. */
    private final class Worker {
        private final long id;
        private final int loop;
        private long seq;

        Worker(long id, int loop) {
            this.id = id;
            this.loop = loop;
        }

        void next() {
            if (!sending || (spec.maxRequests() > 0 && stats.sent.sum() >= spec.maxRequests())) {
                return;
            }
            long begin = System.nanoTime();
            long s = seq++;
            active.incrementAndGet();
            stats.sent.increment();
            Transaction tx = new Transaction(this, s, begin);
            // Each transaction is a connection of its own: the workers' successive ones go round every target.
            long connection = id + s * spec.connections();
            InetSocketAddress target = spec.target(connection);
            ChannelFuture connected = frames.connect(target, spec.source(connection), loops.get(loop), tx);
            connected.addListener(f -> {
                if (!f.isSuccess()) {
                    connectFailed(target, f.cause());
                    tx.finish(false, false);
                } else {
                    connected(begin);
                }
            });
        }
    }

    /** One connection's single request. */
    private final class Transaction extends ChannelInboundHandlerAdapter {
        private final Worker worker;
        private final long seq;
        private final long begin;
        private boolean done;
        private ScheduledFuture<?> timeout;

        Transaction(Worker worker, long seq, long begin) {
            this.worker = worker;
            this.seq = seq;
            this.begin = begin;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            // Over TLS every transaction is a handshake: a full one unless --tls-resume lets it resume. Watched from
            // here, on the channel's loop, not from the connect's listener: a worker's first connect is made from the
            // starting thread, whose listener can run after the server has already closed on the handshake, and that
            // close would then be reported first, as an unanswered request.
            Handshakes.time(ctx.channel(), stats, firstFailure);
            // A QUIC stream opened while its connection is still handshaking carries its request as 0-RTT data.
            if (ctx.channel().parent() != null) {
                opened.increment();
                if (!ctx.channel().parent().isActive()) {
                    sentEarly.increment();
                }
            }
            int width = spec.lengthField().width();
            long base = payload.base(worker.id, seq);
            int size = payload.size(base);
            ByteBuf buf = ctx.alloc().ioBuffer(width + size);
            Payload.appendFrame(buf, width, base, size);
            ctx.writeAndFlush(buf, ctx.voidPromise());
            long left = spec.timeout().toNanos() - (System.nanoTime() - begin);
            timeout = ctx.executor().schedule(() -> {
                timedOut();
                finish(false, true);
                ctx.close();
            }, Math.max(0, left), TimeUnit.NANOSECONDS);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf body = (ByteBuf) msg;
            try {
                if (done) {
                    return;
                }
                long now = System.nanoTime();
                long base = payload.base(worker.id, seq);
                // Without --tls-resume, no resumption: the next transaction's handshake must be a full one.
                SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                if (ssl != null && !resume) {
                    ssl.engine().getSession().invalidate();
                }
                if (Payload.verifyReversed(body, base, payload.size(base))) {
                    stats.ok.increment();
                    stats.okBytes.add(body.readableBytes());
                    stats.recordReply(worker.loop, begin, begin, now, false);
                    finish(true, false);
                } else {
                    stats.bad.increment();
                    finish(true, false);
                }
            } finally {
                body.release();
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!done) {
                serverClosedOn(1);
            }
            finish(false, true);
            worker.next();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            firstFailure.compareAndSet(null, cause);
            ctx.close();
        }

        /** Ends the transaction once; an unanswered one is an error. Restarts the worker after a failed connect. */
        void finish(boolean answered, boolean countError) {
            if (done) {
                return;
            }
            done = true;
            if (timeout != null) {
                timeout.cancel(false);
            }
            if (!answered) {
                stats.errors.increment();
            }
            active.decrementAndGet();
            if (!countError && !answered) {
                // The connect failed, so no channelInactive will start the next one; pause briefly.
                loops.get(worker.loop).schedule(worker::next, 10, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public Summary.EarlyData earlyData() {
        return spec.protocol() == Protocol.QUIC ? new Summary.EarlyData(sentEarly.sum(), opened.sum()) : null;
    }

    @Override
    long tickNanos() {
        return 0;
    }

    @Override
    boolean requestLimitReached() {
        return spec.maxRequests() > 0 && stats.sent.sum() >= spec.maxRequests();
    }

    @Override
    public void stopSending() {
        sending = false;
    }

    @Override
    public void drain(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (active.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Override
    public void close() {
        sending = false;
        frames.close();
    }
}
