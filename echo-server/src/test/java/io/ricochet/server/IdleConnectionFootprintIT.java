package io.ricochet.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.config.TransportKind;
import io.ricochet.transport.IoTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Heap per idle TCP connection: a server JVM of its own holds 10,000 connections from this one; heap
 * after a full GC, before and after, divided. Prints the figures for docs/performance.md.
 *
 * <p>The target is 1 KiB. Netty's own objects for one accepted channel (channel, config, unsafe,
 * pipeline with head and tail, outbound buffer, channel id, cached local and remote addresses,
 * registration) come to about 1.06 KiB on epoll before Ricochet adds a handler, so the target is not
 * met; see docs/perf/history.md ("Memory per idle connection") for the breakdown. This test guards against regressions at 2.5 KiB (NIO carries a selection key and more per channel).
 * Run with {@code -Dtest.jvm.args=-Dfootprint.histogram=true} to keep a class histogram in target/.
 */
@Timeout(120)
class IdleConnectionFootprintIT {
    private static final int CONNECTIONS = 10_000;
    private static final long HEAP_GUARD_BYTES = 2560;

    private final HttpClient http = HttpClient.newHttpClient();

    @ParameterizedTest
    @EnumSource(value = TransportKind.class, names = {"NIO", "EPOLL", "IO_URING"})
    void anIdleConnectionStaysUnderTheHeapGuard(TransportKind transport) throws Exception {
        Assumptions.assumeTrue(IoTransport.isAvailable(transport), transport + " unavailable here");
        try (EchoServerProcess server = EchoServerProcess.start(List.of("-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:+StartAttachListener"),
                "--tcp-port", "0", "--udp-port", "-1", "--metrics-port", "0", "--idle-timeout", "10m",
                "--io-threads", "2", "--transport", transport.label())) {
            InetSocketAddress tcp = server.awaitListening("tcp");
            String metrics = "http://127.0.0.1:" + server.awaitListening("metrics").getPort() + "/metrics";
            // Warm up: load every class a connection touches before the baseline.
            List<SocketChannel> clients = connect(tcp, 200);
            await().atMost(30, TimeUnit.SECONDS).until(() -> gauge(metrics, "ricochet_connections_active{io=") == 200);
            closeAll(clients);
            await().atMost(30, TimeUnit.SECONDS).until(() -> gauge(metrics, "ricochet_connections_active{io=") == 0);

            double heapBefore = heapAfterGc(server, metrics);
            double rssBefore = gauge(metrics, "process_memory_rss_bytes");
            clients = connect(tcp, CONNECTIONS);
            try {
                await().atMost(60, TimeUnit.SECONDS)
                        .until(() -> gauge(metrics, "ricochet_connections_active{io=") == CONNECTIONS);
                double heapAfter = heapAfterGc(server, metrics);
                if (Boolean.getBoolean("footprint.histogram")) {
                    new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                            Long.toString(server.pid()), "GC.class_histogram").redirectOutput(new java.io.File("target/footprint-histogram-" + transport.label() + ".txt")).start().waitFor();
                }
                double rssAfter = gauge(metrics, "process_memory_rss_bytes");
                double heapPerConnection = (heapAfter - heapBefore) / CONNECTIONS;
                double rssPerConnection = (rssAfter - rssBefore) / CONNECTIONS;
                System.out.printf("footprint %s: %d idle connections, heap %.0f B/connection, RSS %.0f B/connection%n",
                        transport.label(), CONNECTIONS, heapPerConnection, rssPerConnection);
                assertTrue(heapPerConnection <= HEAP_GUARD_BYTES,
                        transport.label() + ": " + heapPerConnection + " B of heap per idle connection (guard 2560)");
            } finally {
                closeAll(clients);
            }
            assertEquals(0, server.terminate());
        }
    }

    private static List<SocketChannel> connect(InetSocketAddress server, int count) throws IOException {
        List<SocketChannel> clients = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            clients.add(SocketChannel.open(server));
        }
        return clients;
    }

    private static void closeAll(List<SocketChannel> clients) throws IOException {
        for (SocketChannel client : clients) {
            client.close();
        }
    }

    private double heapAfterGc(EchoServerProcess server, String metrics) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        for (int i = 0; i < 2; i++) {
            Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertTrue(gc.waitFor(30, TimeUnit.SECONDS), "jcmd GC.run timed out");
            assertEquals(0, gc.exitValue(), "jcmd GC.run failed");
        }
        return sum(metrics, "jvm_memory_used_bytes{area=\"heap\"");
    }

    private double gauge(String metrics, String series) throws Exception {
        return sum(metrics, series);
    }

    /** Sums every sample whose series starts with {@code prefix}. */
    private double sum(String metrics, String prefix) throws Exception {
        String body = http.send(HttpRequest.newBuilder(URI.create(metrics)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return body.lines()
                .filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
