package io.ricochet.loadgen.report;

import java.util.List;

/** A distributed run: the merged summary, in the same shape as a single process's, and each worker. */
public record DistributedSummary(Summary merged, int workers, String executor, List<WorkerRow> workerRows,
        List<String> problems) {
}
