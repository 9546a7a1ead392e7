package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.stats.RunStats;

/**
 * The counts the workers' interval reports carry, summed: over the workers of one interval, over one worker's
 * intervals, or over every worker at the end.
 */
final class ReportedCounts {
    long sent;
    long ok;
    long bad;
    long errors;
    long late;
    long unexpected;
    long okBytes;
    long connects;
    long connectFailures;
    long handshakeFailures;

    void add(IntervalReport report) {
        sent += report.getSent();
        ok += report.getOk();
        bad += report.getBad();
        errors += report.getErrors();
        late += report.getLate();
        unexpected += report.getUnexpected();
        okBytes += report.getOkBytes();
        connects += report.getConnects();
        connectFailures += report.getConnectFailures();
        handshakeFailures += report.getHandshakeFailures();
    }

    void add(ReportedCounts other) {
        sent += other.sent;
        ok += other.ok;
        bad += other.bad;
        errors += other.errors;
        late += other.late;
        unexpected += other.unexpected;
        okBytes += other.okBytes;
        connects += other.connects;
        connectFailures += other.connectFailures;
        handshakeFailures += other.handshakeFailures;
    }

    /** As a run's counts, with {@code sent} and {@code connects} as given. */
    RunStats.Counts toCounts(long sent, long connects) {
        return new RunStats.Counts(sent, ok, bad, errors, late, unexpected, okBytes, connects, connectFailures);
    }
}
