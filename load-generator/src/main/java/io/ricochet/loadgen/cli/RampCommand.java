package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Checks;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RateSearch;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.StepRow;
import io.ricochet.loadgen.report.StepsReport;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.workload.FrameWorkload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "ramp", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Auto-boost (FPNN's auto-boost, tcpkali's rate search): raise the open-loop rate until the "
                + "corrected p99 exceeds --slo, errors appear, or the server falls behind; then narrow down. Reports "
                + "the highest rate that met the SLO (the knee).")
final class RampCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;
    @Mixin
    LoadOptions load;

    @Shard(Shard.Rule.SPLIT_TOTAL)
    @Option(names = "--connections", converter = ValueConverters.CountConverter.class, defaultValue = "10", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--pipeline", converter = ValueConverters.CountConverter.class, defaultValue = "16", description = "Most requests in flight per connection (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(names = "--slo", defaultValue = "10ms", converter = ValueConverters.DurationConverter.class,
            description = "Highest acceptable corrected p99 (default: ${DEFAULT-VALUE}).")
    Duration slo;

    @Option(names = "--start-rate", defaultValue = "1000", converter = Converters.RateConverter.class,
            description = "First rate, requests/s (default: ${DEFAULT-VALUE}).")
    double startRate;

    @Option(names = "--factor", defaultValue = "2", description = "Rate multiplier while no step failed (default: ${DEFAULT-VALUE}).")
    double factor;

    @Option(names = "--max-rate", defaultValue = "10000000", converter = Converters.RateConverter.class,
            description = "Stop raising here (default: ${DEFAULT-VALUE}).")
    double maxRate;

    @Option(names = "--refine", defaultValue = "3", description = "Bisection steps between the last good and first bad rate (default: ${DEFAULT-VALUE}).")
    int refine;

    @Option(names = "--warmup-step", defaultValue = "2s", converter = ValueConverters.DurationConverter.class,
            description = "An uncounted first run at the start rate, so JIT compilation does not fail step 1 (default: ${DEFAULT-VALUE}).")
    Duration warmupStep;

    /** When this command started: its report's {@code run} stamp. */
    private long startMillis;

    @Override
    public Integer call() throws Exception {
        startMillis = System.currentTimeMillis();
        if ("list".equals(load.requests.workload.name)) {
            WorkloadCatalog.load(commandSpec.commandLine(), load.requests.workload.jars)
                    .print(commandSpec.commandLine().getOut());
            return ExitCodes.OK;
        }
        RateSearch search;
        try {
            search = RateSearch.growingFrom(startRate, factor, maxRate).bisections(refine);
            Checks.inRange("refine", refine, 0, 64);
            Checks.positive("connections", connections);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        FrameWorkload workload = Scenarios.workload(commandSpec, common, load);
        PrintWriter out = commandSpec.commandLine().getOut();
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err);
                RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, load.field(),
                        Scenarios.embeddedMaxFrame(load, workload), Duration.ofSeconds(30),
                        load.protocol, System.err)) {
            LoadSpec base;
            try {
                base = LoadSpec.builder(target.address(load.protocol)).protocol(load.protocol).connections(connections)
                        .pipeline(pipeline).lengthField(load.field())
                        .duration(load.duration).warmup(load.warmup(false)).timeout(load.timeout)
                        .sourceAddresses(load.sourceAddresses.addresses()).seed(common.seed).interval(common.interval)
                        .ioThreads(common.ioThreads).transport(common.io)
                        .tls(RunSupport.within(target.tls(), load.timeout)).quic(target.quic())
                        .noise(RunSupport.within(target.noise(), load.timeout)).rate(startRate).build();
            } catch (IllegalArgumentException e) {
                throw FlagNames.usage(commandSpec, e);
            }
            // Its own --warmup-step warms up; its steps warm up only when told.
            Scenarios.noteWhatRunsDifferently(base, pipeline, false, commandSpec.commandLine().getErr());
            if (!warmupStep.isZero()) {
                System.err.printf(Locale.ROOT, "[warmup] %.0f requests/s for %s, not counted%n", startRate,
                        Durations.format(warmupStep));
                LoadSpec warm = base.toBuilder().duration(warmupStep).build();
                FrameRuns.held("ramp", warm, workload, new RunOptions("ramp", null, null, null,
                        Scenarios.config("ramp", warm, load), alone.uncountedHooks()));
            }
            List<StepRow> rows = new ArrayList<>();
            RateSearch.Result<Summary> result = search.run(rate -> {
                Summary s = step(base, workload, rate, target, alone);
                boolean pass = passes(s, rate);
                rows.add(progress(StepRow.of(rows.size() + 1, "rate", load.size.max(), rate, s, pass)));
                return new RateSearch.Outcome<>(s, pass, s.qps());
            }, alone::stopped);
            RateSearch.Step<Summary> knee = result.best();
            double good = knee == null ? 0 : knee.rate();
            String verdict = result.stopped() ? "stopped by a signal after step " + rows.size()
                    : knee == null ? "no rate met the SLO of " + slo.toMillis() + " ms"
                    : result.reachedMax() ? "every rate up to --max-rate met the SLO" : "knee found";
            StepsReport report = new StepsReport("ramp", target.address(load.protocol).toString(), load.protocol.tag(),
                    "corrected", rows, knee == null ? null : good,
                    knee == null ? null : knee.outcome().result().latencyUs().p99(), verdict);
            if (common.report != null) {
                ReportWriter.writeSummary(common.report, report, RunMetadata.current(startMillis, null));
            }
            return alone.exitStatus(RunSupport.conclude(common, report, knee != null ? ExitCodes.OK : ExitCodes.FAILURE,
                    () -> SweepCommand.printTable(report, out), out));
        }
    }

    /**
     * Met the SLO: no bad replies, errors or frames that answered no request, corrected p99 within it, and the server
     * kept up with the rate.
     */
    private boolean passes(Summary s, double rate) {
        return s.bad() == 0 && s.errors() == 0 && s.unexpected() == 0 && s.latencyUs().p99() <= slo.toNanos() / 1000
                && s.qps() >= 0.9 * rate;
    }

    private Summary step(LoadSpec base, FrameWorkload workload, double rate, RunSupport.Target target,
            StandAlone alone) throws InterruptedException {
        LoadSpec spec = base.toBuilder().rate(rate).build();
        return FrameRuns.held("ramp", spec, workload, new RunOptions("ramp", target.scrape(), null, null,
                Scenarios.config("ramp", spec, load), alone.hooks()));
    }

    private static StepRow progress(StepRow row) {
        System.err.printf(Locale.ROOT, "[step %d] rate %.0f/s: %.0f QPS, p99 %d us, errors %d, bad %d -> %s%n",
                row.step(), row.targetRate(), row.qps(), row.p99Us(), row.errors(), row.bad(),
                row.passed() ? "met the SLO" : "missed");
        return row;
    }
}
