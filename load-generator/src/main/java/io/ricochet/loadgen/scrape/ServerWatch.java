package io.ricochet.loadgen.scrape;

import io.ricochet.loadgen.report.ServerSummary;
import java.io.IOException;
import java.net.URI;

/**
 * Samples a server through a run: keeps the peaks of CPU, RSS and connections and the latest sample,
 * and turns them into a {@link ServerSummary} against a baseline. Without a URL every sample is
 * {@link ServerSample#NONE} and the summary null. A failed scrape counts as no sample, not an error:
 * the load figures stand on their own.
 */
public final class ServerWatch {
    private final MetricsScraper scraper;
    private double cpuMax = Double.NaN;
    private double rssMax = Double.NaN;
    private double activeMax = Double.NaN;
    private ServerSample last = ServerSample.NONE;

    public ServerWatch(URI uri) {
        this.scraper = uri == null ? null : new MetricsScraper(uri);
    }

    public ServerSample sample() {
        if (scraper == null) {
            return ServerSample.NONE;
        }
        try {
            ServerSample s = scraper.sample();
            cpuMax = max(cpuMax, s.cpu());
            rssMax = max(rssMax, s.rssBytes());
            activeMax = max(activeMax, s.activeConnections());
            last = s;
            return s;
        } catch (IOException e) {
            return ServerSample.NONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ServerSample.NONE;
        }
    }

    /** The peaks, and what the counters grew by since {@code base}; null without a URL. */
    public ServerSummary summary(ServerSample base) {
        if (scraper == null) {
            return null;
        }
        return new ServerSummary(scraper.uri().toString(), cpuMax, rssMax, activeMax,
                last.framesSent() - base.framesSent(), last.rpcRequests() - since(base));
    }

    /** RPC timers appear with a method's first call: none at the baseline means zero calls then. */
    private double since(ServerSample base) {
        return Double.isNaN(base.rpcRequests()) && !Double.isNaN(base.cpu()) ? 0 : base.rpcRequests();
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }
}
