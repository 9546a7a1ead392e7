import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.SplittableRandom;

/**
 * A UDP relay for loss benchmarks on loopback: datagrams from clients go on to SERVER from a socket per client, and
 * the server's answers back to that client; each datagram, either way, is dropped with probability LOSS (a seeded
 * draw). One thread, no dependencies: run it with {@code java bench/lossy-relay/LossyRelay.java SERVER_PORT LOSS}.
 * It prints "listening udp 127.0.0.1:PORT" and, on SIGTERM, what it dropped each way. The tests' in-process relay
 * (framework's LossyRelay) also duplicates and reorders; this one only drops, so a benchmark's loss is the one asked.
 */
public final class LossyRelay {
    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
        double loss = Double.parseDouble(args[1]);
        SplittableRandom random = new SplittableRandom(16);
        long[] counts = new long[4]; // to server: received, dropped; to client: received, dropped
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.printf(
                "relay: to server %d received, %d dropped; to client %d received, %d dropped%n",
                counts[0], counts[1], counts[2], counts[3])));
        Selector selector = Selector.open();
        DatagramChannel front = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        front.configureBlocking(false).register(selector, SelectionKey.OP_READ);
        System.out.println("listening udp 127.0.0.1:" + ((InetSocketAddress) front.getLocalAddress()).getPort());
        System.out.flush();
        java.util.Map<SocketAddress, DatagramChannel> backs = new java.util.HashMap<>();
        ByteBuffer buf = ByteBuffer.allocateDirect(65_536);
        while (true) {
            selector.select();
            for (SelectionKey key : selector.selectedKeys()) {
                DatagramChannel ch = (DatagramChannel) key.channel();
                SocketAddress from;
                while ((from = receive(ch, buf)) != null) {
                    boolean toServer = ch == front;
                    counts[toServer ? 0 : 2]++;
                    if (random.nextDouble() < loss) {
                        counts[toServer ? 1 : 3]++;
                        continue;
                    }
                    if (toServer) {
                        DatagramChannel back = backs.get(from);
                        if (back == null) {
                            back = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                            back.configureBlocking(false).register(selector, SelectionKey.OP_READ, from);
                            backs.put(from, back);
                        }
                        back.send(buf, server);
                    } else {
                        front.send(buf, (SocketAddress) key.attachment());
                    }
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private static SocketAddress receive(DatagramChannel ch, ByteBuffer buf) throws java.io.IOException {
        buf.clear();
        SocketAddress from = ch.receive(buf);
        buf.flip();
        return from;
    }
}
