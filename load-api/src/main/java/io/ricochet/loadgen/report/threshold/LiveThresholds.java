package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.engine.RunHooks;
import io.ricochet.loadgen.stats.RunStats;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Judges a run's thresholds once an interval, in the process that sees the whole run: the single process, or the
 * controller on the merged intervals. A threshold without a window is judged on the run so far (but for a floor on a
 * total or a rate, which a run reaches only over time: {@link Threshold#judgedLive()}), one with a window on its last
 * {@code window} of intervals, once that many have been measured. The first breach of each is said on the
 * progress output and kept ({@link Threshold.Result#firstBrokenS()}); a breach of an {@code ;abort} threshold after its
 * delay asks the run to stop ({@link #abortReason()}). At the end, {@link #complete} adds what was seen live to the
 * verdicts on the summary: a windowed threshold is broken if any interval's window broke it.
 *
 * <pre>{@code
 * LiveThresholds live = new LiveThresholds(thresholds, Duration.ofSeconds(1), "echo", System.err);
 * RunHooks hooks = live.hooks(RunHooks.NONE);     // judges each interval, and stops the run on an abort
 * ...
 * List<Threshold.Result> verdicts = live.complete(Thresholds.check(thresholds, summary));
 * }</pre>
 *
 * <p>A window keeps each of its intervals' latencies in a histogram sized to the latencies it holds (about 32 KiB for
 * latencies up to 5 ms, 80 KiB up to a second), shared by every window; judging ten thresholds on three windows takes
 * about 0.2 ms an interval. Not thread-safe, apart from {@link #abortReason()}: one thread hands it the intervals.
 */
public final class LiveThresholds implements Consumer<Interval> {
    private final List<Threshold> thresholds;
    private final PrintStream progress;
    private final Span.Figures kind;
    /** The run so far, and each distinct window's last intervals. */
    private final Span whole = new Span(0);
    private final Map<Duration, Span> windows = new LinkedHashMap<>();
    private final Double[] firstBroken;
    private final Double[] worst;
    private final boolean[] windowBroken;
    private double elapsedS;
    private volatile String abortReason;
    private volatile Runnable onAbort = () -> { };

    /**
     * @param thresholds   what to judge, in the order of the verdicts {@link #complete} is given
     * @param interval     the run's interval, which a window is counted in
     * @param command      the command's name, which says how its summary reads {@code qps} and {@code loss}
     * @param progress     where first breaches and an abort are said, or null
     */
    public LiveThresholds(List<Threshold> thresholds, Duration interval, String command, PrintStream progress) {
        this.thresholds = List.copyOf(thresholds);
        this.progress = progress;
        this.kind = switch (command) {
            case "rpc", "register" -> Span.Figures.RPC;
            case "udp-stream" -> Span.Figures.DATAGRAMS;
            default -> Span.Figures.FRAMES;
        };
        for (Threshold t : this.thresholds) {
            if (t.windowed()) {
                windows.computeIfAbsent(t.window(), w -> new Span(intervals(w, interval)));
            }
        }
        this.firstBroken = new Double[this.thresholds.size()];
        this.worst = new Double[this.thresholds.size()];
        this.windowBroken = new boolean[this.thresholds.size()];
    }

    /** A judge of nothing: it never aborts, and {@link #complete} returns the verdicts it is given. */
    public static LiveThresholds none() {
        return new LiveThresholds(List.of(), Duration.ofSeconds(1), "none", null);
    }

    /** How many intervals of {@code interval} make {@code window}: rounded up, at least one. */
    static int intervals(Duration window, Duration interval) {
        long n = (window.toNanos() + interval.toNanos() - 1) / Math.max(1, interval.toNanos());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, n));
    }

    /** What to do when a threshold aborts the run (a controller stops its workers); run once, on the judging thread. */
    public void onAbort(Runnable action) {
        this.onAbort = action;
    }

    /** Why the run was aborted ({@code threshold p99<5ms;abort broken at 12.0 s (p99 = 6100)}), or null. */
    public String abortReason() {
        return abortReason;
    }

    /**
     * {@code delegate} with this judge: each interval is judged after {@code delegate} has it, and an abort stops the
     * run as the controller's stop does.
     */
    public RunHooks hooks(RunHooks delegate) {
        if (thresholds.isEmpty()) {
            return delegate;
        }
        return new RunHooks() {
            @Override
            public boolean awaitStart() {
                return delegate.awaitStart();
            }

            @Override
            public void interval(Interval data) {
                delegate.interval(data);
                accept(data);
            }

            @Override
            public boolean stopRequested() {
                return delegate.stopRequested() || abortReason != null;
            }

            @Override
            public void finished(Object summary) {
                delegate.finished(summary);
            }
        };
    }

    /** Judges every threshold after {@code interval}; its histograms are copied, not kept. */
    @Override
    public void accept(Interval interval) {
        if (thresholds.isEmpty()) {
            return;
        }
        double lengthS = Math.max(0, interval.elapsedS() - elapsedS);
        elapsedS = Math.max(elapsedS, interval.elapsedS());
        whole.add(interval, null, lengthS);
        if (!windows.isEmpty()) {
            // One copy for every window, sized to the latencies it holds rather than to the full hour's range.
            Histogram copy = new Histogram(RunStats.DIGITS);
            copy.add(interval.latency());
            windows.values().forEach(span -> span.add(interval, copy, lengthS));
        }
        // Each span's figures once an interval, and only for a span some threshold judges now.
        Map<Span, ObjectNode> figures = new HashMap<>();
        for (int i = 0; i < thresholds.size(); i++) {
            Threshold t = thresholds.get(i);
            Span span = t.windowed() ? windows.get(t.window()) : whole;
            if (!t.judgedLive() || !span.full()) {
                continue;
            }
            Double actual = Threshold.figure(t.metric(), figures.computeIfAbsent(span, judged -> judged.figures(kind)));
            if (actual == null) {
                continue;
            }
            boolean holds = t.op().holds(actual, t.value());
            if (t.windowed()) {
                worst[i] = worse(t, worst[i], actual);
                windowBroken[i] |= !holds;
            }
            if (!holds) {
                broken(i, t, actual);
            }
        }
    }

    private void broken(int i, Threshold t, double actual) {
        String at = String.format(Locale.ROOT, "%.1f s", elapsedS);
        if (firstBroken[i] == null) {
            firstBroken[i] = elapsedS;
            if (progress != null) {
                progress.println("threshold " + t.expression() + " broken at " + at + " (" + t.metric() + " = "
                        + Threshold.format(actual) + ")");
            }
        }
        if (t.abort() && abortReason == null && elapsedS >= t.delay().toNanos() / 1e9) {
            abortReason = "threshold " + t.expression() + " broken at " + at + " (" + t.metric() + " = "
                    + Threshold.format(actual) + ")";
            if (progress != null) {
                progress.println("aborting: " + abortReason + "; stopping the run");
            }
            onAbort.run();
        }
    }

    /** The worse of two figures for {@code t}: the higher under {@code <}, the lower under {@code >}. */
    private static Double worse(Threshold t, Double before, double now) {
        if (before == null) {
            return now;
        }
        return switch (t.op()) {
            case LT, LE -> Math.max(before, now);
            case GT, GE -> Math.min(before, now);
            case EQ, NE -> t.op().holds(before, t.value()) ? now : before;
        };
    }

    /**
     * The run's verdicts: {@code atEnd} (each threshold on the summary, in order) with when each first broke live; a
     * windowed threshold passes only if no interval's window broke it (a run shorter than its window is judged whole).
     */
    public List<Threshold.Result> complete(List<Threshold.Result> atEnd) {
        if (thresholds.isEmpty()) {
            return atEnd;
        }
        if (atEnd.size() != thresholds.size()) {
            throw new IllegalArgumentException("verdicts: " + atEnd.size() + " (expected: one per threshold, "
                    + thresholds.size() + ")");
        }
        List<Threshold.Result> results = new ArrayList<>(atEnd.size());
        for (int i = 0; i < atEnd.size(); i++) {
            Threshold.Result end = atEnd.get(i);
            Threshold t = thresholds.get(i);
            if (end.note() != null) {
                // Not measured by the command, or a total of a run that lost a worker: broken whatever was seen live.
                results.add(end.judged(false, t.windowed() && worst[i] != null ? worst[i] : end.actual(),
                        firstBroken[i]));
            } else if (t.windowed() && worst[i] != null) {
                results.add(end.judged(!windowBroken[i], worst[i], firstBroken[i]));
            } else {
                results.add(end.judged(end.passed(), end.actual(), firstBroken[i]));
            }
        }
        return results;
    }
}
