package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.scenario.RunHooks;

/** A command the controller can split over workers: each worker runs it on its shard with hooks. */
interface ScenarioCommand {
    CommonOptions common();

    /** Runs the scenario as parsed; stand-alone runs pass {@link RunHooks#NONE}. Returns the exit status. */
    int run(RunHooks hooks) throws Exception;
}
