package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.ricochet.loadgen.report.ServerLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ServerWatchTest {
    private final List<HttpServer> servers = new ArrayList<>();
    private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    private final PrintStream warningStream = new PrintStream(warnings, true, StandardCharsets.UTF_8);

    @AfterEach
    void stopServers() {
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void anUnreachableScrapeIsReportedOnceAndLeavesTheFiguresMissing() {
        ServerWatch watch = new ServerWatch(List.of(URI.create("http://127.0.0.1:1/metrics")), warningStream);
        assertEquals(List.of(ServerSample.NONE), watch.sample().each());
        assertEquals(List.of(ServerSample.NONE), watch.sample().each());
        String text = warnings.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("warning: --scrape http://127.0.0.1:1/metrics failed ("), text);
        assertEquals(1, text.lines().count(), text);
        assertTrue(Double.isNaN(watch.summary(ServerSamples.NONE).cpuMax()));
    }

    @Test
    void scrapingSeveralServersSumsTheirCounters() throws IOException {
        AtomicReference<String> a = new AtomicReference<>(metrics(0.25, 100, 10, 1000, 5));
        AtomicReference<String> b = new AtomicReference<>(metrics(0.5, 300, 20, 2000, 7));
        URI ua = serve(a);
        URI ub = serve(b);
        ServerWatch watch = new ServerWatch(List.of(ua, ub), warningStream);

        ServerSamples base = watch.sample();
        assertEquals(new ServerSample(0.75, 400 * MIB, 30, 3000, 6000, 12), base.total());
        a.set(metrics(0.5, 150, 12, 1600, 9));
        b.set(metrics(0.75, 310, 25, 2400, 7));
        ServerSamples end = watch.sample();
        assertEquals(new ServerSample(1.25, 460 * MIB, 37, 4000, 8000, 16), end.total());

        ServerSummary s = watch.summary(base);
        assertEquals(ua + "," + ub, s.url());
        // The run's figures: the counters' growths summed, the peaks those of the summed samples.
        assertEquals(1000, s.framesSent());
        assertEquals(2000, s.framesReceived());
        assertEquals(4, s.rpcRequests());
        assertEquals(1.25, s.cpuMax());
        assertEquals(460 * MIB, s.rssMaxBytes());
        assertEquals(37, s.activeConnectionsMax());
        // Each server's own row.
        assertEquals(List.of(new ServerSummary(ua.toString(), 0.5, 150 * MIB, 12, 600, 1200, 4),
                new ServerSummary(ub.toString(), 0.75, 310 * MIB, 25, 400, 800, 0)), s.servers());
        StringWriter table = new StringWriter();
        ServerLines.print(s, new PrintWriter(table, true));
        assertEquals("server " + ua + ": cpu 50.0%, rss 150.0 MB, connections 12, frames.sent +600, rpc requests +4\n"
                + "server " + ub + ": cpu 75.0%, rss 310.0 MB, connections 25, frames.sent +400, rpc requests +0\n",
                table.toString().replace(System.lineSeparator(), "\n"));
        assertEquals(" (2 servers summed)", ServerLines.summed(s));
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aServerWhoseScrapeFailsIsReportedAndTheOthersStillCount() throws IOException {
        AtomicReference<String> live = new AtomicReference<>(metrics(0.25, 100, 10, 1000, 5));
        URI up = serve(live);
        URI down = URI.create("http://127.0.0.1:1/metrics");
        ServerWatch watch = new ServerWatch(List.of(down, up), warningStream);

        ServerSamples base = watch.sample();
        assertEquals(ServerSample.NONE, base.each().get(0));
        live.set(metrics(0.5, 120, 11, 1500, 5));
        assertEquals(new ServerSample(0.5, 120 * MIB, 11, 1500, 3000, 5), watch.sample().total());

        ServerSummary s = watch.summary(base);
        assertEquals(500, s.framesSent());
        assertEquals(0, s.rpcRequests());
        assertTrue(Double.isNaN(s.servers().get(0).framesSent()));
        assertEquals(500, s.servers().get(1).framesSent());
        String text = warnings.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("warning: --scrape " + down + " failed ("), text);
        assertEquals(1, text.lines().count(), text);
    }

    private static final double MIB = 1024 * 1024;

    /** An echo-server's /metrics with these figures (RSS in MiB), having received twice the frames it sent. */
    private static String metrics(double cpu, int rssMib, int active, long frames, long rpc) {
        return "# TYPE process_cpu_usage gauge\n"
                + "process_cpu_usage " + cpu + "\n"
                + "process_memory_rss_bytes " + (rssMib * MIB) + "\n"
                + "ricochet_connections_active{name=\"ricochet\",protocol=\"tcp\"} " + active + "\n"
                + "ricochet_frames_sent_total{io=\"epoll\",name=\"ricochet\",protocol=\"tcp\",role=\"server\"} " + frames + "\n"
                + "ricochet_frames_received_total{io=\"epoll\",name=\"ricochet\",protocol=\"tcp\",role=\"server\"} "
                + 2 * frames + "\n"
                + "ricochet_rpc_server_requests_seconds_count{method=\"m\",name=\"rpc\",status=\"OK\"} " + rpc + "\n";
    }

    /** A loopback HTTP endpoint answering /metrics with {@code body}'s current text. */
    private URI serve(AtomicReference<String> body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", exchange -> {
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }
}
