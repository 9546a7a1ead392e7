package io.ricochet.loadgen.report;

import java.util.List;

/**
 * A distributed run: the merged summary, in the same shape as a single process's, and each worker.
 * {@code refusedInputs} counts the coordination calls the controller refused (from a connection that
 * did not say hello, or with fields out of range); the problems say which.
 */
public record DistributedSummary(Summary merged, int workers, String executor, List<WorkerRow> workerRows,
        List<String> problems, long refusedInputs) {
}
