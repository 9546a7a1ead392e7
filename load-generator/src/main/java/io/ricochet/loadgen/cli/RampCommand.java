package io.ricochet.loadgen.cli;

import io.ricochet.config.Durations;
import io.ricochet.config.InvalidValueException;
import io.ricochet.internal.Checks;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.StepRow;
import io.ricochet.loadgen.report.StepsReport;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.scenario.LoadRun;
import io.ricochet.loadgen.scenario.LoadSpec;
import io.ricochet.loadgen.scenario.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
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
    @Option(names = "--connections", converter = Converters.CountConverter.class, defaultValue = "10", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--pipeline", converter = Converters.CountConverter.class, defaultValue = "16", description = "Most requests in flight per connection (default: ${DEFAULT-VALUE}).")
    int pipeline;

    @Option(names = "--slo", defaultValue = "10ms", converter = Converters.DurationConverter.class,
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

    @Option(names = "--warmup-step", defaultValue = "2s", converter = Converters.DurationConverter.class,
            description = "An uncounted first run at the start rate, so JIT compilation does not fail step 1 (default: ${DEFAULT-VALUE}).")
    Duration warmupStep;

    @Override
    public Integer call() throws Exception {
        try {
            if (!(startRate > 0)) {
                throw new InvalidValueException("startRate", Double.toString(startRate), "> 0");
            }
            if (!(factor > 1)) {
                throw new InvalidValueException("factor", Double.toString(factor), "> 1");
            }
            Checks.inRange("refine", refine, 0, 64);
            Checks.positive("connections", connections);
        } catch (IllegalArgumentException e) {
            throw FlagNames.usage(commandSpec, e);
        }
        PrintWriter out = commandSpec.commandLine().getOut();
        List<StepRow> rows = new ArrayList<>();
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err);
                RunSupport.Target target = RunSupport.target(commandSpec.commandLine(), common, load.field(),
                        Math.max(load.field().defaultMaxFrame(), load.size.max()), Duration.ofSeconds(30),
                        load.protocol, System.err)) {
            LoadSpec base;
            try {
                base = LoadSpec.builder(target.address(load.protocol)).protocol(load.protocol).connections(connections)
                        .pipeline(pipeline).size(load.size.min(), load.size.max()).lengthField(load.field())
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
                new LoadRun(warm, new RunOptions("ramp", null, null, null, Scenarios.config("ramp", warm),
                        alone.uncountedHooks())).run();
            }
            double good = 0;
            long goodP99 = 0;
            double bad = 0;
            double rate = startRate;
            int step = 0;
            while (rate <= maxRate && !alone.stopped()) {
                Summary s = step(base, rate, target, alone);
                boolean pass = passes(s, rate);
                rows.add(progress(StepRow.of(++step, "rate", load.size.max(), rate, s, pass)));
                if (alone.stopped()) {
                    // A step cut short says nothing about its rate.
                    break;
                }
                if (!pass) {
                    bad = rate;
                    break;
                }
                good = rate;
                goodP99 = s.latencyUs().p99();
                rate *= factor;
            }
            for (int i = 0; i < refine && bad > 0 && good > 0 && !alone.stopped(); i++) {
                double mid = (good + bad) / 2;
                Summary s = step(base, mid, target, alone);
                boolean pass = passes(s, mid);
                rows.add(progress(StepRow.of(++step, "rate", load.size.max(), mid, s, pass)));
                if (alone.stopped()) {
                    break;
                }
                if (pass) {
                    good = mid;
                    goodP99 = s.latencyUs().p99();
                } else {
                    bad = mid;
                }
            }
            String verdict = alone.stopped() ? "stopped by a signal after step " + step
                    : good == 0 ? "no rate met the SLO of " + slo.toMillis() + " ms"
                    : bad == 0 ? "every rate up to --max-rate met the SLO" : "knee found";
            StepsReport report = new StepsReport("ramp", target.address(load.protocol).toString(), load.protocol.tag(), "corrected", rows,
                    good == 0 ? null : good, good == 0 ? null : goodP99, verdict);
            if (common.report != null) {
                Files.createDirectories(common.report);
                ReportWriter.JSON.writeValue(common.report.resolve("summary.json").toFile(), report);
            }
            return alone.exitStatus(RunSupport.conclude(common, report, good > 0 ? ExitCodes.OK : ExitCodes.FAILED,
                    () -> SweepCommand.printTable(report, out), out));
        }
    }

    /** Met the SLO: no bad replies or errors, corrected p99 within it, and the server kept up with the rate. */
    private boolean passes(Summary s, double rate) {
        return s.bad() == 0 && s.errors() == 0 && s.latencyUs().p99() <= slo.toNanos() / 1000
                && s.qps() >= 0.9 * rate;
    }

    private Summary step(LoadSpec base, double rate, RunSupport.Target target, StandAlone alone)
            throws InterruptedException {
        LoadSpec spec = base.toBuilder().rate(rate).build();
        return new LoadRun(spec, new RunOptions("ramp", target.scrape(), null, null, Scenarios.config("ramp", spec),
                alone.hooks())).run();
    }

    private static StepRow progress(StepRow row) {
        System.err.printf(Locale.ROOT, "[step %d] rate %.0f/s: %.0f QPS, p99 %d us, errors %d, bad %d -> %s%n",
                row.step(), row.targetRate(), row.qps(), row.p99Us(), row.errors(), row.bad(),
                row.passed() ? "met the SLO" : "missed");
        return row;
    }
}
