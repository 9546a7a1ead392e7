package io.ricochet.loadgen.scrape;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Reads a server's {@code /metrics} (Prometheus text) into a {@link ServerSample}. */
public final class MetricsScraper {
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

    /** One scrape, under way: it fails with an {@link IOException} for an answer other than 200. */
    public CompletableFuture<ServerSample> sample() {
        return http.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
                    if (response.statusCode() != 200) {
                        throw new CompletionException(new IOException("HTTP " + response.statusCode()));
                    }
                    return parse(response.body());
                });
    }

    static ServerSample parse(String text) {
        double cpu = Double.NaN;
        double rss = Double.NaN;
        double active = Double.NaN;
        double framesSent = Double.NaN;
        double framesReceived = Double.NaN;
        double rpcRequests = Double.NaN;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            String name = metricName(line);
            switch (name) {
                case "process_cpu_usage" -> cpu = value(line);
                case "process_memory_rss_bytes" -> rss = value(line);
                case "ricochet_connections_active" -> active = add(active, value(line));
                case "ricochet_frames_sent_total" -> {
                    if (echoServerFrames(line)) {
                        framesSent = add(framesSent, value(line));
                    }
                }
                case "ricochet_frames_received_total" -> {
                    if (echoServerFrames(line)) {
                        framesReceived = add(framesReceived, value(line));
                    }
                }
                case "ricochet_rpc_server_requests_seconds_count" -> rpcRequests = add(rpcRequests, value(line));
                default -> {
                }
            }
        }
        return new ServerSample(cpu, rss, active, framesSent, framesReceived, rpcRequests);
    }

    /**
     * Whether a frames series is a server's echo protocol (tcp, udp, tcp inside tls or noise, or quic): an RPC port's
     * frames are requests of another kind, and a client group's are not the server's work. Servers from before the {@code protocol}
     * and {@code role} tags named the protocol in a {@code transport} tag and counted servers only.
     */
    static boolean echoServerFrames(String line) {
        String protocol = tag(line, "protocol");
        if (protocol != null) {
            return "server".equals(tag(line, "role"))
                    && (protocol.equals("tcp") || protocol.equals("udp") || protocol.equals("tls")
                    || protocol.equals("noise") || protocol.equals("quic"));
        }
        String transport = tag(line, "transport");
        return "tcp".equals(transport) || "udp".equals(transport);
    }

    /** The value of the label {@code name} in a sample line, or null if it has none. */
    private static String tag(String line, String name) {
        int open = line.indexOf('{');
        int close = line.lastIndexOf('}');
        if (open < 0 || close < open) {
            return null;
        }
        String labels = line.substring(open, close);
        for (String prefix : new String[] {"{" + name + "=\"", "," + name + "=\""}) {
            int at = labels.indexOf(prefix);
            if (at >= 0) {
                int start = at + prefix.length();
                int end = labels.indexOf('"', start);
                return end < 0 ? null : labels.substring(start, end);
            }
        }
        return null;
    }

    private static String metricName(String line) {
        int end = 0;
        while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
            end++;
        }
        return line.substring(0, end);
    }

    private static double value(String line) {
        int start = line.indexOf('{') >= 0 ? line.lastIndexOf('}') + 1 : line.indexOf(' ');
        String[] parts = line.substring(start).trim().split("\\s+");
        return Double.parseDouble(parts[0]);
    }

    private static double add(double sum, double v) {
        return Double.isNaN(sum) ? v : sum + v;
    }
}
