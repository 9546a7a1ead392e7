package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * netperf's TCP_CRR on any framed workload: each of {@code connections} lanes runs transactions of one request on a
 * connection of its own: connect, the request, its checked reply, close. A transaction's latency runs from the connect
 * call to the checked reply, and its timeout covers all of it. Over TLS each transaction is a handshake, a full one
 * unless {@code resume} lets it resume an earlier session; over QUIC a resumed connection may carry its request as
 * 0-RTT early data.
 */
public final class ConnectionPerRequest extends FrameLoad {
    private final LongAdder opened = new LongAdder();
    private final LongAdder sentEarly = new LongAdder();
    private final boolean resume;

    /** @param resume over TLS or QUIC, let transactions resume earlier sessions instead of a full handshake each */
    public ConnectionPerRequest(LoadSpec spec, FrameWorkload workload, boolean resume) {
        super(spec, workload);
        this.resume = resume;
    }

    @Override
    public void start() {
        startDrivers();
        for (int w = 0; w < spec.connections(); w++) {
            LoopDriver driver = drivers.get(w % drivers.size());
            TransactionLane lane = new TransactionLane(driver, w);
            driver.loop().execute(lane::open);
        }
    }

    /** One lane's transactions, each on a fresh connection; one conversation across them. */
    private final class TransactionLane extends Lane {
        private final ConnectionContext context;
        private FrameConversation conversation;
        private long seq;
        private Transaction current;

        TransactionLane(LoopDriver driver, long id) {
            super(driver, ConnectionPerRequest.this.pace, id, 1);
            this.context = context(id);
        }

        void open() {
            driver.add(this);
            conversation = ConnectionPerRequest.this.open(context);
            if (conversation != null) {
                begin();
            }
        }

        @Override
        void send(long intendedNanos, long now) {
            long s = seq;
            ConnectionContext request = context.at(s, now);
            int width = spec.lengthField().width();
            ByteBuf frame = ByteBufAllocator.DEFAULT.ioBuffer(64);
            try {
                RequestFrames.write(conversation, request, frame, width, spec.largestBody(), null);
            } catch (RuntimeException e) {
                frame.release();
                stats.sent.increment();
                workloadThrew(e, "request", request);
                requestFailed();
                return;
            }
            seq++;
            started();
            stats.sent.increment();
            Transaction tx = new Transaction(this, s, intendedNanos, now, frame);
            current = tx;
            // Each transaction is a connection of its own: the lanes' successive ones go round every target.
            long connection = id + s * spec.connections();
            InetSocketAddress target = spec.target(connection);
            ChannelFuture connected = frames.connect(target, spec.source(connection), driver.loop(), tx);
            connected.addListener(f -> {
                if (!f.isSuccess()) {
                    connectFailed(target, f.cause());
                    tx.end(false);
                    // No channelInactive will start the next one: pause briefly, then go on.
                    driver.loop().schedule(() -> fill(System.nanoTime()), 10, TimeUnit.MILLISECONDS);
                } else {
                    connected(now);
                }
            });
        }

        @Override
        void checkTimeout(long now) {
            Transaction tx = current;
            if (tx != null && !tx.done && now - tx.begin > timeout.toNanos()) {
                timedOut();
                tx.end(false);
                tx.close();
            }
        }

        @Override
        void failOutstanding() {
            Transaction tx = current;
            if (tx != null && !tx.done) {
                tx.end(false);
            }
        }
    }

    /** One connection's single request. */
    private final class Transaction extends ChannelInboundHandlerAdapter {
        private final TransactionLane lane;
        private final long seq;
        private final long intended;
        private final long begin;
        private ByteBuf request;
        private boolean done;
        /** Its reply came: a frame after it answers nothing. */
        private boolean replied;
        private Channel channel;

        Transaction(TransactionLane lane, long seq, long intended, long begin, ByteBuf request) {
            this.lane = lane;
            this.seq = seq;
            this.intended = intended;
            this.begin = begin;
            this.request = request;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            // Over TLS every transaction is a handshake: a full one unless resumed. Watched from here, on the channel's
            // loop, not from the connect's listener, whose first run may come after the server has already closed on
            // the handshake, and that close would then be reported first, as an unanswered request.
            Handshakes.time(ctx.channel(), stats);
            // A QUIC stream opened while its connection is still handshaking carries its request as 0-RTT data.
            if (ctx.channel().parent() != null) {
                opened.increment();
                if (!ctx.channel().parent().isActive()) {
                    sentEarly.increment();
                }
            }
            if (done) {
                // Timed out while connecting: its request was released then.
                ctx.close();
            } else {
                ByteBuf frame = request;
                request = null;
                ctx.writeAndFlush(frame, ctx.voidPromise());
            }
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf body = (ByteBuf) msg;
            try {
                if (done) {
                    if (replied) {
                        stats.unexpected.increment();
                        failed(() -> "connection " + lane.context.connection() + ": a frame after the reply to request "
                                + seq + ", with no request outstanding");
                    }
                    return;
                }
                replied = true;
                long now = System.nanoTime();
                // Without resumption asked for, none: the next transaction's handshake must be a full one.
                SslHandler ssl = ctx.pipeline().get(SslHandler.class);
                if (ssl != null && !resume) {
                    ssl.engine().getSession().invalidate();
                }
                int length = body.readableBytes();
                ConnectionContext context = lane.context.at(seq, begin);
                Check check;
                try {
                    check = CallLane.nonNull(lane.conversation.check(context, body));
                } catch (RuntimeException e) {
                    workloadThrew(e, "check", context);
                    end(true);
                    return;
                }
                if (check.isOk()) {
                    stats.ok.increment();
                    stats.okBytes.add(length);
                    stats.recordReply(lane.driver.index(), intended, begin, now, openLoop());
                } else {
                    stats.bad(context, check.reason());
                }
                end(true);
            } finally {
                body.release();
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!done) {
                // Each connection carries one request: whether the server had answered right is the run's to say.
                serverClosedOn(lane.context.connection(), seq, 1, 0, stats.ok.sum());
                end(false);
            }
            if (lane.current == this) {
                lane.current = null;
            }
            lane.fill(System.nanoTime());
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            stats.failed(cause);
            ctx.close();
        }

        /** Ends the transaction once; an unanswered one is an error. */
        void end(boolean answered) {
            if (done) {
                return;
            }
            done = true;
            if (!answered) {
                stats.errors.increment();
            }
            if (request != null) {
                // Never written: the connection never opened, or not in time.
                request.release();
                request = null;
            }
            lane.ended(1);
        }

        void close() {
            if (channel != null) {
                channel.close();
            }
        }
    }

    @Override
    public LoadFacts facts() {
        LoadFacts base = super.facts();
        return new LoadFacts(base.io(), base.latencyKind(), base.tlsSession(),
                spec.protocol() == Protocol.QUIC ? new LoadFacts.EarlyData(sentEarly.sum(), opened.sum()) : null,
                base.firstError(), base.firstBad(), base.requestSpanS(), Map.of(), List.of());
    }
}
