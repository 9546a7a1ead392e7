package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.distributed.proto.WorkerSummary;
import io.ricochet.loadgen.report.RunMetadata;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcConnection;
import org.HdrHistogram.Histogram;

/** One worker as the controller sees it; guarded by the {@link WorkerRoster}'s lock. */
final class WorkerStatus {
    final int index;
    WorkerState state = WorkerState.PENDING;
    String host = "";
    /** Where it runs, as it said in its hello: for the merged run's {@code run.workers}; null before its hello. */
    RunMetadata.Worker machine;
    String reason = "";
    RpcConnection connection;
    long lastReportNanos;
    /** The last interval number merged; each report's must be greater. */
    long lastInterval = -1;
    long intervals;
    /** The counts of every interval merged. */
    final ReportedCounts counts = new ReportedCounts();
    int openConnections;
    final Histogram latency = RunStats.newHistogram();
    /** What the controller takes from the worker's own summary, once done; null if it never ran. */
    WorkerSummary summary;
    int exitCode = -1;
    /** When it was lost after the start (System.nanoTime), or 0 if it was not. */
    long lostAtNanos;

    WorkerStatus(int index) {
        this.index = index;
    }

    void fail(String why) {
        if (!state.terminal()) {
            state = WorkerState.FAILED;
            reason = why;
        }
    }

    long completed() {
        return counts.ok + counts.bad + counts.errors;
    }
}
