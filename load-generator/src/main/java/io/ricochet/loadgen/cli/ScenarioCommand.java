package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command the controller can split over workers: each worker runs it on its shard with hooks; run alone (picocli's
 * {@link #call}) it has none. Every one takes the {@link CommonOptions}.
 */
abstract class ScenarioCommand implements Callable<Integer> {
    @Spec
    CommandSpec commandSpec;
    @Mixin
    CommonOptions common;

    CommonOptions common() {
        return common;
    }

    /** Runs the scenario as parsed; stand-alone runs pass {@link RunHooks#NONE}. Returns the exit status. */
    abstract int run(RunHooks hooks) throws Exception;

    @Override
    public Integer call() throws Exception {
        return run(RunHooks.NONE);
    }
}
