package io.ricochet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The echo server under a 1,024 open-file limit, a common container default, with every connection its budget allows
 * open and 128 idle sockets on its metrics port from 16 addresses: every {@code /health} is answered. With the budget at
 * seven eighths of the limit, the metrics port's accepts failed with EMFILE, no probe was answered for 20 s, and each
 * failure logged a stack trace.
 */
@Timeout(120)
class DescriptorExhaustionIT {
    private static final int LIMIT = 1024;
    private static final Pattern BUDGET = Pattern.compile("at most ([0-9,]+) over all TCP ports \\(open-file limit "
            + "1,024, kept ([0-9,]+): ");

    @Test
    void healthIsAnsweredWithEveryConnectionTheBudgetAllowsOpen() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "no prlimit here (util-linux)");
        List<Socket> sockets = new ArrayList<>();
        try (EchoServerProcess server = EchoServerProcess.start(List.of("/usr/bin/prlimit", "--nofile=" + LIMIT + ":"
                + LIMIT, "--"), List.of(), "--tcp-port=0", "--udp-port=-1", "--metrics-port=0", "--io-threads=1")) {
            InetSocketAddress tcp = server.awaitListening("tcp");
            InetSocketAddress metrics = server.awaitListening("metrics");
            String line = server.stderr().lines().filter(l -> l.startsWith("connections: ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no budget line: " + server.stderr()));
            Matcher budget = BUDGET.matcher(line);
            assertTrue(budget.find(), line);
            int connections = Integer.parseInt(budget.group(1).replace(",", ""));
            assertEquals(LIMIT, connections + Integer.parseInt(budget.group(2).replace(",", "")), line);
            // Every connection the budget allows, and some past it, which are closed at once.
            for (int i = 0; i < connections + 20; i++) {
                sockets.add(connect(null, tcp));
            }
            // Idle sockets on the metrics port, 8 from each of 16 addresses: its whole cap of 128.
            for (int host = 2; host <= 17; host++) {
                for (int i = 0; i < 8; i++) {
                    sockets.add(connect("127.0.0." + host, metrics));
                }
            }
            for (int probe = 0; probe < 5; probe++) {
                assertEquals("HTTP/1.1 200 OK", health(metrics), "probe " + probe + "; stderr: " + server.stderr());
            }
            long acceptFailures = server.stderr().lines().filter(l -> l.contains("accept failed")).count();
            assertTrue(acceptFailures <= 1, "accept failures logged: " + server.stderr());
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    private static Socket connect(String from, InetSocketAddress to) throws IOException {
        Socket socket = new Socket();
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(to, 5_000);
        return socket;
    }

    /** The status line of a {@code GET /health}, within 5 s. */
    private static String health(InetSocketAddress metrics) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(metrics, 5_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder status = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\r') {
                status.append((char) c);
            }
            return status.toString();
        }
    }
}
