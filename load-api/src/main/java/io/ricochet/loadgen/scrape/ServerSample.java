package io.ricochet.loadgen.scrape;

/**
 * The server figures read from one scrape of its Prometheus endpoint; NaN where the server does not
 * expose a meter.
 *
 * @param cpu               {@code process_cpu_usage}: 0..1 of the whole machine
 * @param rssBytes          {@code process_memory_rss_bytes}
 * @param activeConnections {@code ricochet_connections_active}, summed over listeners
 * @param framesSent        {@code ricochet_frames_sent_total} of the servers' echo protocols (tcp, udp, tls, noise,
 *                          quic)
 * @param framesReceived    {@code ricochet_frames_received_total} of the same: valid frames the servers read
 * @param rpcRequests       {@code ricochet_rpc_server_requests_seconds_count}, summed over methods and statuses
 */
public record ServerSample(double cpu, double rssBytes, double activeConnections, double framesSent,
        double framesReceived, double rpcRequests) {
    public static final ServerSample NONE = new ServerSample(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);
}
