package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.Durations;
import io.ricochet.loadgen.engine.LoadSpec;
import io.ricochet.loadgen.engine.RateSearch;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.report.StepRow;
import io.ricochet.loadgen.report.StepsReport;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.run.ClientSecurity;
import io.ricochet.loadgen.run.FrameRuns;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.run.ScenarioWorkloads;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.RampSettings;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.workload.FrameWorkload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@picocli.CommandLine.Command(name = "ramp", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Auto-boost (FPNN's auto-boost, tcpkali's rate search): raise the open-loop rate until the "
                + "corrected p99 exceeds --slo, errors appear, or the server falls behind; then narrow down. Reports "
                + "the highest rate that met the SLO (the knee).")
final class RampCommand extends LoadCommand {
    @Mixin
    LoadOptions load;

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

    @Override
    Command command() {
        return Command.RAMP;
    }

    @Override
    void applyFlags(Scenario.Builder b, Predicate<String> given) {
        load.applyTo(b, given);
        if (given.test("--connections")) {
            b.connections(connections);
        }
        if (given.test("--pipeline")) {
            b.pipeline(pipeline);
        }
        RampSettings r = b.ramp();
        b.ramp(new RampSettings(given.test("--slo") ? slo : r.slo(), given.test("--start-rate") ? startRate
                : r.startRate(), given.test("--factor") ? factor : r.factor(), given.test("--max-rate") ? maxRate
                : r.maxRate(), given.test("--refine") ? refine : r.refine(), given.test("--warmup-step") ? warmupStep
                : r.warmupStep()));
    }

    @Override
    WorkloadOptions workloadOptions() {
        return load.requests.workload;
    }

    @Override
    int runAlone(Scenario s, StandAlone alone) throws Exception {
        long startMillis = System.currentTimeMillis();
        RampSettings ramp = s.ramp();
        RateSearch search = RateSearch.growingFrom(ramp.startRate(), ramp.factor(), ramp.maxRate())
                .bisections(ramp.refine());
        FrameWorkload workload;
        try {
            workload = ScenarioWorkloads.frames(s);
        } catch (ScenarioException e) {
            throw usage(e);
        }
        PrintWriter out = commandSpec.commandLine().getOut();
        try (EmbeddedTargets.Target target = EmbeddedTargets.resolve(s, workload, System.err)) {
            Scenario resolved = target.scenario();
            ClientSecurity security;
            LoadSpec base;
            try {
                security = ClientSecurity.of(resolved);
                base = ScenarioRuns.frames(resolved, security).toBuilder().rate(ramp.startRate()).build();
            } catch (ScenarioException e) {
                throw usage(e);
            }
            // Its own warmup step warms up; its steps warm up only when told.
            ScenarioCommand.noteWhatRunsDifferently(resolved, commandSpec.commandLine().getErr());
            if (!ramp.warmupStep().isZero()) {
                System.err.printf(Locale.ROOT, "[warmup] %.0f requests/s for %s, not counted%n", ramp.startRate(),
                        Durations.format(ramp.warmupStep()));
                LoadSpec warm = base.toBuilder().duration(ramp.warmupStep()).build();
                FrameRuns.held("ramp", warm, workload, new RunOptions("ramp", null, null, null,
                        config(resolved, security, ramp.startRate(), ramp.warmupStep()), alone.uncountedHooks()));
            }
            List<StepRow> rows = new ArrayList<>();
            RateSearch.Result<Summary> result = search.run(rate -> {
                LoadSpec spec = base.toBuilder().rate(rate).build();
                Summary step = FrameRuns.held("ramp", spec, workload, new RunOptions("ramp", target.scrape(), null, null,
                        config(resolved, security, rate, resolved.duration()), alone.hooks()));
                boolean pass = passes(step, rate, ramp.slo());
                rows.add(progress(StepRow.of(rows.size() + 1, "rate", s.bodySize().max(), rate, step, pass)));
                return new RateSearch.Outcome<>(step, pass, step.qps());
            }, alone::stopped);
            RateSearch.Step<Summary> knee = result.best();
            double good = knee == null ? 0 : knee.rate();
            String verdict = result.stopped() ? "stopped by a signal after step " + rows.size()
                    : knee == null ? "no rate met the SLO of " + ramp.slo().toMillis() + " ms"
                    : result.reachedMax() ? "every rate up to --max-rate met the SLO" : "knee found";
            StepsReport report = new StepsReport("ramp", resolved.target().toString(), resolved.transport().tag(),
                    "corrected", rows, knee == null ? null : good,
                    knee == null ? null : knee.outcome().result().latencyUs().p99(), verdict);
            if (s.report() != null) {
                ReportWriter.writeSummary(s.report(), report, RunMetadata.current(startMillis, null));
            }
            return RunSupport.conclude(s, alone.live(), report, knee != null ? ExitCodes.OK : ExitCodes.FAILURE,
                    () -> SweepCommand.printTable(report, out), out);
        }
    }

    /** A step's config.json: the scenario's, at the step's rate and length. */
    private static java.util.Map<String, Object> config(Scenario s, ClientSecurity security, double rate,
            Duration duration) {
        return ScenarioRuns.config(s.toBuilder().rate(rate).duration(duration).build(), security);
    }

    /**
     * Met the SLO: no bad replies, errors or frames that answered no request, corrected p99 within it, and the server
     * kept up with the rate.
     */
    private static boolean passes(Summary s, double rate, Duration slo) {
        return s.bad() == 0 && s.errors() == 0 && s.unexpected() == 0 && s.latencyUs().p99() <= slo.toNanos() / 1000
                && s.qps() >= 0.9 * rate;
    }

    private static StepRow progress(StepRow row) {
        System.err.printf(Locale.ROOT, "[step %d] rate %.0f/s: %.0f QPS, p99 %d us, errors %d, bad %d -> %s%n",
                row.step(), row.targetRate(), row.qps(), row.p99Us(), row.errors(), row.bad(),
                row.passed() ? "met the SLO" : "missed");
        return row;
    }
}
