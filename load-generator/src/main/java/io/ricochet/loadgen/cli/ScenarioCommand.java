package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;
import java.util.concurrent.Callable;

/**
 * A command the controller can split over workers: each worker runs it on its shard with hooks; run
 * alone (picocli's {@link #call}) it has none.
 */
interface ScenarioCommand extends Callable<Integer> {
    CommonOptions common();

    /** Runs the scenario as parsed; stand-alone runs pass {@link RunHooks#NONE}. Returns the exit status. */
    int run(RunHooks hooks) throws Exception;

    @Override
    default Integer call() throws Exception {
        return run(RunHooks.NONE);
    }
}
