package io.ricochet.loadgen.scenario;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.ricochet.codec.FrameHeader;
import io.ricochet.config.TransportKind;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.IoTransport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * UCloud-style UDP packet-rate and bandwidth test: each connected socket writes datagrams of one size
 * as fast as the socket takes them (or at a total {@code rate}), 64 per event-loop turn, and counts the
 * verified replies. Every datagram has the same body, so verifying costs one comparison per byte. It runs until
 * stopped and has no latency: its drain is a linger for replies still on their way.
 */
public final class UdpStream implements Load {
    private static final int BATCH = 64;

    private final InetSocketAddress target;
    private final int sockets;
    private final int size;
    private final int width;
    private final double rate;
    private final IoTransport io;
    private final MultiThreadIoEventLoopGroup group;
    private final byte[] body;
    private final byte[] reversed;
    private final List<Channel> channels = new ArrayList<>();
    public final LongAdder sent = new LongAdder();
    public final LongAdder received = new LongAdder();
    public final LongAdder bad = new LongAdder();
    private volatile boolean sending = true;
    private long startNanos;

    public UdpStream(InetSocketAddress target, int sockets, int size, int width, double rate, long seed,
            TransportKind kind, int ioThreads) {
        this.target = target;
        this.sockets = sockets;
        this.size = size;
        this.width = width;
        this.rate = rate;
        this.io = IoTransport.resolve(kind);
        this.group = io.newEventLoopGroup(ioThreads == 0 ? Runtime.getRuntime().availableProcessors() : ioThreads,
                "loadgen-udp");
        this.body = new byte[size];
        ByteBuf tmp = Unpooled.buffer(size);
        Payload.write(tmp, Payload.mix(seed), size);
        tmp.readBytes(body);
        tmp.release();
        this.reversed = new byte[size];
        for (int i = 0; i < size; i++) {
            reversed[i] = body[size - 1 - i];
        }
    }

    public IoTransport io() {
        return io;
    }

    public InetSocketAddress target() {
        return target;
    }

    @Override
    public void start() {
        startNanos = System.nanoTime();
        for (int i = 0; i < sockets; i++) {
            Channel ch = new Bootstrap().group(group).channel(io.datagramChannel())
                    .option(ChannelOption.SO_SNDBUF, 4 * 1024 * 1024)
                    .option(ChannelOption.SO_RCVBUF, 4 * 1024 * 1024)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(width + size + 1))
                    .handler(new Receiver())
                    .connect(target).syncUninterruptibly().channel();
            channels.add(ch);
            ch.eventLoop().execute(new Sender(ch));
        }
    }

    /** Writes a batch, then yields the event loop to reads and comes back. */
    private final class Sender implements Runnable {
        private final Channel ch;
        private long mine;

        Sender(Channel ch) {
            this.ch = ch;
        }

        @Override
        public void run() {
            if (!sending || !ch.isActive()) {
                return;
            }
            long allowed = BATCH;
            if (rate > 0) {
                double elapsed = (System.nanoTime() - startNanos) / 1e9;
                allowed = Math.min(BATCH, (long) (elapsed * rate / sockets) - mine);
            }
            int n = 0;
            while (n < allowed && ch.isWritable()) {
                ByteBuf buf = ch.alloc().ioBuffer(width + size);
                FrameHeader.setLength(buf, 0, width, size);
                buf.writerIndex(width).writeBytes(body);
                ch.write(buf, ch.voidPromise());
                n++;
            }
            mine += n;
            sent.add(n);
            ch.flush();
            if (n == 0 && rate > 0) {
                ch.eventLoop().schedule(this, 100, TimeUnit.MICROSECONDS);
            } else if (!ch.isWritable()) {
                ch.eventLoop().schedule(this, 50, TimeUnit.MICROSECONDS);
            } else {
                ch.eventLoop().execute(this);
            }
        }
    }

    private final class Receiver extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf content = msg instanceof DatagramPacket p ? p.content() : (ByteBuf) msg;
            try {
                if (matches(content)) {
                    received.increment();
                } else {
                    bad.increment();
                }
            } finally {
                content.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A refused datagram (ICMP port unreachable) surfaces here; the loss figure accounts for it.
        }
    }

    private boolean matches(ByteBuf content) {
        int ri = content.readerIndex();
        if (content.readableBytes() != width + size || FrameHeader.getLength(content, ri, width) != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (content.getByte(ri + width + i) != reversed[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public RunStats.Counts counts() {
        long ok = received.sum();
        return new RunStats.Counts(sent.sum(), ok, bad.sum(), 0, 0, ok * size, 0, 0);
    }

    @Override
    public int openConnections() {
        return sockets;
    }

    @Override
    public void drainLatencies(Latencies into) {
    }

    @Override
    public boolean openLoop() {
        return false;
    }

    @Override
    public boolean finished() {
        return false;
    }

    @Override
    public void stopSending() {
        sending = false;
    }

    /** Lingers for {@code linger}: a datagram's reply cannot be told apart from a lost one sooner. */
    @Override
    public void drain(Duration linger) throws InterruptedException {
        Thread.sleep(linger.toMillis());
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", "none (udp-stream counts datagrams; its latency.hlog holds empty intervals)");
        config.put("io", io.kind().label());
    }

    @Override
    public ProgressLine progressLine(Schedule schedule) {
        return ProgressLine.stream(schedule.duration(), bad::sum);
    }

    @Override
    public void close() {
        sending = false;
        for (Channel ch : channels) {
            ch.close().awaitUninterruptibly(1000);
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
