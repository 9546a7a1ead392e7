package io.ricochet.loadgen.scrape;

import io.ricochet.loadgen.report.ServerSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;

/**
 * Samples a server through a run: keeps the peaks of CPU, RSS and connections and the latest sample,
 * and turns them into a {@link ServerSummary} against a baseline. Without a URL every sample is
 * {@link ServerSample#NONE} and the summary null. A failed scrape counts as no sample, not an error: the load
 * figures stand on their own; the first one is reported as a warning, so a wrong URL is never silent.
 */
public final class ServerWatch {
    private final MetricsScraper scraper;
    private final PrintStream warnings;
    private boolean warned;
    private double cpuMax = Double.NaN;
    private double rssMax = Double.NaN;
    private double activeMax = Double.NaN;
    private ServerSample last = ServerSample.NONE;

    /** @param warnings where the first failed scrape is reported, once */
    public ServerWatch(URI uri, PrintStream warnings) {
        this.scraper = uri == null ? null : new MetricsScraper(uri);
        this.warnings = warnings;
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
            if (!warned) {
                warned = true;
                warnings.println("warning: --scrape " + scraper.uri() + " failed (" + (e.getMessage() == null
                        ? e.getClass().getSimpleName() : e.getMessage()) + "): the server's figures are missing where "
                        + "it fails");
            }
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
