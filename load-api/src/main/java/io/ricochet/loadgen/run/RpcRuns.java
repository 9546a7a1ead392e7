package io.ricochet.loadgen.run;

import io.ricochet.loadgen.engine.RpcLoad;
import io.ricochet.loadgen.engine.RpcSpec;
import io.ricochet.loadgen.engine.Schedule;
import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summaries;
import java.time.Duration;

/**
 * One RPC run on the engine, measured from the first call to the last answer and summed up in nbagent's columns, with
 * a {@code clients.csv} beside the report when it has clients.
 */
public final class RpcRuns {
    private RpcRuns() {
    }

    /** Measures {@code load} (which this closes) every {@code interval}. */
    public static RpcSummary run(String command, RpcLoad load, Duration interval, RunOptions options)
            throws InterruptedException {
        RpcSpec spec = load.spec();
        try (load) {
            return Runs.measure(load, Schedule.untilFinished(interval, spec.timeout()), options,
                    (measured, server, report) -> {
                        RpcSummary summary = Summaries.rpc(command,
                                spec.target().getHostString() + ":" + spec.target().getPort(), measured.total().sent(),
                                spec.clients(), spec.inFlight(), measured, server);
                        if (report != null && !summary.clients().isEmpty()) {
                            report.csv("clients.csv", ClientRow.COLUMNS,
                                    summary.clients().stream().map(ClientRow::csv).toList());
                        }
                        return summary;
                    });
        }
    }
}
