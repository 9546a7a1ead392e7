package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.distributed.WorkerMain;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A worker, as a Kubernetes Job's pod runs one: the same worker a local run starts ({@link WorkerMain}). */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = "One worker of a distributed run: connects to the controller, receives its shard of the "
                + "scenario as a typed message, runs it when every worker is ready, streams each interval, exits. "
                + "Started by the controller's executor, not by hand.")
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
    public Integer call() {
        return WorkerMain.serve(controller, resolveIndex(), connectTimeout);
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
