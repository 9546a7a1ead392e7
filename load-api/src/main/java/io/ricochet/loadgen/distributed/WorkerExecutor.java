package io.ricochet.loadgen.distributed;

import java.net.InetSocketAddress;
import java.util.Map;

/** Starts the workers of a run somewhere, notices the ones that fail to run, and cleans up. */
public interface WorkerExecutor extends AutoCloseable {

    /**
     * Starts every worker, pointed at the controller's advertised coordination address, with the run's
     * secret in its environment ({@link RunSecret#ENV}).
     */
    void launch(InetSocketAddress controller, String runSecret) throws Exception;

    /** Workers that failed to run since the last call (index → why: exit status, unschedulable pod, …). */
    Map<Integer, String> poll();

    /** Stops whatever still runs and removes what was created (unless asked to keep it). */
    @Override
    void close();
}
