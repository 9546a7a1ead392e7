package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;
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
     * The longest the scenario may warm up before its first interval: {@code --warmup}, or the open-loop default
     * when not given; zero for a command whose warmup is not a time (rpc's is a call count).
     */
    Duration warmupBound() {
        for (CommandSpec mixin : commandSpec.mixins().values()) {
            if (mixin.userObject() instanceof LoadOptions load) {
                return load.warmup != null ? load.warmup : LoadOptions.OPEN_LOOP_WARMUP;
            }
        }
        return Duration.ZERO;
    }

    /** Runs the scenario as parsed with {@code hooks}. Returns the exit status. */
    abstract int run(RunHooks hooks) throws Exception;

    /** Run alone: a stop signal ends the run with what it measured, and --metrics-port serves its figures. */
    @Override
    public Integer call() throws Exception {
        try (StandAlone alone = StandAlone.open(commandSpec.commandLine(), common, System.err)) {
            return alone.exitStatus(run(alone.hooks()));
        }
    }
}
