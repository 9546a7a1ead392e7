package io.ricochet.loadgen.scrape;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The server side of a run, from its scraped metrics: peak CPU (0..1 of the machine) and RSS, peak
 * connections, and how many echo frames it received and sent and RPC requests it answered during the measured part
 * of the run. {@code servers} holds each scraped server's own figures (in {@code --scrape} order; a row
 * has no {@code servers} of its own); the record itself is them together, {@code url} their URLs joined
 * with commas and every figure summed, so CPU may pass 1 (see {@code ServerSamples#total}).
 */
public record ServerSummary(String url, double cpuMax, double rssMaxBytes, double activeConnectionsMax,
        double framesSent, double framesReceived, double rpcRequests, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ServerSummary> servers) {

    public ServerSummary {
        servers = servers == null ? List.of() : List.copyOf(servers);
    }

    /** One server's own figures. */
    public ServerSummary(String url, double cpuMax, double rssMaxBytes, double activeConnectionsMax, double framesSent,
            double framesReceived, double rpcRequests) {
        this(url, cpuMax, rssMaxBytes, activeConnectionsMax, framesSent, framesReceived, rpcRequests, List.of());
    }
}
