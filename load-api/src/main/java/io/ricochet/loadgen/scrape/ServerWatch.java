package io.ricochet.loadgen.scrape;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Samples the servers of a run, each interval every one: keeps each server's peaks of CPU, RSS and connections and
 * latest sample, and the peaks of the servers together, and turns them into a {@link ServerSummary} against a
 * baseline. Without a URL every sample is {@link ServerSamples#NONE} and the summary null. A failed scrape counts as
 * no sample of that server, not an error: the load figures and the other servers' stand on their own; each server's
 * first failure is reported as a warning, so a wrong URL is never silent.
 */
public final class ServerWatch {
    private final List<Server> servers = new ArrayList<>();
    private final PrintStream warnings;
    private double cpuMax = Double.NaN;
    private double rssMax = Double.NaN;
    private double activeMax = Double.NaN;

    /**
     * @param uris     the servers' metrics URLs; empty (or null) for none
     * @param warnings where each server's first failed scrape is reported, once
     */
    public ServerWatch(List<URI> uris, PrintStream warnings) {
        this.warnings = warnings;
        if (uris != null && !uris.isEmpty()) {
            HttpClient http = MetricsScraper.newClient();
            uris.forEach(uri -> servers.add(new Server(new MetricsScraper(uri, http))));
        }
    }

    public ServerSamples sample() {
        if (servers.isEmpty()) {
            return ServerSamples.NONE;
        }
        // All at once: a slow or dead server costs the interval one timeout, not one per server.
        List<CompletableFuture<ServerSample>> pending = servers.stream().map(s -> s.scraper.sample()).toList();
        List<ServerSample> each = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            each.add(servers.get(i).take(pending.get(i), warnings));
        }
        ServerSamples samples = new ServerSamples(each);
        ServerSample total = samples.total();
        cpuMax = max(cpuMax, total.cpu());
        rssMax = max(rssMax, total.rssBytes());
        activeMax = max(activeMax, total.activeConnections());
        return samples;
    }

    /**
     * The servers together (their URLs joined with commas), with a row per server in {@code servers}: the peaks, and
     * what the counters grew by since {@code base}. Together, the peaks are those of the summed samples and the
     * counters the sum of the servers' growths, so a server missing from the last sample still counts. Null without a
     * URL.
     */
    public ServerSummary summary(ServerSamples base) {
        if (servers.isEmpty()) {
            return null;
        }
        List<ServerSummary> rows = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            rows.add(servers.get(i).summary(i < base.each().size() ? base.each().get(i) : ServerSample.NONE));
        }
        double frames = Double.NaN;
        double received = Double.NaN;
        double rpc = Double.NaN;
        for (ServerSummary row : rows) {
            frames = ServerSamples.add(frames, row.framesSent());
            received = ServerSamples.add(received, row.framesReceived());
            rpc = ServerSamples.add(rpc, row.rpcRequests());
        }
        String urls = String.join(",", rows.stream().map(ServerSummary::url).toList());
        return new ServerSummary(urls, cpuMax, rssMax, activeMax, frames, received, rpc, rows);
    }

    private static double max(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b);
    }

    /** One server: its scraper, whether its failure was reported, its peaks and latest sample. */
    private static final class Server {
        private final MetricsScraper scraper;
        private boolean warned;
        private double cpuMax = Double.NaN;
        private double rssMax = Double.NaN;
        private double activeMax = Double.NaN;
        private ServerSample last = ServerSample.NONE;

        Server(MetricsScraper scraper) {
            this.scraper = scraper;
        }

        /** The sample {@code pending} brings, or NONE if the scrape failed. */
        ServerSample take(CompletableFuture<ServerSample> pending, PrintStream warnings) {
            try {
                ServerSample s = pending.get();
                cpuMax = max(cpuMax, s.cpu());
                rssMax = max(rssMax, s.rssBytes());
                activeMax = max(activeMax, s.activeConnections());
                last = s;
                return s;
            } catch (ExecutionException e) {
                warn(e.getCause() == null ? e : e.getCause(), warnings);
                return ServerSample.NONE;
            } catch (InterruptedException e) {
                pending.cancel(true);
                Thread.currentThread().interrupt();
                return ServerSample.NONE;
            }
        }

        private void warn(Throwable e, PrintStream warnings) {
            if (!warned) {
                warned = true;
                warnings.println("warning: --scrape " + scraper.uri() + " failed (" + (e.getMessage() == null
                        ? e.getClass().getSimpleName() : e.getMessage()) + "): the server's figures are missing where "
                        + "it fails");
            }
        }

        ServerSummary summary(ServerSample base) {
            return new ServerSummary(scraper.uri().toString(), cpuMax, rssMax, activeMax,
                    last.framesSent() - base.framesSent(), last.framesReceived() - base.framesReceived(),
                    last.rpcRequests() - since(base));
        }

        /** RPC timers appear with a method's first call: none at the baseline means zero calls then. */
        private static double since(ServerSample base) {
            return Double.isNaN(base.rpcRequests()) && !Double.isNaN(base.cpu()) ? 0 : base.rpcRequests();
        }
    }
}
