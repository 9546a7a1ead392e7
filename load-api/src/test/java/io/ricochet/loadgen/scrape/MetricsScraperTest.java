package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MetricsScraperTest {

    @Test
    void framesAreTheServersEchoProtocolsWithTlsOnly() throws Exception {
        ServerSample sample = MetricsScraper.parse("""
                # TYPE ricochet_frames_sent_total counter
                ricochet_frames_sent_total{io="epoll",name="ricochet",protocol="tcp",role="server"} 100.0
                ricochet_frames_sent_total{io="epoll",name="ricochet",protocol="udp",role="server"} 20.0
                ricochet_frames_sent_total{io="epoll",name="tls",protocol="tls",role="server"} 4.0
                ricochet_frames_sent_total{io="epoll",name="rpc",protocol="rpc",role="server"} 7.0
                ricochet_frames_sent_total{io="epoll",name="load",protocol="tcp",role="client"} 3.0
                ricochet_frames_received_total{io="epoll",name="ricochet",protocol="udp",role="server"} 30.0
                ricochet_frames_received_total{io="epoll",name="rpc",protocol="rpc",role="server"} 7.0
                ricochet_rpc_server_requests_seconds_count{method="m",name="rpc",status="OK"} 5.0
                """);
        assertEquals(124.0, sample.framesSent());
        assertEquals(30.0, sample.framesReceived());
        assertEquals(5.0, sample.rpcRequests());
    }

    /** An echo-server from before the protocol and role tags: its frames still count. */
    @Test
    void aServerWithTheOlderTransportTagStillCountsItsFrames() throws Exception {
        ServerSample sample = MetricsScraper.parse("""
                # TYPE ricochet_frames_sent_total counter
                ricochet_frames_sent_total{transport="tcp"} 100.0
                ricochet_frames_sent_total{transport="udp"} 20.0
                ricochet_frames_sent_total{transport="rpc"} 7.0
                """);
        assertEquals(120.0, sample.framesSent());
    }

    @Test
    void noEchoFramesIsNaNNotZero() throws Exception {
        ServerSample sample = MetricsScraper.parse("ricochet_frames_sent_total{transport=\"rpc\"} 7.0\n");
        assertEquals(Double.NaN, sample.framesSent());
    }

    /**
     * OpenMetrics, as a server asked for it writes it: each series' exemplar and {@code _created} are not its value,
     * and an escaped quote in another label is not the end of its value.
     */
    @Test
    void openMetricsExemplarsAndEscapesAreNotMistakenForValues() throws Exception {
        ServerSample sample = MetricsScraper.parse("""
                # TYPE ricochet_frames_sent counter
                # HELP ricochet_frames_sent Frames sent.
                ricochet_frames_sent_total{name="a \\\"b\\\" } 9",protocol="tcp",role="server"} 100.0 # {trace_id="t"} 1.0 1.7e9
                ricochet_frames_sent_created{name="a",protocol="tcp",role="server"} 1.7e9
                ricochet_frames_sent_total{name="x\\\",protocol=\\\"tcp",protocol="rpc",role="server"} 7.0
                # TYPE process_cpu_usage gauge
                process_cpu_usage 0.25 1700000000.5
                # EOF
                """);
        assertEquals(100.0, sample.framesSent());
        assertEquals(0.25, sample.cpu());
    }

    @Test
    void aBodyThatIsNotAnExpositionIsRefused() {
        ExpositionException e = assertThrows(ExpositionException.class,
                () -> MetricsScraper.parse("process_cpu_usage 0.5\n<html>Not found</html>\n"));
        assertEquals(2, e.line());
    }

    /** A server cannot make a scrape hold more than the bound, whether it says its length or not. */
    @Test
    @Timeout(30)
    void aBodyOverTheBoundFailsTheScrape() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/declared", exchange -> {
            exchange.sendResponseHeaders(200, MetricsScraper.MAX_BODY_BYTES + 1L);
            writeLines(exchange.getResponseBody(), MetricsScraper.MAX_BODY_BYTES + 1L);
        });
        server.createContext("/chunked", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            writeLines(exchange.getResponseBody(), 4L * MetricsScraper.MAX_BODY_BYTES);
        });
        server.createContext("/ok", exchange -> {
            byte[] body = "process_cpu_usage 0.5\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            var http = MetricsScraper.newClient();
            assertEquals(0.5, new MetricsScraper(URI.create(base + "/ok"), http).sample().get(20, TimeUnit.SECONDS).cpu());
            for (String path : new String[] {"/declared", "/chunked"}) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> new MetricsScraper(URI.create(base + path), http).sample().get(20, TimeUnit.SECONDS));
                IOException cause = assertInstanceOf(IOException.class, e.getCause(), path);
                assertTrue(cause.getMessage().contains("expected: <= " + MetricsScraper.MAX_BODY_BYTES), cause.getMessage());
            }
        } finally {
            server.stop(0);
        }
    }

    /** {@code length} bytes of a valid exposition, or as many as the client reads before it hangs up. */
    private static void writeLines(OutputStream out, long length) {
        byte[] line = "process_cpu_usage 0.5\n".getBytes(StandardCharsets.UTF_8);
        byte[] block = new byte[64 * 1024];
        for (int i = 0; i < block.length; i++) {
            block[i] = line[i % line.length];
        }
        try (out) {
            for (long sent = 0; sent < length; sent += block.length) {
                out.write(block, 0, (int) Math.min(block.length, length - sent));
            }
        } catch (IOException hungUp) {
            // The client stopped reading: as it should.
        }
    }
}
