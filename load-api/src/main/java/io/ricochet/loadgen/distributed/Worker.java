package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.distributed.proto.Assignment;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.RpcSummaryTable;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.run.ExitStatus;
import io.ricochet.loadgen.run.RunOptions;
import io.ricochet.loadgen.run.ScenarioRuns;
import io.ricochet.loadgen.run.ScenarioWorkloads;
import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.ScenarioException;
import io.ricochet.loadgen.scenario.ScenarioKeys;
import io.ricochet.loadgen.scenario.ScenarioMessages;
import io.ricochet.loadgen.workload.Workload;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One worker of a distributed run: it connects to the controller with the run's secret, receives its shard as a typed
 * {@link Scenario}, makes its workload, waits at the start barrier, runs the shard on the engine while streaming every
 * interval, and reports how it ended. It parses no command line. A shard it cannot run (of another version, an
 * unknown workload, a file it cannot read) is reported before the start barrier, in one line, and the controller stops
 * the run with it.
 *
 * <pre>{@code
 * int exit = Worker.run(new InetSocketAddress("controller", 7200), 3, Duration.ofMinutes(2),
 *         System.getenv(RunSecret.ENV), System.err);
 * }</pre>
 */
public final class Worker {
    private Worker() {
    }

    /**
     * Runs worker {@code index}'s shard of the run the controller at {@code controller} holds, logging to {@code log};
     * returns the exit status (0 clean, 1 failed, 2 its shard could not run).
     */
    public static int run(InetSocketAddress controller, int index, Duration connectTimeout, String runSecret,
            PrintStream log) throws Exception {
        try (WorkerSession session = new WorkerSession(controller, index, log, runSecret)) {
            Assignment assignment = session.connect(connectTimeout);
            Scenario shard;
            Workload workload;
            try {
                shard = ScenarioMessages.decode(assignment.getScenario());
                log.println("worker " + index + " of " + assignment.getWorkers() + " (pid "
                        + ProcessHandle.current().pid() + "): " + describe(shard));
                workload = ScenarioWorkloads.of(shard);
            } catch (IllegalArgumentException e) {
                // Before the start barrier: the controller stops the run with this one line, and no load is sent.
                String why = "cannot run its shard: " + oneLine(e, shardCommand(assignment));
                log.println("worker " + index + ": " + why);
                session.done(ExitStatus.USAGE, why);
                return ExitStatus.USAGE;
            }
            int exit;
            try {
                Object summary = ScenarioRuns.run(shard, workload, new RunOptions(shard.command().label(), List.of(),
                        shard.report(), log, Map.of(), session));
                print(summary, log);
                exit = ExitStatus.of(summary, shard.maxErrorRate());
            } catch (IllegalArgumentException e) {
                session.done(ExitStatus.USAGE, "cannot run its shard: " + oneLine(e, shard.command()));
                throw e;
            } catch (Exception e) {
                session.done(ExitStatus.FAILURE, e.getMessage() == null ? e.toString() : e.getMessage());
                throw e;
            }
            session.done(exit, null);
            return exit;
        }
    }

    /**
     * A refusal of its shard, in the words of the command line that made it, so a controller's user reads the flag
     * they typed: {@code invalid option value: --workload kv-text: no workload jar provides it (...)}.
     */
    static String oneLine(IllegalArgumentException e, Command command) {
        if (e instanceof ScenarioException s && command != null) {
            String message = s.render(key -> ScenarioKeys.flag(command, key));
            return s.invalidValue() ? "invalid option value: " + message : message;
        }
        return e.getMessage();
    }

    /** The command a shard message names, or null if it names none this worker knows. */
    private static Command shardCommand(Assignment assignment) {
        try {
            return Command.parse(assignment.getScenario().getCommand());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The shard in one line of its log: what it runs, against what, with how many connections. */
    static String describe(Scenario s) {
        return s.command().label() + " " + (s.target() == null ? "(no target)" : s.target()) + ", " + s.connections()
                + (s.command().rpc() ? " client(s), " + s.requests() + " request(s)" : " connection(s)")
                + (s.rate() > 0 ? ", " + s.rate() + "/s" : "") + ", seed " + s.seed() + ", first connection "
                + s.firstConnection();
    }

    private static void print(Object summary, PrintStream log) {
        PrintWriter out = new PrintWriter(log, true);
        if (summary instanceof RpcSummary r) {
            RpcSummaryTable.print(r, out);
        } else {
            SummaryTable.print((Summary) summary, out);
        }
        out.flush();
    }
}
