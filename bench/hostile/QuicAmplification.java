import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicClientCodecBuilder;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * QUIC reflection from a spoofed address (issue 31, fault 3), as a client program. Run in source-file mode with the
 * echo server's jar on the class path (for Netty's QUIC client, which makes the Initials):
 *
 * <pre>java -cp echo-server.jar bench/hostile/QuicAmplification.java 127.0.0.1:7600 40</pre>
 *
 * Two probes, each from a socket of its own that sends one client Initial and then only listens, as the victim of a
 * spoofed source address would: {@code full} sends the client's whole first datagram (padded to 1,200 bytes), {@code
 * short} the same Initial packet cut to its own length (the padding after it dropped, about 265 bytes). Neither ever
 * acknowledges, so every byte the server sends back is what one spoofed datagram buys. For each probe: one line per
 * datagram received ({@code +ms size total ratio packets}, the packets coalesced in it as {@code type:length}, and
 * {@code pad:n} for zeros after them), then {@code probe=... sent=... received=... ratio=...}. RFC 9000 allows a ratio
 * of at most 3.00 (8.1), and none at all for the short one (14.1). The server's idle timeout ends the probes'
 * connections (30 s by default), so 40 s sees all it sends.
 */
public final class QuicAmplification {
    /** RFC 9000, 14.1: a client's Initial travels in a datagram of at least this many bytes. */
    private static final int MIN_INITIAL_DATAGRAM = 1200;

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: QuicAmplification HOST:PORT SECONDS");
        }
        String[] hostPort = args[0].split(":");
        InetSocketAddress target = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        long seconds = Long.parseLong(args[1]);
        byte[] full = capturedInitial();
        // A second capture, so the two probes are two connections (their connection IDs differ).
        byte[] other = capturedInitial();
        byte[] shortInitial = Arrays.copyOf(other, initialPacketLength(other));
        Probe[] probes = {new Probe("full", full, target, seconds), new Probe("short", shortInitial, target, seconds)};
        List<Thread> threads = new ArrayList<>();
        for (Probe probe : probes) {
            Thread thread = new Thread(probe, probe.name);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        for (Probe probe : probes) {
            System.out.print(probe.report);
        }
    }

    /** One socket: sends its datagram once, then records every datagram that comes back until the deadline. */
    private static final class Probe implements Runnable {
        private final String name;
        private final byte[] datagram;
        private final InetSocketAddress target;
        private final long seconds;
        private final StringBuilder report = new StringBuilder();

        Probe(String name, byte[] datagram, InetSocketAddress target, long seconds) {
            this.name = name;
            this.datagram = datagram;
            this.target = target;
            this.seconds = seconds;
        }

        @Override
        public void run() {
            try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                long start = System.nanoTime();
                long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
                socket.send(new DatagramPacket(datagram, datagram.length, target));
                long received = 0;
                byte[] buffer = new byte[65_536];
                while (true) {
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        break;
                    }
                    socket.setSoTimeout((int) left);
                    DatagramPacket in = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(in);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    received += in.getLength();
                    report.append(String.format("%s +%dms %d %d %.2f %s%n", name,
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), in.getLength(), received,
                            (double) received / datagram.length, packets(in.getData(), in.getLength())));
                }
                report.append(String.format("probe=%s sent=%d received=%d ratio=%.2f seconds=%d%n", name,
                        datagram.length, received, (double) received / datagram.length, seconds));
            } catch (Exception e) {
                report.append("probe=").append(name).append(" failed: ").append(e).append('\n');
            }
        }
    }

    /** A real client Initial: a Netty QUIC client's first datagram, caught by a socket that never answers. */
    static byte[] capturedInitial() throws Exception {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (DatagramSocket sink = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            sink.setSoTimeout(10_000);
            QuicSslContext tls = QuicSslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                    .applicationProtocols("ricochet").build();
            Channel datagram = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                    // The client's idle timeout bounds the server's (the smaller one wins): long, as an attacker's.
                    .handler(new QuicClientCodecBuilder().sslContext(tls).maxIdleTimeout(10, TimeUnit.MINUTES).build())
                    .bind(0).sync().channel();
            QuicChannel.newBootstrap(datagram).streamHandler(new ChannelInboundHandlerAdapter())
                    .remoteAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), sink.getLocalPort()))
                    .connect();
            DatagramPacket first = new DatagramPacket(new byte[2048], 2048);
            sink.receive(first);
            datagram.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
            if (first.getLength() < MIN_INITIAL_DATAGRAM) {
                throw new IllegalStateException("the client's first datagram has " + first.getLength() + " bytes");
            }
            return Arrays.copyOf(first.getData(), first.getLength());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * The length of the long-header packet at the start of {@code datagram} (RFC 9000, 17.2): what follows it is the
     * client's padding. Header protection covers neither the connection IDs nor the lengths, so no keys are needed.
     */
    static int initialPacketLength(byte[] datagram) {
        return longPacketLength(datagram, 0);
    }

    /** The length of the Initial, 0-RTT or Handshake packet at {@code start}; only an Initial has a token field. */
    static int longPacketLength(byte[] datagram, int start) {
        int at = start + 1 + 4;
        at += 1 + (datagram[at] & 0xff); // destination connection ID
        at += 1 + (datagram[at] & 0xff); // source connection ID
        if ((datagram[start] & 0x30) == 0) {
            long[] token = varint(datagram, at);
            at = (int) token[1] + (int) token[0];
        }
        long[] length = varint(datagram, at);
        return (int) length[1] + (int) length[0] - start;
    }

    /**
     * The QUIC packets coalesced in a datagram, as {@code type:length} (Initial, 0-RTT, Handshake, Retry, short header)
     * and {@code pad:n} for bytes after the last packet.
     */
    static String packets(byte[] datagram, int size) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < size) {
            int first = datagram[at] & 0xff;
            if (first == 0) {
                out.append("pad:").append(size - at);
                break;
            }
            if ((first & 0x80) == 0) {
                out.append("1rtt:").append(size - at);
                break;
            }
            String type = switch ((first & 0x30) >> 4) {
                case 0 -> "initial";
                case 1 -> "0rtt";
                case 2 -> "handshake";
                default -> "retry";
            };
            int length = type.equals("retry") ? size - at : longPacketLength(datagram, at);
            out.append(type).append(':').append(length).append(' ');
            at += length;
        }
        return out.toString().trim();
    }

    /** {value, offset after it} of the variable-length integer at {@code at} (RFC 9000, 16). */
    private static long[] varint(byte[] bytes, int at) {
        int size = 1 << ((bytes[at] & 0xff) >> 6);
        long value = bytes[at] & 0x3f;
        for (int i = 1; i < size; i++) {
            value = (value << 8) | (bytes[at + i] & 0xff);
        }
        return new long[] {value, at + size};
    }
}
