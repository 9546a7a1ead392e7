package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.codec.FrameHeader;
import io.ricochet.config.ServerConfig;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.loadgen.workload.FrameWorkload;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * UCloud's UDP packet-rate and bandwidth test on any framed workload: each connected socket writes datagrams as fast
 * as the socket takes them (or at the spec's total rate), {@value #BATCH} per event-loop turn, and checks every reply.
 * Replies are not matched to requests (a datagram may be lost, or come twice), so a check sees the reply's own count on
 * its socket as the sequence; the built-in workload sends one body throughout. It has no latency: its drain waits for
 * the replies still on their way, up to the linger, and loss is what never came.
 */
public final class DatagramStream extends FrameLoad {
    private static final int BATCH = 64;

    private final List<Channel> channels = new ArrayList<>();
    private final double rate;
    private long startNanos;

    public DatagramStream(LoadSpec spec, FrameWorkload workload) {
        super(spec, workload);
        this.rate = spec.rate();
    }

    public InetSocketAddress target() {
        return spec.targets().first();
    }

    @Override
    public void start() {
        startNanos = System.nanoTime();
        for (int i = 0; i < spec.connections(); i++) {
            LoopDriver driver = drivers.get(i % drivers.size());
            StreamLane lane = new StreamLane(driver, i);
            Channel ch = frames.connectDatagram(spec.target(i), spec.source(i), driver.loop(), lane.receiver(),
                    ServerConfig.DEFAULT_UDP_SOCKET_BUFFER).syncUninterruptibly().channel();
            channels.add(ch);
            stats.openConnections.incrementAndGet();
            driver.loop().execute(() -> lane.open(ch));
        }
    }

    /** One socket's stream: a sender that reschedules itself, and a receiver that checks what comes back. */
    private final class StreamLane extends Lane implements Runnable {
        private final ConnectionContext context;
        private final int width = spec.lengthField().width();
        private FrameConversation conversation;
        private Channel ch;
        private long sentHere;
        private long received;
        private int lastFrameBytes = 64;

        StreamLane(LoopDriver driver, long id) {
            super(driver, DatagramStream.this.pace, id, Integer.MAX_VALUE);
            this.context = context(id);
        }

        void open(Channel ch) {
            this.ch = ch;
            driver.add(this);
            conversation = DatagramStream.this.open(context);
            if (conversation != null) {
                run();
            }
        }

        /** Writes a batch, then yields the event loop to reads and comes back. */
        @Override
        public void run() {
            if (!pace.sending() || !ch.isActive()) {
                return;
            }
            long allowed = BATCH;
            if (rate > 0) {
                double elapsed = (System.nanoTime() - startNanos) / 1e9;
                allowed = Math.min(BATCH, (long) (elapsed * rate / spec.connections()) - sentHere);
            }
            int n = 0;
            long now = System.nanoTime();
            boolean failed = false;
            while (n < allowed && ch.isWritable() && pace.mayStartRequest()) {
                if (!write(now)) {
                    failed = true;
                    break;
                }
                n++;
            }
            sentHere += n;
            stats.sent.add(n);
            ch.flush();
            if (failed) {
                // The workload failed to make a datagram: try again shortly, not in a busy loop.
                ch.eventLoop().schedule(this, RETRY_AFTER_FAILED_REQUEST_MILLIS, TimeUnit.MILLISECONDS);
            } else if (n == 0 && rate > 0) {
                ch.eventLoop().schedule(this, 100, TimeUnit.MICROSECONDS);
            } else if (!ch.isWritable()) {
                ch.eventLoop().schedule(this, 50, TimeUnit.MICROSECONDS);
            } else {
                ch.eventLoop().execute(this);
            }
        }

        /** Writes one datagram; false (and counted as an error) if the workload failed to make it. */
        private boolean write(long now) {
            ConnectionContext request = context.at(sentHere, now);
            ByteBuf buf = ch.alloc().ioBuffer(lastFrameBytes);
            try {
                int size = RequestFrames.write(conversation, request, buf, width, spec.largestBody(), "datagram");
                lastFrameBytes = width + size;
            } catch (RuntimeException e) {
                buf.release();
                stats.sent.increment();
                workloadThrew(e, "request", request);
                return false;
            }
            started();
            ch.write(buf, ch.voidPromise());
            return true;
        }

        ChannelInboundHandlerAdapter receiver() {
            return new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ByteBuf content = msg instanceof DatagramPacket p ? p.content() : (ByteBuf) msg;
                    try {
                        received(content);
                    } finally {
                        content.release();
                    }
                }

                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    // A refused datagram (ICMP port unreachable) surfaces here; the loss figure accounts for it.
                }
            };
        }

        private void received(ByteBuf content) {
            ConnectionContext reply = context.at(received++, System.nanoTime());
            int size = content.readableBytes();
            if (conversation == null || size < width
                    || FrameHeader.getLength(content, content.readerIndex(), width) != size - width) {
                stats.bad(reply, "a datagram of " + size + " bytes whose length field does not match it");
            } else {
                content.skipBytes(width);
                Check check;
                try {
                    check = CallLane.nonNull(conversation.check(reply, content));
                } catch (RuntimeException e) {
                    workloadThrew(e, "check", reply);
                    ended(1);
                    return;
                }
                if (check.isOk()) {
                    stats.ok.increment();
                    stats.okBytes.add(size - width);
                } else {
                    stats.bad(reply, check.reason());
                }
            }
            ended(1);
        }

        @Override
        void send(long intendedNanos, long now) {
            // Paced by run(), not by the lane's fill.
        }

        /** Loss is not an error: what never came back is only no longer waited for. */
        @Override
        void failOutstanding() {
            if (inFlight > 0) {
                ended(inFlight);
            }
        }
    }

    /** Its rate paces datagrams, not requests with a latency: nothing is corrected. */
    @Override
    public boolean openLoop() {
        return false;
    }

    /** Datagrams are not timed; no connect histogram either, the sockets only bind. */
    @Override
    public boolean timesConnects() {
        return false;
    }

    @Override
    public String futile() {
        return null;
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", "none (udp-stream counts datagrams; its latency.hlog holds empty intervals)");
        config.put("io", io.kind().label());
    }

    @Override
    public Progress progress() {
        return new Progress.Stream(stats.bad::sum);
    }

    @Override
    public void close() {
        stopSending();
        finishDrivers();
        for (Channel ch : channels) {
            ch.close().awaitUninterruptibly(1000);
        }
        frames.close();
    }

    @Override
    public LoadFacts facts() {
        return new LoadFacts(io.label(), "none", null, null, firstError(), stats.firstBad.get(), 0, Map.of(),
                List.of());
    }
}
