package io.ricochet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two echo-server processes with {@code --reuse-port} on one TCP port: the kernel spreads the connections over both,
 * and each answers and counts its own. 64 connections all reaching one process would happen once in 2^63 runs.
 */
@Timeout(90)
class ReusePortIT {
    private static final int CONNECTIONS = 64;
    private static final Pattern OPENED = Pattern.compile("^ricochet_connections_opened_total\\{[^}]*protocol=\"tcp\"[^}]*} (\\S+)$",
            Pattern.MULTILINE);

    @Test
    void twoProcessesShareOnePortAndBothServeConnections() throws Exception {
        try (EchoServerProcess first = EchoServerProcess.start("--reuse-port", "--tcp-port=0", "--udp-port=-1",
                "--metrics-port=0")) {
            InetSocketAddress tcp = first.awaitListening("tcp");
            InetSocketAddress firstMetrics = first.awaitListening("metrics");
            try (EchoServerProcess second = EchoServerProcess.start("--reuse-port", "--tcp-port=" + tcp.getPort(),
                    "--udp-port=-1", "--metrics-port=0")) {
                assertEquals(tcp.getPort(), second.awaitListening("tcp").getPort());
                InetSocketAddress secondMetrics = second.awaitListening("metrics");
                for (int i = 0; i < CONNECTIONS; i++) {
                    echoOnce(tcp);
                }
                double a = opened(firstMetrics);
                double b = opened(secondMetrics);
                assertEquals(CONNECTIONS, a + b, "every connection was served by one of the two");
                assertTrue(a > 0 && b > 0, "both processes served connections: " + a + " and " + b);
            }
        }
    }

    private static void echoOnce(InetSocketAddress server) throws Exception {
        try (Socket s = new Socket(server.getAddress(), server.getPort())) {
            s.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeShort(2);
            out.write(new byte[] {'a', 'b'});
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(2, in.readUnsignedShort());
            byte[] body = new byte[2];
            in.readFully(body);
            assertEquals("ba", new String(body, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    private static double opened(InetSocketAddress metrics) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://"
                + metrics.getHostString() + ":" + metrics.getPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = OPENED.matcher(text);
        assertTrue(m.find(), text);
        return Double.parseDouble(m.group(1));
    }
}
