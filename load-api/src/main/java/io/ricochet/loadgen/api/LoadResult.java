package io.ricochet.loadgen.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.threshold.LiveThresholds;
import io.ricochet.loadgen.report.threshold.Margin;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.report.threshold.Thresholds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a {@link LoadTest} measured: its counts, rate and latency (microseconds), the first failure and the first bad
 * reply's reason, and each threshold's verdict.
 *
 * <pre>{@code
 * LoadResult r = LoadTest.tcp(target).workload(w).threshold("p99<5ms").run();
 * assertEquals(0, r.bad(), r.firstBad());
 * r.assertThresholds();
 * }</pre>
 */
public final class LoadResult {
    private final Object summary;
    private final long requests;
    private final long ok;
    private final long bad;
    private final long errors;
    private final long unexpected;
    private final double seconds;
    private final double qps;
    private final Latency latency;
    private final String firstError;
    private final String firstBad;
    private final List<Verdict> thresholds;
    private final List<String> workers;
    private final List<String> problems;

    /** Latency percentiles in microseconds. */
    public record Latency(long count, long min, double mean, long p50, long p90, long p99, long p999, long max) {
        static Latency of(LatencySummary s) {
            return new Latency(s.count(), s.min(), s.mean(), s.p50(), s.p90(), s.p99(), s.p999(), s.max());
        }
    }

    /**
     * One threshold's verdict: its expression, whether it held, the figure it was held against (null when the run does
     * not measure it; a windowed threshold's worst window), when it was first seen broken during the run (seconds of
     * measurement, or null), and the line {@code --threshold} prints: {@code threshold p99<2ms: broken (p99 = 3200)}.
     */
    public record Verdict(String expression, boolean passed, Double actual, Double firstBrokenS, String line) {
        static Verdict of(Threshold.Result r) {
            return new Verdict(r.expression(), r.passed(), r.actual(), r.firstBrokenS(), r.line());
        }
    }

    private LoadResult(Object summary, long requests, long ok, long bad, long errors, long unexpected, double seconds,
            double qps, LatencySummary latency, String firstError, String firstBad, List<Threshold.Result> thresholds,
            List<String> workers, List<String> problems) {
        this.summary = summary;
        this.requests = requests;
        this.ok = ok;
        this.bad = bad;
        this.errors = errors;
        this.unexpected = unexpected;
        this.seconds = seconds;
        this.qps = qps;
        this.latency = Latency.of(latency);
        this.firstError = firstError;
        this.firstBad = firstBad;
        this.thresholds = thresholds.stream().map(Verdict::of).toList();
        this.workers = List.copyOf(workers);
        this.problems = List.copyOf(problems);
    }

    /** The result of a run: its thresholds judged on {@code summary} and, during the run, by {@code live}. */
    static LoadResult of(Object summary, List<Threshold> thresholds, LiveThresholds live, Path report,
            List<String> workers, List<String> given) {
        return of(summary, summary, thresholds, live, report, workers, given);
    }

    /**
     * As above, the thresholds judged on {@code judged}: a distributed run's whole summary, whose lost workers break
     * every threshold on a total.
     */
    static LoadResult of(Object summary, Object judged, List<Threshold> thresholds, LiveThresholds live, Path report,
            List<String> workers, List<String> given) {
        List<Threshold.Result> results = live.complete(Thresholds.check(thresholds, judged));
        if (report != null) {
            Thresholds.annotate(report, results, live.abortReason());
        }
        List<String> problems = given;
        if (live.abortReason() != null) {
            problems = new ArrayList<>(given);
            problems.add(0, "aborted: " + live.abortReason());
        }
        if (summary instanceof RpcSummary r) {
            // An RPC run's requests that ended: those answered and those that failed.
            return new LoadResult(r, r.received() + r.errors(), r.receivedOk(), r.bad(), r.errors(), 0, r.totalTimeS(),
                    r.qps(), r.latencyUs(), r.firstError(), r.firstBad(), results, workers, problems);
        }
        Summary s = (Summary) summary;
        return new LoadResult(s, s.requests(), s.ok(), s.bad(), s.errors(), s.unexpected(), s.durationS(), s.qps(), s.latencyUs(),
                s.firstError(), s.firstBad(), results, workers, problems);
    }

    /** Requests that ended: ok, bad or errors. */
    public long requests() {
        return requests;
    }

    /** Replies the workload's check accepted. */
    public long ok() {
        return ok;
    }

    /** Replies the check refused; {@link #firstBad} says why the first was. */
    public long bad() {
        return bad;
    }

    /** Requests that got no reply in time, or whose connection failed, or whose workload threw. */
    public long errors() {
        return errors;
    }

    /** Frames the server sent that answered no request: not among {@link #requests}; the first is {@link #firstError}. */
    public long unexpected() {
        return unexpected;
    }

    /** The measured seconds. */
    public double seconds() {
        return seconds;
    }

    /** Requests per second over the measured seconds. */
    public double qps() {
        return qps;
    }

    /** Latency in microseconds: corrected for coordinated omission at a rate, from the actual send in closed loop. */
    public Latency latency() {
        return latency;
    }

    /** The first failure, or null. */
    public String firstError() {
        return firstError;
    }

    /** The first bad reply's request and the check's reason, or null. */
    public String firstBad() {
        return firstBad;
    }

    /** Each threshold's verdict, in the order given. */
    public List<Verdict> thresholds() {
        return thresholds;
    }

    /** A line per worker of a run over {@link Workers}: its state, host and counts; empty for a run in this JVM. */
    public List<String> workers() {
        return workers;
    }

    /**
     * What went wrong with the run: a threshold's abort ({@code aborted: threshold p99[5s]<5ms;abort broken at 12.0 s
     * (p99 = 6100)}); over {@link Workers}, a worker that failed, was lost or stopped reporting, or input the controller
     * refused. Empty when the run went to its end and every worker ran its shard.
     */
    public List<String> problems() {
        return problems;
    }

    /** Whether every threshold held and every worker ran its shard to the end. */
    public boolean passed() {
        return problems.isEmpty() && thresholds.stream().allMatch(Verdict::passed);
    }

    /**
     * Throws an {@link AssertionError} listing every broken threshold and every worker's problem, with the first bad
     * reply and first error, as Gatling's assertions fail a simulation; returns this when all held.
     */
    public LoadResult assertThresholds() {
        if (passed()) {
            return this;
        }
        String broken = java.util.stream.Stream.concat(problems.stream(),
                thresholds.stream().filter(t -> !t.passed()).map(Verdict::line)).collect(Collectors.joining("; "));
        throw new AssertionError(broken + " [" + requests + " requests, " + ok + " ok, " + bad + " bad, " + errors
                + " errors" + (firstBad == null ? "" : "; first bad: " + firstBad)
                + (firstError == null ? "" : "; first error: " + firstError) + "]");
    }

    /**
     * This run against {@code baseline}, one verdict per margin in {@code compare --fail-if}'s syntax: {@code p99>+10%}
     * breaks when this run's p99 is more than 10% above the baseline's, {@code qps<-5%} when its QPS is more than 5%
     * below. A malformed margin is an {@link IllegalArgumentException}.
     *
     * <pre>{@code
     * LoadResult before = LoadTest.tcp(old).workload("kv-text", Map.of()).requests(50_000).run();
     * LoadResult after = LoadTest.tcp(now).workload("kv-text", Map.of()).requests(50_000).run();
     * after.assertNoWorseThan(before, "p99>+10%", "qps<-5%");
     * }</pre>
     */
    public List<Margin.Result> compareTo(LoadResult baseline, String... failIf) {
        return compare(parse(baseline.summaryJson()), failIf);
    }

    /** This run against the run whose report directory is {@code baselineReport} (its summary.json), as above. */
    public List<Margin.Result> compareTo(Path baselineReport, String... failIf) {
        try {
            return compare(ReportWriter.readSummary(baselineReport), failIf);
        } catch (java.io.IOException | io.ricochet.loadgen.files.InputFileException e) {
            throw new IllegalArgumentException("baseline: " + baselineReport + " (expected a report directory with "
                    + "a summary.json: " + e.getMessage() + ")", e);
        }
    }

    /**
     * Throws an {@link AssertionError} listing every broken margin against {@code baseline}, as {@code compare
     * --fail-if} exits 99; returns this when all held.
     */
    public LoadResult assertNoWorseThan(LoadResult baseline, String... failIf) {
        String broken = compareTo(baseline, failIf).stream().filter(r -> !r.passed()).map(Margin.Result::line)
                .collect(Collectors.joining("; "));
        if (!broken.isEmpty()) {
            throw new AssertionError(broken);
        }
        return this;
    }

    private List<Margin.Result> compare(com.fasterxml.jackson.databind.JsonNode baseline, String... failIf) {
        com.fasterxml.jackson.databind.JsonNode run = parse(summaryJson());
        return java.util.Arrays.stream(failIf).map(Margin::parse).map(m -> m.check(baseline, run)).toList();
    }

    private static com.fasterxml.jackson.databind.JsonNode parse(String json) {
        try {
            return ReportWriter.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("summary: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The run's summary as JSON, as one process's summary.json holds it but for its {@code run} stamp (what and where it
     * ran): {@code schema_version} first. Over workers, the merged run alone, without the controller's rows.
     */
    public String summaryJson() {
        try {
            return ReportWriter.JSON.writeValueAsString(ReportWriter.tree(summary));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("summary: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    public String toString() {
        return requests + " requests, " + ok + " ok, " + bad + " bad, " + errors + " errors, " + qps + " qps, p99 "
                + latency.p99() + " us";
    }
}
