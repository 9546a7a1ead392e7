import com.southernstorm.noise.protocol.HandshakeState;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 31's Noise handshake flood, as a client program for bench/noise-flood.sh: one process replays one
 * captured first handshake message to the Noise port as fast as it can, from many connections at once, while
 * one connection to the plaintext echo port does paced round trips whose latency it reports. Run in
 * source-file mode with the echo server's jar on the class path (for noise-java, which makes the message once):
 *
 * <pre>java -cp echo-server.jar bench/hostile/NoiseFlood.java NOISE_PORT PUBLIC_KEY TCP_PORT SECONDS [THREADS] [SERVER_PID]</pre>
 *
 * {@code NOISE_PORT} and {@code TCP_PORT} are {@code host:port}; {@code THREADS} flooding connections in flight at
 * once (default 8; 0 measures the round trips alone, the baseline); {@code SERVER_PID} adds the server's CPU from
 * /proc. Prints one line of {@code key=value} results.
 *
 * <p>With {@code tls} for {@code PUBLIC_KEY}, the port is a TLS port and the message replayed is a TLS 1.3
 * ClientHello the JDK's engine wrote once (issue 45's flood, for bench/tls-flood.sh): each costs the server a key
 * agreement and a signature, as a real client's does.
 */
public final class NoiseFlood {
    /** One probe round trip this often: paced, so a stall shows as latency and not as fewer probes. */
    private static final long PROBE_INTERVAL_NANOS = 5_000_000;
    private static final int PROBE_BODY = 32;

    public static void main(String[] args) throws Exception {
        InetSocketAddress noise = address(args[0]);
        InetSocketAddress tcp = address(args[2]);
        int seconds = Integer.parseInt(args[3]);
        int threads = args.length > 4 ? Integer.parseInt(args[4]) : 8;
        long pid = args.length > 5 ? Long.parseLong(args[5]) : -1;

        byte[] first = args[1].equals("tls") ? clientHello() : firstMessage(Base64.getDecoder().decode(args[1]));
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong failedConnects = new AtomicLong();
        Thread[] flooders = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            flooders[i] = new Thread(() -> flood(noise, first, running, answered, refused, failedConnects), "flood-" + i);
            flooders[i].setDaemon(true);
        }
        long cpuBefore = cpuTicks(pid);
        long start = System.nanoTime();
        for (Thread flooder : flooders) {
            flooder.start();
        }
        long[] latencies = probe(tcp, seconds);
        long elapsed = System.nanoTime() - start;
        long cpuAfter = cpuTicks(pid);
        running.set(false);
        for (Thread flooder : flooders) {
            flooder.join(5_000);
        }
        double secs = elapsed / 1e9;
        Arrays.sort(latencies);
        StringBuilder line = new StringBuilder();
        line.append("flood_threads=").append(threads)
                .append(" answered_per_s=").append(Math.round(answered.get() / secs))
                .append(" refused_per_s=").append(Math.round(refused.get() / secs))
                .append(" connect_failures=").append(failedConnects.get())
                .append(" probes=").append(latencies.length)
                .append(String.format(" probe_p50_ms=%.2f probe_p99_ms=%.2f probe_max_ms=%.2f",
                        percentile(latencies, 0.50) / 1e6, percentile(latencies, 0.99) / 1e6,
                        latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e6));
        if (pid > 0) {
            line.append(String.format(" server_cpu_pct=%.0f", 100.0 * (cpuAfter - cpuBefore) / 100.0 / secs));
        }
        System.out.println(line);
    }

    /** The client's first NK message to {@code serverKey} with the payload a real client sends: made once, replayed. */
    static byte[] firstMessage(byte[] serverKey) throws Exception {
        HandshakeState handshake = new HandshakeState("Noise_NK_25519_AESGCM_SHA256", HandshakeState.INITIATOR);
        byte[] prologue = "ricochet-noise/1".getBytes(StandardCharsets.US_ASCII);
        handshake.setPrologue(prologue, 0, prologue.length);
        handshake.getRemotePublicKey().setPublicKey(serverKey, 0);
        handshake.start();
        byte[] message = new byte[2 + 128];
        int length = handshake.writeMessage(message, 2, new byte[] {1, 1, 32}, 0, 3);
        message[0] = (byte) (length >>> 8);
        message[1] = (byte) length;
        handshake.destroy();
        return Arrays.copyOf(message, 2 + length);
    }

    /** A TLS 1.3 ClientHello as the JDK's client engine writes it, for any server (no SNI, no ALPN). */
    static byte[] clientHello() throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLSv1.3");
        context.init(null, null, null);
        javax.net.ssl.SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(java.nio.ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    /** Connect, send the message, wait for the answer or the close, reset; again until stopped. */
    private static void flood(InetSocketAddress target, byte[] first, AtomicBoolean running, AtomicLong answered,
            AtomicLong refused, AtomicLong failedConnects) {
        byte[] answer = new byte[64];
        while (running.get()) {
            try (Socket socket = new Socket()) {
                socket.setSoLinger(true, 0);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(2_000);
                try {
                    socket.connect(target, 2_000);
                } catch (IOException e) {
                    failedConnects.incrementAndGet();
                    continue;
                }
                socket.getOutputStream().write(first);
                InputStream in = socket.getInputStream();
                int got = 0;
                for (int n; got < 2 && (n = in.read(answer, got, answer.length - got)) > 0; ) {
                    got += n;
                }
                if (got >= 2) {
                    answered.incrementAndGet();
                } else {
                    refused.incrementAndGet();
                }
            } catch (IOException e) {
                // Reset or timed out: the server did not answer.
                refused.incrementAndGet();
            }
        }
    }

    /** Paced reversed-echo round trips on one plaintext connection (2-byte length field) for {@code seconds}. */
    private static long[] probe(InetSocketAddress target, int seconds) throws IOException {
        long[] latencies = new long[seconds * (int) (1_000_000_000L / PROBE_INTERVAL_NANOS) + 16];
        int count = 0;
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            socket.connect(target, 5_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] body = new byte[PROBE_BODY];
            byte[] reply = new byte[PROBE_BODY];
            byte[] frame = new byte[2 + PROBE_BODY];
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long next = System.nanoTime();
            for (int i = 0; System.nanoTime() < end && count < latencies.length; i++) {
                Arrays.fill(body, (byte) i);
                body[0] = (byte) (i >>> 8);
                frame[0] = 0;
                frame[1] = PROBE_BODY;
                System.arraycopy(body, 0, frame, 2, PROBE_BODY);
                long sent = System.nanoTime();
                out.write(frame);
                if (in.readUnsignedShort() != PROBE_BODY) {
                    throw new IOException("probe: a reply of another length");
                }
                in.readFully(reply);
                latencies[count++] = System.nanoTime() - sent;
                for (int b = 0; b < PROBE_BODY; b++) {
                    if (reply[b] != body[PROBE_BODY - 1 - b]) {
                        throw new IOException("probe: a reply that is not the body reversed");
                    }
                }
                // Paced from the schedule, not from the reply, so a stall is not hidden by fewer probes.
                next += PROBE_INTERVAL_NANOS;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
        }
        return Arrays.copyOf(latencies, count);
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** utime + stime of {@code pid} in clock ticks (100 a second), or 0 without one. */
    private static long cpuTicks(long pid) throws IOException {
        if (pid <= 0) {
            return 0;
        }
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // Fields after the command, which is in parentheses and may hold spaces.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private NoiseFlood() {
    }
}
