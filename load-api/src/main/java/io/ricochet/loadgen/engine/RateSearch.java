package io.ricochet.loadgen.engine;

import io.ricochet.config.InvalidValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The one search for the highest rate a server sustains, shared by ramp (the latency knee: tcpkali's and FPNN's
 * auto-boost) and udp-stream's {@code --search} (RFC 2544's zero-loss throughput). It brackets the rate first, then
 * bisects between the highest rate that passed and the lowest that failed.
 *
 * <ul>
 *   <li>Bracketing up from a start rate: each trial {@code factor} times the last, until one fails or the next would pass
 *       {@code maxRate}.</li>
 *   <li>Bracketing down from as fast as the client can: the first trial is unlimited; if it passes, the client is the
 *       limit and the search ends; if not, the rate it achieved is the upper bound and 0 the lower.</li>
 * </ul>
 *
 * Bisection stops after {@code bisections} steps, when the bounds are within {@code precision} of the upper one, or
 * when {@code maxTrials} have run, whichever comes first; and before any trial once {@code stopped} says so. A trial cut
 * short by a stop is kept, but says nothing about its rate.
 *
 * <pre>{@code
 * RateSearch.Result<Summary> knee = RateSearch.growingFrom(1_000, 2, 10_000_000).bisections(3)
 *         .run(rate -> RateSearch.Outcome.of(step(rate), passes), signals::received);
 * }</pre>
 */
public final class RateSearch {
    private final double startRate;
    private final double factor;
    private final double maxRate;
    private int bisections = Integer.MAX_VALUE;
    private double precision;
    private int maxTrials = Integer.MAX_VALUE;

    private RateSearch(double startRate, double factor, double maxRate) {
        this.startRate = startRate;
        this.factor = factor;
        this.maxRate = maxRate;
    }

    /** Brackets up: {@code start}, then {@code factor} times each rate that passed, to {@code maxRate}. */
    public static RateSearch growingFrom(double start, double factor, double maxRate) {
        if (!(start > 0)) {
            throw new InvalidValueException("startRate", Double.toString(start), "> 0");
        }
        if (!(factor > 1)) {
            throw new InvalidValueException("factor", Double.toString(factor), "> 1");
        }
        return new RateSearch(start, factor, maxRate);
    }

    /** Brackets down: an unlimited first trial (rate 0), whose achieved rate bounds the rest. */
    public static RateSearch fromUnlimited() {
        return new RateSearch(0, 0, Double.MAX_VALUE);
    }

    /** At most {@code n} bisection steps. */
    public RateSearch bisections(int n) {
        this.bisections = n;
        return this;
    }

    /** Stops bisecting once the bounds are within {@code fraction} of the upper one. */
    public RateSearch precision(double fraction) {
        this.precision = fraction;
        return this;
    }

    /** At most {@code n} trials in all, the first included. */
    public RateSearch maxTrials(int n) {
        this.maxTrials = n;
        return this;
    }

    /** Runs one trial at {@code rate} (0: as fast as the client can) and judges it. */
    @FunctionalInterface
    public interface Trial<T> {
        Outcome<T> run(double rate) throws InterruptedException;
    }

    /**
     * A trial's result, whether it passed, and the rate it achieved (bracketing down takes it as the upper bound).
     */
    public record Outcome<T>(T result, boolean passed, double achievedRate) {
    }

    /** One trial as run: the rate asked, its outcome, and whether a stop cut it short. */
    public record Step<T>(double rate, Outcome<T> outcome, boolean cutShort) {
    }

    /**
     * @param steps         every trial, in the order run
     * @param best          the step at the highest rate that passed, or null if none did
     * @param firstFailed   the lowest rate that failed, or 0 if none did
     * @param reachedMax    bracketing up: every rate to the maximum passed
     * @param clientLimited bracketing down: the unlimited first trial passed, so the client, not the server, set it
     * @param stopped       a stop ended the search
     */
    public record Result<T>(List<Step<T>> steps, Step<T> best, double firstFailed, boolean reachedMax,
            boolean clientLimited, boolean stopped) {
        public Result {
            steps = List.copyOf(steps);
        }
    }

    public <T> Result<T> run(Trial<T> trial, BooleanSupplier stopped) throws InterruptedException {
        List<Step<T>> steps = new ArrayList<>();
        Step<T> best = null;
        double passed;
        double failed = 0;
        if (startRate == 0) {
            Step<T> unlimited = trial(trial, 0, stopped, steps);
            if (unlimited.cutShort()) {
                return new Result<>(steps, null, 0, false, false, true);
            }
            if (unlimited.outcome().passed()) {
                return new Result<>(steps, unlimited, 0, false, true, false);
            }
            passed = 0;
            failed = unlimited.outcome().achievedRate();
        } else {
            passed = 0;
            for (double rate = startRate; rate <= maxRate && steps.size() < maxTrials; rate *= factor) {
                if (stopped.getAsBoolean()) {
                    return new Result<>(steps, best, failed, false, false, true);
                }
                Step<T> step = trial(trial, rate, stopped, steps);
                if (step.cutShort()) {
                    return new Result<>(steps, best, failed, false, false, true);
                }
                if (!step.outcome().passed()) {
                    failed = rate;
                    break;
                }
                passed = rate;
                best = step;
            }
            if (failed == 0 || passed == 0) {
                return new Result<>(steps, best, failed, failed == 0, false, false);
            }
        }
        for (int i = 0; i < bisections && steps.size() < maxTrials && failed - passed > precision * failed; i++) {
            if (stopped.getAsBoolean()) {
                return new Result<>(steps, best, failed, false, false, true);
            }
            double rate = (passed + failed) / 2;
            Step<T> step = trial(trial, rate, stopped, steps);
            if (step.cutShort()) {
                return new Result<>(steps, best, failed, false, false, true);
            }
            if (step.outcome().passed()) {
                passed = rate;
                best = step;
            } else {
                failed = rate;
            }
        }
        return new Result<>(steps, best, failed, false, false, false);
    }

    private static <T> Step<T> trial(Trial<T> trial, double rate, BooleanSupplier stopped, List<Step<T>> steps)
            throws InterruptedException {
        Outcome<T> outcome = trial.run(rate);
        Step<T> step = new Step<>(rate, outcome, stopped.getAsBoolean());
        steps.add(step);
        return step;
    }
}
