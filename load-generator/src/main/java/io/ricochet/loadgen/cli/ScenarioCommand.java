package io.ricochet.loadgen.cli;

import io.ricochet.config.Durations;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.RpcSummaryTable;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.run.ScenarioWorkloads;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.workload.Workload;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Map;

/**
 * A command a controller can split over workers (echo, rr, crr, massive, rpc, register): run alone, it makes its
 * workload, checks the plan, resolves its target (an embedded server without {@code --target}) and runs its scenario
 * on the engine as a worker runs its shard.
 */
abstract class ScenarioCommand extends LoadCommand {

    /** The workload {@code s} runs, made once before any connection; a problem is a usage error naming its flag. */
    Workload workload(Scenario s) {
        try {
            return ScenarioWorkloads.of(s);
        } catch (ScenarioException e) {
            throw usage(e);
        }
    }

    @Override
    int runAlone(Scenario s, StandAlone alone) throws Exception {
        Workload workload = workload(s);
        Plans.checkAlone(commandSpec.commandLine(), s, workload);
        PrintStream err = System.err;
        PrintWriter out = commandSpec.commandLine().getOut();
        try (EmbeddedTargets.Target target = EmbeddedTargets.resolve(s, workload, err)) {
            Scenario resolved = target.scenario();
            noteWhatRunsDifferently(resolved, commandSpec.commandLine().getErr());
            if (s.command().rpc() && s.warmupRequests() > 0) {
                err.println("warmup: " + s.warmupRequests() + (s.command().label().equals("register") ? " cycles"
                        : " calls") + " on the same connections, not counted");
            }
            Object summary;
            try {
                summary = ScenarioRuns.run(resolved, workload, new RunOptions(s.command().label(), target.scrape(),
                        s.report(), err, Map.of(), alone.hooks()));
            } catch (ScenarioException e) {
                throw usage(e);
            }
            if (summary instanceof RpcSummary r) {
                return RunSupport.conclude(s, alone.live(), r, RunSupport.exitStatus(r, s.maxErrorRate()),
                        () -> RpcSummaryTable.print(r, out), out);
            }
            Summary frames = (Summary) summary;
            return RunSupport.conclude(s, alone.live(), frames, RunSupport.exitStatus(frames, s.maxErrorRate()),
                    () -> SummaryTable.print(frames, out), out);
        }
    }

    /**
     * Says what the run does that was not asked in so many words: an open loop's default warmup, and over UDP one
     * request in flight per socket.
     */
    static void noteWhatRunsDifferently(Scenario s, PrintWriter err) {
        if (s.command().rpc()) {
            return;
        }
        if (s.warmup() == null && !s.effectiveWarmup().isZero()) {
            err.println("note: open loop warms up for " + Durations.format(s.effectiveWarmup()) + " first, not counted, "
                    + "so the JVM's start-up is not in the latency (--warmup 0s counts it)");
        }
        if (s.transport() == Protocol.UDP && s.pipeline() != 1) {
            err.println("note: --pipeline " + s.pipeline() + " runs as 1 over UDP: one datagram in flight per socket, "
                    + "so a lost one is told by its timeout alone; for more in flight use more --connections");
        }
        err.flush();
    }
}
