package io.ricochet.loadgen.scenario;

import io.ricochet.internal.Checks;
import io.ricochet.loadgen.report.UdpStreamSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * RFC 2544's throughput method for UDP: the highest offered rate whose loss stays at or below {@code maxLoss} over a
 * whole trial. The first trial sends as fast as the client can; that rate bounds the search from above, and ends it
 * when even it loses no more than the bound (the client, not the server, is then the limit). After it, a binary
 * search between the highest rate that passed (0 at first) and the lowest that failed, until the two are within
 * {@code precision} of the upper one or {@code maxTrials} have run. A trial with a bad reply fails, and so does one
 * that sent less than asked, since it did not offer the rate it stands for.
 */
public final class ZeroLossSearch {
    /** Runs one trial at {@code ratePps} datagrams per second (0: as fast as the client can). */
    public interface Trial {
        UdpStreamSummary run(double ratePps) throws InterruptedException;
    }

    /**
     * @param trials        every trial, in the order run
     * @param best          the trial at the highest rate that passed, or null if none did
     * @param clientLimited whether the unlimited first trial passed: the rate found is the client's, not the server's
     */
    public record Result(List<UdpStreamSummary> trials, UdpStreamSummary best, boolean clientLimited) {
        public Result {
            trials = List.copyOf(trials);
        }
    }

    private final double maxLoss;
    private final double precision;
    private final int maxTrials;

    public ZeroLossSearch(double maxLoss, double precision, int maxTrials) {
        this.maxLoss = Checks.inRange("maxLoss", maxLoss, 0, 1);
        this.precision = Checks.inRange("precision", precision, 0.001, 0.5);
        this.maxTrials = Checks.inRange("maxTrials", maxTrials, 2, 100);
    }

    /** Searches until it converges, the trials run out or {@code stopped} says so (checked before each trial). */
    public Result run(Trial trial, BooleanSupplier stopped) throws InterruptedException {
        List<UdpStreamSummary> trials = new ArrayList<>();
        UdpStreamSummary unlimited = trial.run(0);
        trials.add(unlimited);
        if (passes(unlimited)) {
            return new Result(trials, unlimited, true);
        }
        double passed = 0;
        double failed = unlimited.sentPps();
        UdpStreamSummary best = null;
        while (trials.size() < maxTrials && failed - passed > precision * failed && !stopped.getAsBoolean()) {
            double rate = (passed + failed) / 2;
            UdpStreamSummary t = trial.run(rate);
            trials.add(t);
            if (passes(t)) {
                passed = rate;
                best = t;
            } else {
                failed = rate;
            }
        }
        return new Result(trials, best, false);
    }

    /** Whether a trial offered the rate asked and lost no more than the bound, with every reply verified. */
    public boolean passes(UdpStreamSummary trial) {
        return trial.sent() > 0 && trial.bad() == 0 && trial.loss() <= maxLoss && !trial.sentLessThanAsked();
    }
}
