package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.stats.RunStats;
import java.util.ArrayDeque;
import org.HdrHistogram.Histogram;

/**
 * The last {@code capacity} intervals of a run (every interval with 0), their counts and latencies summed: what a
 * {@link LiveThresholds} judges a window, or the run so far, on. Adding an interval subtracts the one that leaves, so an
 * interval costs the same whatever the window's length. Not thread-safe.
 */
final class Span {
    /** How a command's summary reads its figures, so that a span reads them the same way. */
    enum Figures {
        /** Framed commands: {@code qps} is requests ended (ok, bad and errors) per second. */
        FRAMES,
        /** rpc and register: {@code qps} is verified answers per second. */
        RPC,
        /** udp-stream: as framed, and {@code loss} is 1 - received / sent. */
        DATAGRAMS
    }

    private final int capacity;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final Histogram latency = RunStats.newHistogram();
    private RunStats.Counts counts = RunStats.Counts.ZERO;
    private double seconds;

    /** One interval as a window keeps it; its latency histogram is shared by every window. */
    private record Entry(RunStats.Counts counts, Histogram latency, double seconds) {
    }

    Span(int capacity) {
        this.capacity = capacity;
    }

    /** Adds {@code interval}; a window keeps {@code copy}, its latency, until the interval leaves it. */
    void add(Interval interval, Histogram copy, double lengthS) {
        counts = counts.plus(interval.delta());
        latency.add(interval.latency());
        seconds += lengthS;
        if (capacity == 0) {
            return;
        }
        entries.addLast(new Entry(interval.delta(), copy, lengthS));
        if (entries.size() > capacity) {
            Entry gone = entries.removeFirst();
            counts = counts.minus(gone.counts());
            latency.subtract(gone.latency());
            seconds -= gone.seconds();
        }
    }

    /** Whether a window holds as many intervals as it spans; the run so far always is. */
    boolean full() {
        return entries.size() >= capacity;
    }

    /**
     * The span's figures under a summary's names, for {@link Threshold#figure}; without a latency in it (nothing was
     * answered), no latency figure, so a stalled server is not read as a fast one.
     */
    ObjectNode figures(Figures kind) {
        ObjectNode node = ReportWriter.JSON.createObjectNode();
        node.put("requests", counts.completed());
        node.put("ok", counts.ok());
        node.put("bad", counts.bad());
        node.put("errors", counts.errors());
        node.put("late", counts.late());
        node.put("unexpected", counts.unexpected());
        node.put("connect_failures", counts.connectFailures());
        long rated = kind == Figures.RPC ? counts.ok() : counts.completed();
        node.put("qps", rated / Math.max(1e-3, seconds));
        if (kind == Figures.DATAGRAMS) {
            node.put("loss", counts.sent() == 0 ? 0 : 1 - (double) counts.ok() / counts.sent());
        }
        if (latency.getTotalCount() > 0) {
            node.set("latency_us", ReportWriter.JSON.valueToTree(LatencySummary.of(latency)));
        }
        return node;
    }
}
