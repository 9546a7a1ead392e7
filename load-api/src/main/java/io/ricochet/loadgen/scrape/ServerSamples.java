package io.ricochet.loadgen.scrape;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One scrape of every server of a run, in {@code --scrape} order; {@link ServerSample#NONE} for a server whose scrape
 * failed, and no servers at all without {@code --scrape}.
 */
public record ServerSamples(List<ServerSample> each) {
    public static final ServerSamples NONE = new ServerSamples(List.of());

    public ServerSamples {
        each = List.copyOf(each);
    }

    /**
     * The servers as one: every figure is summed over the servers that have it, NaN if none has. CPU too: each
     * server's share of its own machine, added, so three servers at 50% show 150%, machines' worth of CPU busy; with
     * one server it is that server's share, as before. RSS is the memory they hold together.
     */
    public ServerSample total() {
        return new ServerSample(sum(ServerSample::cpu), sum(ServerSample::rssBytes), sum(ServerSample::activeConnections),
                sum(ServerSample::framesSent), sum(ServerSample::framesReceived), sum(ServerSample::rpcRequests));
    }

    private double sum(ToDoubleFunction<ServerSample> figure) {
        return each.stream().mapToDouble(figure).reduce(Double.NaN, ServerSamples::add);
    }

    /** Adds {@code v} to {@code sum}, where NaN is "not known": unknown plus a known figure is that figure. */
    static double add(double sum, double v) {
        return Double.isNaN(sum) ? v : Double.isNaN(v) ? sum : sum + v;
    }
}
