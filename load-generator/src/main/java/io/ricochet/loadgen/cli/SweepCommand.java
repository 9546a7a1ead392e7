package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.StepRow;
import io.ricochet.loadgen.report.StepsReport;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.run.ClientSecurity;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.SweepSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = "libonev's sweep: a payload-size sweep (128 B steps to 1 KB, 1 KB steps to 4 KB, then doubling "
                + "to 16 MB, 4-byte length field) and/or a count sweep at one size; a table of QPS and MB/s per step.")
final class SweepCommand extends LoadCommand {
    @Option(names = "--requests-per-step", converter = ValueConverters.LongCountConverter.class, defaultValue = "1000", description = "Requests per size step (default: ${DEFAULT-VALUE}).")
    long requestsPerStep;

    @Option(names = "--max-size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "16777216", description = "Largest body of the size sweep (default: ${DEFAULT-VALUE}).")
    int maxSize;

    @Option(names = "--counts", converter = Converters.CountRangeConverter.class,
            description = "Also (or only, with --no-sizes) a count sweep: MIN..MAX requests in steps of MIN, at --count-size.")
    SizeRange counts;

    @Option(names = "--count-size", converter = ValueConverters.ByteSizeConverter.class, defaultValue = "1024", description = "Body of the count sweep (default: ${DEFAULT-VALUE}).")
    int countSize;

    @Option(names = "--no-sizes", description = "Skip the size sweep.")
    boolean noSizes;

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

    @Override
    Command command() {
        return Command.SWEEP;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        SweepSettings w = b.sweep();
        b.sweep(new SweepSettings(given.test("--requests-per-step") ? requestsPerStep : w.requestsPerStep(),
                given.test("--max-size") ? maxSize : w.maxSize(), given.test("--counts") ? counts : w.counts(),
                given.test("--count-size") ? countSize : w.countSize(), given.test("--no-sizes") ? !noSizes : w.sizes()));
        if (given.test("--connections")) {
            b.connections(connections);
        }
        if (given.test("--pipeline")) {
            b.pipeline(pipeline);
        }
        if (given.test("--timeout")) {
            b.timeout(timeout);
        }
    }

    @Override
    int runAlone(Scenario s, StandAlone alone) throws Exception {
        long startMillis = System.currentTimeMillis();
        SweepSettings sweep = s.sweep();
        PrintWriter out = commandSpec.commandLine().getOut();
        List<StepRow> rows = new ArrayList<>();
        boolean clean = true;
        try (EmbeddedTargets.Target target = EmbeddedTargets.resolve(s, null, System.err)) {
            LoadSpec base;
            try {
                base = ScenarioRuns.frames(target.scenario().toBuilder().duration(Duration.ofMinutes(30)).build(),
                        ClientSecurity.of(target.scenario()));
            } catch (ScenarioException e) {
                throw usage(e);
            }
            int step = 0;
            if (sweep.sizes()) {
                for (int size : sizes(sweep.maxSize())) {
                    if (alone.stopped()) {
                        break;
                    }
                    Summary summary = step(base.toBuilder().maxRequests(sweep.requestsPerStep()).build(), size, s,
                            target, alone);
                    clean &= verified(summary);
                    rows.add(progress(StepRow.of(++step, "size", size, 0, summary, verified(summary))));
                }
            }
            if (sweep.counts() != null) {
                for (long n = sweep.counts().min(); n <= sweep.counts().max() && !alone.stopped();
                        n += sweep.counts().min()) {
                    Summary summary = step(base.toBuilder().maxRequests(n).build(), sweep.countSize(), s, target, alone);
                    clean &= verified(summary);
                    rows.add(progress(StepRow.of(++step, "count", sweep.countSize(), 0, summary, verified(summary))));
                }
            }
            StepsReport report = new StepsReport("sweep", base.targets().toString(),
                    "tcp", "closed_loop", rows, null, null, alone.stopped() ? "stopped by a signal after step " + step
                            : clean ? "all steps verified" : "bad replies or errors");
            if (s.report() != null) {
                ReportWriter.writeSummary(s.report(), report, RunMetadata.current(startMillis, null));
            }
            return RunSupport.conclude(s, alone.live(), report, clean ? ExitCodes.OK : ExitCodes.FAILURE,
                    () -> printTable(report, out), out);
        }
    }

    /** A step passes with every request answered right and no frame that answered none. */
    private static boolean verified(Summary s) {
        return s.bad() == 0 && s.errors() == 0 && s.unexpected() == 0;
    }

    /** One step: {@code spec}'s requests, generated bodies of {@code size} bytes, each reply checked reversed. */
    private static Summary step(LoadSpec spec, int size, Scenario s, EmbeddedTargets.Target target,
            StandAlone alone) throws InterruptedException {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", "sweep");
        config.put("target", spec.targets().toString());
        config.put("size", size);
        config.put("max_requests", spec.maxRequests());
        return FrameRuns.held("sweep", spec, PayloadWorkload.generated(s.seed(), size, size, Expectation.reversed()),
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
