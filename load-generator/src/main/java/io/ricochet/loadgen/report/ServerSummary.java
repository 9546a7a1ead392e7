package io.ricochet.loadgen.report;

/**
 * The server side of a run, from its scraped metrics: peak CPU (0..1 of the machine) and RSS, peak
 * connections, and how many echo frames it sent and RPC requests it answered during the measured part
 * of the run.
 */
public record ServerSummary(String url, double cpuMax, double rssMaxBytes, double activeConnectionsMax,
        double framesSent, double rpcRequests) {
}
