package io.ricochet.loadgen.cli;

import io.ricochet.config.LengthField;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.report.Summary;
import io.ricochet.loadgen.report.SummaryTable;
import io.ricochet.loadgen.scenario.LoadRun;
import io.ricochet.loadgen.scenario.LoadSpec;
import io.ricochet.loadgen.scenario.RunOptions;
import io.ricochet.transport.Protocol;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/** What every command does around its scenario: the embedded target, the output, the exit status. */
final class RunSupport {
    private RunSupport() {
    }

    /**
     * A target to load and, for the embedded server, its metrics; closes the server afterwards. With
     * {@code --target} every address is that one; {@code rpc} is null for an embedded server without RPC.
     */
    record Target(InetSocketAddress tcp, InetSocketAddress udp, InetSocketAddress rpc, URI scrape, EmbeddedTarget embedded)
            implements AutoCloseable {
        InetSocketAddress address(Protocol protocol) {
            return protocol == Protocol.UDP ? udp : tcp;
        }

        @Override
        public void close() {
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    static Target target(CommonOptions common, LengthField lengthField, int maxFrame, Duration idleTimeout,
            PrintStream err) {
        return target(common, lengthField, maxFrame, idleTimeout, false, err);
    }

    /** As above; {@code withRpc} also starts the embedded server's RPC port. */
    static Target target(CommonOptions common, LengthField lengthField, int maxFrame, Duration idleTimeout,
            boolean withRpc, PrintStream err) {
        if (common.target != null) {
            return new Target(common.target, common.target, common.target, common.scrape, null);
        }
        EmbeddedTarget embedded = new EmbeddedTarget(lengthField, maxFrame, common.serverIoThreads, idleTimeout, withRpc);
        err.println(embedded.describe());
        return new Target(embedded.server().tcpAddress(), embedded.server().udpAddress(), embedded.rpcAddress(),
                common.scrape != null ? common.scrape : embedded.metricsUri(), embedded);
    }

    static int runAndReport(String command, LoadSpec spec, CommonOptions common, URI scrape, PrintWriter out,
            PrintStream err, Map<String, Object> config, io.ricochet.loadgen.scenario.RunHooks hooks) throws InterruptedException {
        Summary summary = new LoadRun(spec, new RunOptions(command, scrape, common.report, err, config, hooks)).run();
        print(summary, common.json, out);
        return exitStatus(summary, common.maxErrorRate);
    }

    static void print(Object summary, boolean json, PrintWriter out) {
        if (json) {
            try {
                out.println(ReportWriter.JSON.writeValueAsString(summary));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        } else if (summary instanceof Summary s) {
            SummaryTable.print(s, out);
        }
        out.flush();
    }

    /** Bad replies always fail the run; errors (and connect failures) fail it past the tolerated rate. */
    static int exitStatus(Summary s, double maxErrorRate) {
        if (s.bad() > 0) {
            return ExitCodes.FAILED;
        }
        long failures = s.errors() + s.connectFailures();
        if (failures > 0 && failures > maxErrorRate * Math.max(1, s.requests())) {
            return ExitCodes.FAILED;
        }
        if (s.requests() == 0) {
            return ExitCodes.FAILED;
        }
        return ExitCodes.OK;
    }
}
