package io.ricochet.loadgen.run;

import io.ricochet.loadgen.report.RpcSummary;
import io.ricochet.loadgen.report.Summary;

/**
 * A run's exit status from its summary, the same for the command line, a worker and the controller: 0 clean, 1 when a
 * reply was bad, a frame answered no request, or errors passed the tolerated share; 2 for a scenario that cannot run.
 *
 * <pre>{@code
 * int exit = ExitStatus.of(summary, scenario.maxErrorRate());
 * }</pre>
 */
public final class ExitStatus {
    /** Every reply verified, errors within what was tolerated. */
    public static final int OK = 0;
    /** Bad replies, unexpected frames, too many errors, or nothing measured. */
    public static final int FAILURE = 1;
    /** The scenario cannot run: a setting, a file or a workload refused before any connection. */
    public static final int USAGE = 2;

    private ExitStatus() {
    }

    /** The status of a run that ended with {@code summary}: a {@link Summary} or an {@link RpcSummary}. */
    public static int of(Object summary, double maxErrorRate) {
        return summary instanceof RpcSummary r ? of(r, maxErrorRate) : of((Summary) summary, maxErrorRate);
    }

    /**
     * Bad replies and frames that answered no request always fail the run; errors (and connect and handshake failures)
     * fail it past the tolerated rate; so does a run that ended no request.
     */
    public static int of(Summary s, double maxErrorRate) {
        if (s.bad() > 0 || s.unexpected() > 0) {
            return FAILURE;
        }
        long failures = s.errors() + s.connectFailures() + (s.handshakeFailures() == null ? 0 : s.handshakeFailures());
        if (failures > 0 && failures > maxErrorRate * Math.max(1, s.requests())) {
            return FAILURE;
        }
        return s.requests() == 0 ? FAILURE : OK;
    }

    /** An RPC run fails on a bad answer, on no answer at all, or on errors past the tolerated rate. */
    public static int of(RpcSummary s, double maxErrorRate) {
        if (s.bad() > 0 || s.receivedOk() == 0) {
            return FAILURE;
        }
        return s.errors() > maxErrorRate * s.requests() ? FAILURE : OK;
    }
}
