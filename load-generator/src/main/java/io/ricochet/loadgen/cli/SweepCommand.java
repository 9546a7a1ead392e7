package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.StepRow;
import io.ricochet.loadgen.report.StepsReport;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.transport.Protocol;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = "libonev's sweep: a payload-size sweep (128 B steps to 1 KB, 1 KB steps to 4 KB, then doubling "
                + "to 16 MB, 4-byte length field) and/or a count sweep at one size; a table of QPS and MB/s per step.")
final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    @Option(names = "--requests-per-step", converter = ValueConverters.LongCountConverter.class, defaultValue = "1000", description = "Requests per size step (default: ${DEFAULT-VALUE}).")
    long requestsPerStep;

    @Option(names = "--max-size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "16777216", description = "Largest body of the size sweep (default: ${DEFAULT-VALUE}).")
    int maxSize;

    @Option(names = "--counts", converter = Converters.CountRangeConverter.class,
            description = "Also (or only, with --no-sizes) a count sweep: MIN..MAX requests in steps of MIN, at --count-size.")
    Converters.SizeRange counts;

    @Option(names = "--count-size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "1024", description = "Body of the count sweep (default: ${DEFAULT-VALUE}).")
    int countSize;

    @Option(names = "--no-sizes", description = "Skip the size sweep.")
    boolean noSizes;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--connections", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--pipeline", converter = ValueConverters.CountConverter.class, defaultValue = "1", description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(names = "--timeout", defaultValue = "30s", converter = ValueConverters.DurationConverter.class,
            description = "A reply not back by then is an error (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    /** 128..1024 by 128, 2048..4096 by 1024, then doubling to {@code max}. */
    static List<Integer> sizes(int max) {
        List<Integer> sizes = new ArrayList<>();
        for (int s = 128; s <= 1024 && s <= max; s += 128) {
            sizes.add(s);
        }
        for (int s = 2048; s <= 4096 && s <= max; s += 1024) {
            sizes.add(s);
        }
        for (long s = 8192; s <= max; s *= 2) {
            sizes.add((int) s);
        }
        return sizes;
    }

    /** When this command started: its report's {@code run} stamp. */
    private long startMillis;

    @Override
    public Integer call() throws Exception {
        startMillis = System.currentTimeMillis();
        try {
            Checks.inRange("maxSize", maxSize, 1, LengthField.FOUR.largestMaxFrame());
            Checks.positive("requestsPerStep", requestsPerStep);
            Checks.positive("connections", connections);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        if (noSizes && counts == null) {
            throw new ParameterException(commandSpec.commandLine(), "nothing to sweep: --no-sizes without --counts");
        }
        if (!noSizes && sizes(maxSize).isEmpty()) {
            throw new ParameterException(commandSpec.commandLine(), "nothing to sweep: --max-size " + maxSize
                    + " is below the first size step, 128" + (counts == null ? "" : " (add --no-sizes to sweep counts only)"));
        }
        PrintWriter out = commandSpec.commandLine().getOut();
        List<StepRow> rows = new ArrayList<>();
        boolean clean = true;
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err);
                RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, LengthField.FOUR,
                        Math.max(maxSize, countSize), Duration.ofSeconds(30), Protocol.TCP, System.err)) {
            LoadSpec base = LoadSpec.builder(target.tcp()).protocol(Protocol.TCP).connections(connections)
                    .pipeline(pipeline).lengthField(LengthField.FOUR).duration(Duration.ofMinutes(30)).timeout(timeout)
                    .seed(common.seed).interval(common.interval).ioThreads(common.ioThreads).transport(common.io)
                    .tls(RunSupport.within(target.tls(), timeout))
                    .noise(RunSupport.within(target.noise(), timeout)).build();
            int step = 0;
            if (!noSizes) {
                for (int size : sizes(maxSize)) {
                    if (alone.stopped()) {
                        break;
                    }
                    Summary s = step(base.toBuilder().maxRequests(requestsPerStep).build(), size, target, alone);
                    clean &= verified(s);
                    rows.add(progress(StepRow.of(++step, "size", size, 0, s, verified(s))));
                }
            }
            if (counts != null) {
                for (long n = counts.min(); n <= counts.max() && !alone.stopped(); n += counts.min()) {
                    Summary s = step(base.toBuilder().maxRequests(n).build(), countSize, target, alone);
                    clean &= verified(s);
                    rows.add(progress(StepRow.of(++step, "count", countSize, 0, s, verified(s))));
                }
            }
            StepsReport report = new StepsReport("sweep", target.tcp().toString(),
                    "tcp", "closed_loop", rows, null, null, alone.stopped() ? "stopped by a signal after step " + step
                            : clean ? "all steps verified" : "bad replies or errors");
            if (common.report != null) {
                ReportWriter.writeSummary(common.report, report, RunMetadata.current(startMillis, null));
            }
            return alone.exitStatus(RunSupport.conclude(common, report, clean ? ExitCodes.OK : ExitCodes.FAILURE,
                    () -> printTable(report, out), out));
        }
    }

    /** A step passes with every request answered right and no frame that answered none. */
    private static boolean verified(Summary s) {
        return s.bad() == 0 && s.errors() == 0 && s.unexpected() == 0;
    }

    /** One step: {@code spec}'s requests, generated bodies of {@code size} bytes, each reply checked reversed. */
    private Summary step(LoadSpec spec, int size, RunSupport.Target target, StandAlone alone)
            throws InterruptedException {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", "sweep");
        config.put("target", spec.targets().toString());
        config.put("size", size);
        config.put("max_requests", spec.maxRequests());
        return FrameRuns.held("sweep", spec, PayloadWorkload.generated(common.seed, size, size, Expectation.reversed()),
                new RunOptions("sweep", target.scrape(), null, null, config, alone.hooks()));
    }

    private static StepRow progress(StepRow row) {
        System.err.printf(Locale.ROOT, "[step %d] size %d: %d requests, %.0f QPS, %.2f MB/s%n", row.step(), row.size(),
                row.requests(), row.qps(), row.mbPerS());
        return row;
    }

    static void printTable(StepsReport report, PrintWriter out) {
        out.println(report.command() + " " + report.transport() + " -> " + report.target() + ", latency "
                + report.latencyKind().replace('_', ' '));
        out.printf(Locale.ROOT, "%5s %10s %10s %12s %10s %8s %8s %10s %12s %10s %10s %10s %6s%n", "step", "size",
                "rate", "requests", "ok", "bad", "errors", "time(s)", "QPS", "MB/s", "p50(us)", "p99(us)", "pass");
        for (StepRow r : report.steps()) {
            out.printf(Locale.ROOT, "%5d %10d %10s %12d %10d %8d %8d %10.3f %12.1f %10.3f %10d %10d %6s%n", r.step(),
                    r.size(), r.targetRate() > 0 ? String.format(Locale.ROOT, "%.0f", r.targetRate()) : "-",
                    r.requests(), r.ok(), r.bad(), r.errors(), r.durationS(), r.qps(), r.mbPerS(), r.p50Us(), r.p99Us(),
                    r.passed() ? "yes" : "no");
        }
        if (report.kneeRate() != null) {
            out.printf(Locale.ROOT, "knee: %.0f requests/s (p99 %d us)%n", report.kneeRate(), report.kneeP99Us());
        }
        out.println(report.verdict());
        out.flush();
    }
}
