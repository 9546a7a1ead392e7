package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ExitCodes;
import io.ricochet.loadgen.engine.RunHooks;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command the controller can split over workers: each worker runs it on its shard with the worker's hooks; run alone
 * (picocli's {@link #call}) it has those of {@link StandAlone}. Every one takes the {@link CommonOptions}.
 */
abstract class ScenarioCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    CommonOptions common() {
        return common;
    }

    /**
     * How long the scenario warms up before its first interval: {@code --warmup}, or its loop's default; zero for a
     * command whose warmup is not a time (rpc's is a call count).
     */
    Duration warmupTime() {
        LoadOptions load = loadOptions();
        return load == null ? Duration.ZERO : load.warmup(positive("--rate") || positive("--per-connection-rate"));
    }

    /** Whether its warmup is a time ({@link #warmupTime}), so a report can say how long it was, 0 s included. */
    boolean warmsUpForATime() {
        return loadOptions() != null;
    }

    private boolean positive(String option) {
        return commandSpec.findOption(option) != null && commandSpec.findOption(option).getValue() instanceof Number n
                && n.doubleValue() > 0;
    }

    /**
     * The workload the scenario runs, resolved once (its jars loaded, its parameters checked: a problem is a usage
     * error): a framed command's, from its {@link LoadOptions}; null for a command whose workload is built in.
     */
    io.ricochet.loadgen.workload.Workload workload() {
        LoadOptions load = loadOptions();
        return load == null ? null : Scenarios.workload(commandSpec, common, load);
    }

    /** The workload options of the command, for {@code --workload list}; null for one without them. */
    WorkloadOptions workloadOptions() {
        LoadOptions load = loadOptions();
        return load == null ? null : load.requests.workload;
    }

    /** The framed commands' shared options, or null for a command without them. */
    private LoadOptions loadOptions() {
        for (CommandSpec mixin : commandSpec.mixins().values()) {
            if (mixin.userObject() instanceof LoadOptions load) {
                return load;
            }
        }
        return null;
    }

    /** Runs the scenario as parsed with {@code hooks}. Returns the exit status. */
    abstract int run(RunHooks hooks) throws Exception;

    /** Run alone: a stop signal ends the run with what it measured, and --metrics-port serves its figures. */
    @Override
    public Integer call() throws Exception {
        WorkloadOptions options = workloadOptions();
        if (options != null && "list".equals(options.name)) {
            WorkloadCatalog.load(commandSpec.commandLine(), options.jars).print(commandSpec.commandLine().getOut());
            return ExitCodes.OK;
        }
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err)) {
            return alone.exitStatus(run(alone.hooks()));
        }
    }
}
