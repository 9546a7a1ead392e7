package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.distributed.RunSecret;
import io.ricochet.loadgen.distributed.WorkerSession;
import io.ricochet.loadgen.distributed.proto.Assignment;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import sun.misc.Signal;
import sun.misc.SignalHandler;

@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = "One worker of a distributed run: connects to the controller, receives its shard of the "
                + "scenario, runs it when every worker is ready, streams each interval, exits. Started by the "
                + "controller's executor, not by hand.")
final class WorkerCommand implements Callable<Integer> {
    static final String INDEX_ENV = "JOB_COMPLETION_INDEX";

    @Spec
    CommandSpec spec;

    @Option(names = "--controller", required = true, converter = Converters.AddressConverter.class,
            description = "The controller's coordination endpoint, HOST:PORT.")
    InetSocketAddress controller;

    @Option(names = "--index", description = "This worker's index; default: $" + INDEX_ENV + " (an Indexed Job's pod).")
    Integer index;

    @Option(names = "--connect-timeout", defaultValue = "120s", converter = ValueConverters.DurationConverter.class,
            description = "How long to keep trying to reach the controller (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Override
    public Integer call() throws Exception {
        // Ctrl-C in a terminal reaches the whole process group: a local worker leaves the stop to its controller,
        // which stops every worker and merges what they measured. SIGTERM (a pod deleted) still ends it.
        Signal interrupt = new Signal("INT");
        SignalHandler previous = Signal.handle(interrupt, SignalHandler.SIG_IGN);
        try {
            return serve();
        } finally {
            Signal.handle(interrupt, previous);
        }
    }

    private int serve() throws Exception {
        int me = resolveIndex();
        PrintStream log = System.err;
        String runSecret = System.getenv(RunSecret.ENV);
        if (runSecret == null || runSecret.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "$" + RunSecret.ENV + " is not set: a worker needs the secret "
                    + "of the run its controller started it for");
        }
        try (WorkerSession session = new WorkerSession(controller, me, log, runSecret)) {
            Assignment assignment = session.connect(connectTimeout);
            log.println("worker " + me + " of " + assignment.getWorkers() + " (pid " + ProcessHandle.current().pid() + "): "
                    + String.join(" ", assignment.getArgsList()));
            CommandLine scenarioCli = LoadGeneratorMain.newCommandLine();
            scenarioCli.setOut(new PrintWriter(log, true));
            ScenarioCommand scenario;
            try {
                ParseResult parsed = scenarioCli.parseArgs(assignment.getArgsList().toArray(String[]::new));
                scenario = (ScenarioCommand) parsed.subcommand().commandSpec().userObject();
            } catch (ParameterException | ClassCastException | NullPointerException e) {
                session.done(ExitCodes.USAGE, "shard not runnable: " + e.getMessage());
                throw new ParameterException(spec.commandLine(), "shard not runnable: " + e.getMessage());
            }
            int exit;
            try {
                exit = scenario.run(session);
            } catch (ParameterException e) {
                // Its workload or files, as this worker sees them (a pod's image without the workload's jar, say).
                session.done(ExitCodes.USAGE, "cannot run its shard: " + e.getMessage());
                throw e;
            } catch (Exception e) {
                session.done(ExitCodes.FAILURE, e.getMessage() == null ? e.toString() : e.getMessage());
                throw e;
            }
            session.done(exit, null);
            return exit;
        }
    }

    private int resolveIndex() {
        if (index != null) {
            return index;
        }
        String env = System.getenv(INDEX_ENV);
        if (env == null) {
            throw new ParameterException(spec.commandLine(), "worker index: neither --index nor $" + INDEX_ENV + " is set");
        }
        try {
            return Integer.parseInt(env.trim());
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "worker index: $" + INDEX_ENV + "=" + env + " (expected: a number)");
        }
    }
}
