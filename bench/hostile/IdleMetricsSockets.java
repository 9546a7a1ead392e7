import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reliability issue's fault 5 peer, for bench/hostile-peers-2.sh: holds {@code idle} connections to the metrics
 * port without sending a byte, then asks {@code GET /health} on a new connection every 200 ms for {@code seconds},
 * reopening any held connection the server closed (as an attacker renewing its hold would). Prints one line:
 *
 * <pre>java bench/hostile/IdleMetricsSockets.java 127.0.0.1:9100 140 20</pre>
 */
public final class IdleMetricsSockets {
    public static void main(String[] args) throws Exception {
        String[] hostPort = args[0].split(":");
        InetSocketAddress target = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        int idle = Integer.parseInt(args[1]);
        long end = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < idle; i++) {
            held.add(open(target));
        }
        int asked = 0;
        int ok = 0;
        int reopened = 0;
        while (System.nanoTime() < end) {
            asked++;
            if (health(target)) {
                ok++;
            }
            // Renew the hold: a connection the server closed is opened again.
            for (int i = 0; i < held.size(); i++) {
                Socket s = held.get(i);
                if (closedByPeer(s)) {
                    s.close();
                    held.set(i, open(target));
                    reopened++;
                }
            }
            Thread.sleep(200);
        }
        for (Socket s : held) {
            s.close();
        }
        System.out.println("idle=" + idle + " health_asked=" + asked + " health_ok=" + ok + " reopened=" + reopened);
    }

    private static Socket open(InetSocketAddress target) throws IOException {
        Socket s = new Socket();
        s.connect(target, 5_000);
        s.setSoTimeout(1);
        return s;
    }

    private static boolean closedByPeer(Socket s) {
        try {
            return s.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static boolean health(InetSocketAddress target) {
        try (Socket s = new Socket()) {
            s.connect(target, 2_000);
            s.setSoTimeout(2_000);
            OutputStream out = s.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] status = in.readNBytes(12);
            return new String(status, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200");
        } catch (IOException e) {
            return false;
        }
    }
}
