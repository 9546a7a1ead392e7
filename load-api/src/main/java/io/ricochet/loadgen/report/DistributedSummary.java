package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A distributed run: the merged summary, in the same shape as a single process's, and each worker.
 * {@code refusedInputs} counts the coordination calls the controller refused (from a connection that
 * did not say hello, or with fields out of range); the problems say which. {@code workersLost} counts the workers lost
 * after the start, {@code onWorkerLoss} is the policy the run had for them ({@code abort} or {@code continue}), and
 * {@code aborted} says why the run was stopped early, or is absent.
 */
public record DistributedSummary(Summary merged, int workers, String executor, List<WorkerRow> workerRows,
        List<String> problems, long refusedInputs, int workersLost, String onWorkerLoss,
        @JsonInclude(JsonInclude.Include.NON_NULL) String aborted) {
}
