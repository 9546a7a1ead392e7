package io.ricochet.loadgen.engine;

/**
 * How a run cooperates with a controller when it is one worker's shard: it waits for the start signal, hands over each
 * interval's counts and histograms, stops early when told, and hands over its summary. A stand-alone run uses
 * {@link #NONE}.
 */
public interface RunHooks {
    RunHooks NONE = new RunHooks() {
    };

    /** Blocks until every worker is ready and the controller says go; false means abandon the run. */
    default boolean awaitStart() {
        return true;
    }

    /** One measured interval; the histograms are reused after the call returns, so copy what you keep. */
    default void interval(Interval data) {
    }

    /** Checked while the run waits; true ends it as if its duration were over. */
    default boolean stopRequested() {
        return false;
    }

    /** The run's summary, before it is printed. */
    default void finished(Object summary) {
    }
}
