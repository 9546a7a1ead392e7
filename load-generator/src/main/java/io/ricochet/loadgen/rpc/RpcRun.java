package io.ricochet.loadgen.rpc;

import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.scenario.LoadDriver;
import io.ricochet.loadgen.scenario.Measurement;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.loadgen.scenario.Schedule;
import java.time.Duration;
import java.util.List;

/**
 * One RPC run: its {@link RpcWorkload} measured by the {@link LoadDriver} from the first call to the last answer, and
 * summed up in nbagent's columns, with a {@code clients.csv} beside the report when it has clients.
 */
public final class RpcRun {
    private final RpcBenchSpec spec;
    private final RunOptions options;
    private final Duration interval;

    public RpcRun(RpcBenchSpec spec, RunOptions options, Duration interval) {
        this.spec = spec;
        this.options = options;
        this.interval = interval;
    }

    /** Measures {@code workload}, which the caller closes. */
    public RpcSummary run(RpcWorkload workload) throws InterruptedException {
        return new LoadDriver(options, Schedule.untilFinished(interval, spec.timeout()))
                .run(workload, (measured, report) -> summary(workload, measured, report));
    }

    private RpcSummary summary(RpcWorkload workload, Measurement measured, ReportWriter report) {
        double seconds = measured.seconds();
        List<ClientRow> clients = workload.clients(seconds);
        if (report != null && !clients.isEmpty()) {
            report.csv("clients.csv", ClientRow.COLUMNS, clients.stream().map(ClientRow::csv).toList());
        }
        return new RpcSummary(options.command(), spec.target().getHostString() + ":" + spec.target().getPort(),
                workload.io(), workload.total(), spec.clients(), spec.inFlight(), measured.total().completed(),
                measured.total().ok(), measured.total().bad(), measured.total().errors(), round(seconds),
                round(measured.total().ok() / seconds), LatencySummary.of(measured.latencies().service()),
                workload.steps(), clients, measured.server(), workload.firstError());
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
