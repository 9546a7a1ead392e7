import com.google.protobuf.ByteString;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.Route;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The hostile peers of the hardening issue, as a client program for bench/hostile-peers.sh. Run in
 * source-file mode with the echo server's jar on the class path (for the RPC envelope classes):
 *
 * <pre>java -cp echo-server.jar bench/hostile/HostilePeers.java rst 127.0.0.1:7000 2000</pre>
 *
 * Each attack prints one line of {@code key=value} results.
 */
public final class HostilePeers {
    public static void main(String[] args) throws Exception {
        String[] hostPort = args[1].split(":");
        InetSocketAddress target = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        switch (args[0]) {
            case "rst" -> rst(target, Integer.parseInt(args[2]));
            case "owed" -> owed(target, Integer.parseInt(args[2]));
            case "relay" -> relay(target, Integer.parseInt(args[2]));
            case "metrics" -> metrics(target, Integer.parseInt(args[2]));
            default -> throw new IllegalArgumentException("attack: " + args[0] + " (expected: rst, owed, relay, metrics)");
        }
    }

    /** Connect, send one byte (half a length field), reset: n times. */
    static void rst(InetSocketAddress target, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            try (Socket socket = new Socket()) {
                socket.connect(target, 5_000);
                socket.getOutputStream().write(1);
                socket.setSoLinger(true, 0);
            }
        }
        System.out.println("rst_connections=" + n);
    }

    /** 200 valid frames, a length-0 frame, then 2 MB more, in one write; were all 200 replies delivered? */
    static void owed(InetSocketAddress target, int trials) throws Exception {
        int complete = 0;
        int resets = 0;
        long replies = 0;
        for (int t = 0; t < trials; t++) {
            ByteBuffer wire = ByteBuffer.allocate(200 * 66 + 2 + 2 * 1024 * 1024);
            for (int i = 0; i < 200; i++) {
                wire.putShort((short) 64).put(new byte[64]);
            }
            wire.putShort((short) 0);
            try (Socket socket = new Socket()) {
                socket.setSoTimeout(10_000);
                socket.connect(target, 5_000);
                Thread writer = new Thread(() -> {
                    try {
                        socket.getOutputStream().write(wire.array());
                        socket.shutdownOutput();
                    } catch (IOException e) {
                        // The reader tells what was lost.
                    }
                });
                writer.start();
                DataInputStream in = new DataInputStream(socket.getInputStream());
                int got = 0;
                try {
                    while (true) {
                        in.readFully(new byte[in.readUnsignedShort()]);
                        got++;
                    }
                } catch (EOFException e) {
                    // End of stream: a clean close.
                } catch (IOException e) {
                    resets++;
                }
                writer.join(10_000);
                replies += got;
                complete += got == 200 ? 1 : 0;
            }
        }
        System.out.println("trials=" + trials + " all_200_replies=" + complete + " resets=" + resets
                + " replies=" + replies + "/" + 200L * trials);
    }

    /** A route owner that never reads (4 KiB window), and a caller sending 1 MiB calls with 1 ms deadlines. */
    static void relay(InetSocketAddress target, int seconds) throws Exception {
        Socket owner = new Socket();
        owner.setReceiveBufferSize(4096);
        owner.connect(target, 5_000);
        DataOutputStream ownerOut = new DataOutputStream(owner.getOutputStream());
        send(ownerOut, Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod("agent.register")
                .setTimeoutMicros(1_000_000).setPayload(Route.newBuilder().setUri("sink").build().toByteString()).build());
        receive(new DataInputStream(owner.getInputStream()));
        try (Socket caller = new Socket()) {
            caller.connect(target, 5_000);
            DataOutputStream out = new DataOutputStream(caller.getOutputStream());
            DataInputStream in = new DataInputStream(caller.getInputStream());
            ByteString mib = ByteString.copyFrom(new byte[1 << 20]);
            long[] statuses = new long[16];
            Thread reader = new Thread(() -> {
                try {
                    while (true) {
                        statuses[receive(in).getStatusValue()]++;
                    }
                } catch (IOException e) {
                    // Closed at the end.
                }
            });
            reader.setDaemon(true);
            reader.start();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long sent = 0;
            String ending = "ran " + seconds + " s";
            try {
                while (System.nanoTime() < end) {
                    send(out, Envelope.newBuilder().setId(sent + 1).setKind(Kind.REQUEST).setMethod("sink")
                            .setTimeoutMicros(1_000).setPayload(mib).build());
                    sent++;
                }
            } catch (IOException e) {
                ending = "the server dropped the caller (" + e.getMessage() + ")";
            }
            Thread.sleep(1_000);
            System.out.println(ending + ": calls=" + sent + " answered_ok=" + statuses[0]
                    + " deadline_exceeded=" + statuses[3] + " resource_exhausted=" + statuses[6]);
        } finally {
            owner.close();
        }
    }

    /** n pipelined GET /metrics on one connection (4 KiB window) that never reads. */
    static void metrics(InetSocketAddress target, int n) throws IOException {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(target, 5_000);
            socket.setSoTimeout(1_000);
            OutputStream out = socket.getOutputStream();
            byte[] request = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            int written = 0;
            try {
                for (; written < n; written++) {
                    out.write(request);
                }
            } catch (IOException e) {
                // Closed by the server: the endpoint's limit.
            }
            System.out.println("pipelined_requests=" + written + "/" + n);
        }
    }

    private static void send(DataOutputStream out, Envelope envelope) throws IOException {
        byte[] bytes = envelope.toByteArray();
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }

    private static Envelope receive(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return Envelope.parseFrom(bytes);
    }

    private HostilePeers() {
    }
}
