package io.ricochet.loadgen.scrape;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Reads a server's {@code /metrics} (Prometheus text or OpenMetrics, see {@link ExpositionParser}) into a {@link ServerSample}. */
public final class MetricsScraper {
    /**
     * The largest body read, in bytes: a big node exporter's is a few MB. A longer one fails the scrape as soon as
     * its length is known, from its Content-Length or as it arrives, and is not read further.
     */
    public static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private final URI uri;
    private final HttpClient http;

    /** @param http shared by the scrapers of one run: one client, not one per server */
    public MetricsScraper(URI uri, HttpClient http) {
        this.uri = uri;
        this.http = http;
    }

    /** The client every scraper of a run shares. */
    public static HttpClient newClient() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    public URI uri() {
        return uri;
    }

    /**
     * One scrape, under way: it fails with an {@link IOException} for an answer other than 200, a body of more than
     * {@link #MAX_BODY_BYTES}, or one that is not an exposition ({@link ExpositionException}).
     */
    public CompletableFuture<ServerSample> sample() {
        return http.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                BoundedBody.handler(MAX_BODY_BYTES)).thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw new CompletionException(new IOException("HTTP " + response.statusCode()));
                    }
                    try {
                        return parse(response.body());
                    } catch (ExpositionException e) {
                        throw new CompletionException(e);
                    }
                });
    }

    /**
     * The figures of one exposition (Prometheus text or OpenMetrics, see {@link ExpositionParser}): CPU and RSS as
     * given, the others summed over their series; NaN for a figure the server does not expose.
     *
     * @throws ExpositionException if {@code text} is not an exposition, or exceeds the parser's bounds
     */
    static ServerSample parse(String text) throws ExpositionException {
        Figures f = new Figures();
        ExpositionParser.parse(text, f::add);
        return new ServerSample(f.cpu, f.rss, f.active, f.framesSent, f.framesReceived, f.rpcRequests);
    }

    /** The figures read so far. */
    private static final class Figures {
        double cpu = Double.NaN;
        double rss = Double.NaN;
        double active = Double.NaN;
        double framesSent = Double.NaN;
        double framesReceived = Double.NaN;
        double rpcRequests = Double.NaN;

        void add(ExpositionParser.Sample s) {
            switch (s.name()) {
                case "process_cpu_usage" -> cpu = s.value();
                case "process_memory_rss_bytes" -> rss = s.value();
                case "ricochet_connections_active" -> active = MetricsScraper.add(active, s.value());
                case "ricochet_frames_sent_total" -> {
                    if (echoServerFrames(s.labels())) {
                        framesSent = MetricsScraper.add(framesSent, s.value());
                    }
                }
                case "ricochet_frames_received_total" -> {
                    if (echoServerFrames(s.labels())) {
                        framesReceived = MetricsScraper.add(framesReceived, s.value());
                    }
                }
                case "ricochet_rpc_server_requests_seconds_count" -> rpcRequests = MetricsScraper.add(rpcRequests, s.value());
                default -> {
                }
            }
        }
    }

    /**
     * Whether a frames series is a server's echo protocol (tcp, udp, tcp inside tls or noise, or quic): an RPC port's
     * frames are requests of another kind, and a client group's are not the server's work. Servers from before the {@code protocol}
     * and {@code role} tags named the protocol in a {@code transport} tag and counted servers only.
     */
    static boolean echoServerFrames(Map<String, String> labels) {
        String protocol = labels.get("protocol");
        if (protocol != null) {
            return "server".equals(labels.get("role"))
                    && (protocol.equals("tcp") || protocol.equals("udp") || protocol.equals("tls")
                    || protocol.equals("noise") || protocol.equals("quic"));
        }
        String transport = labels.get("transport");
        return "tcp".equals(transport) || "udp".equals(transport);
    }

    private static double add(double sum, double v) {
        return Double.isNaN(sum) ? v : sum + v;
    }
}
