package io.ricochet.loadgen.scrape;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Reads a server's {@code /metrics} (Prometheus text) into a {@link ServerSample}. */
public final class MetricsScraper {
    private final URI uri;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public MetricsScraper(URI uri) {
        this.uri = uri;
    }

    public URI uri() {
        return uri;
    }

    public ServerSample sample() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("scrape " + uri + ": HTTP " + response.statusCode());
        }
        return parse(response.body());
    }

    static ServerSample parse(String text) {
        double cpu = Double.NaN;
        double rss = Double.NaN;
        double active = Double.NaN;
        double framesSent = Double.NaN;
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
                    // The echo protocols of servers only: an RPC port's frames are requests of another kind.
                    if (line.contains("role=\"server\"")
                            && (line.contains("protocol=\"tcp\"") || line.contains("protocol=\"udp\""))) {
                        framesSent = add(framesSent, value(line));
                    }
                }
                case "ricochet_rpc_server_requests_seconds_count" -> rpcRequests = add(rpcRequests, value(line));
                default -> {
                }
            }
        }
        return new ServerSample(cpu, rss, active, framesSent, rpcRequests);
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
