package io.ricochet.loadgen.engine;

import io.ricochet.config.Durations;
import io.ricochet.config.InvalidValueException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A load's shape as data: stages, each a target and a duration, followed from the load's start. A stage ramps linearly
 * from the previous stage's target (the first from 0) to its own over its duration, or, a {@link Stage#step step},
 * holds its own target from its first instant. The targets are {@link Kind#RATE requests per second} (open loop, over
 * the whole load) or {@link Kind#CONNECTIONS connections held} (closed loop, or each connection's own rate).
 *
 * <pre>{@code
 * Stages up = Stages.of(Kind.RATE, List.of(new Stage(20_000, Duration.ofSeconds(30), false),
 *         new Stage(20_000, Duration.ofMinutes(1), false)));   // "20000:30s,20000:1m": ramp to 20k/s, hold a minute
 * up.total();                        // PT1M30S
 * up.countBy(30_000_000_000L);       // 300,000 requests by the end of the ramp
 * up.nanosOf(300_000);               // 30 s: when the 300,000th is due
 * up.scaled(0.25);                   // a worker's quarter: 5000:30s,5000:1m
 * }</pre>
 *
 * <p>The scenario's {@code Values.stages} reads the command line's {@code 0:10s,20k:30s,5k:1m:step,100conns:30s}.
 */
public final class Stages {
    /** So many stages at most: a schedule is written by hand or a script, not one stage a second for days. */
    public static final int MAX_STAGES = 1_000;

    /** What the targets count. */
    public enum Kind {
        /** Requests per second, sent open loop over the load's connections. */
        RATE,
        /** Connections held: opened as the target rises, retired (drained, then closed, not replaced) as it falls. */
        CONNECTIONS
    }

    /**
     * One stage.
     *
     * @param target   its rate (requests/s) or its connections, ≥ 0
     * @param duration how long it lasts, > 0
     * @param step     true: the target holds from the stage's start; false: it ramps there from the previous one
     */
    public record Stage(double target, Duration duration, boolean step) {
        public Stage {
            Objects.requireNonNull(duration, "duration");
            if (!(target >= 0) || Double.isInfinite(target)) {
                throw new InvalidValueException("stages", Double.toString(target), "a target >= 0");
            }
            if (duration.isNegative() || duration.isZero()) {
                throw new InvalidValueException("stages", Durations.format(duration), "a duration > 0");
            }
        }

        /** As the command line writes it: {@code 20000:30s}, {@code 100conns:1m:step}. */
        String format(Kind kind) {
            return number(target) + (kind == Kind.CONNECTIONS ? "conns" : "") + ":" + Durations.format(duration)
                    + (step ? ":step" : "");
        }
    }

    private final Kind kind;
    private final List<Stage> list;
    /** Each stage's start, in nanoseconds from the load's. */
    private final long[] startNanos;
    /** Each stage's target at its start: the previous target, or its own for a step. */
    private final double[] from;
    /** The requests (or connection-seconds) due before each stage. */
    private final double[] countBefore;
    private final long totalNanos;

    private Stages(Kind kind, List<Stage> list) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.list = List.copyOf(list);
        if (this.list.isEmpty() || this.list.size() > MAX_STAGES) {
            throw new InvalidValueException("stages", this.list.size() + " stages", "1 to " + MAX_STAGES);
        }
        int n = this.list.size();
        startNanos = new long[n];
        from = new double[n];
        countBefore = new double[n];
        long at = 0;
        double previous = 0;
        double count = 0;
        for (int i = 0; i < n; i++) {
            Stage s = this.list.get(i);
            startNanos[i] = at;
            from[i] = s.step() ? s.target() : previous;
            countBefore[i] = count;
            count += (from[i] + s.target()) / 2 * (s.duration().toNanos() / 1e9);
            try {
                at = Math.addExact(at, s.duration().toNanos());
            } catch (ArithmeticException e) {
                throw new InvalidValueException("stages", format(), "a total under 292 years");
            }
            previous = s.target();
        }
        totalNanos = at;
        if (kind == Kind.CONNECTIONS) {
            for (Stage s : this.list) {
                if (s.target() != Math.rint(s.target()) || s.target() > Integer.MAX_VALUE) {
                    throw new InvalidValueException("stages", s.format(kind), "a whole number of connections");
                }
            }
        }
        if (peak() == 0) {
            throw new InvalidValueException("stages", format(), "a stage with a target above 0");
        }
    }

    /** The stages {@code list}, of targets that count {@code kind}. */
    public static Stages of(Kind kind, List<Stage> list) {
        return new Stages(kind, list);
    }

    public Kind kind() {
        return kind;
    }

    public List<Stage> list() {
        return list;
    }

    /** How long the stages last in all: the run's duration. */
    public Duration total() {
        return Duration.ofNanos(totalNanos);
    }

    /** The largest target: the connections a connection schedule needs at most. */
    public double peak() {
        double peak = 0;
        for (Stage s : list) {
            peak = Math.max(peak, s.target());
        }
        return peak;
    }

    /** The target {@code nanos} after the start: ramping or held; the last stage's target after the end. */
    public double targetAt(long nanos) {
        if (nanos >= totalNanos) {
            return list.get(list.size() - 1).target();
        }
        int i = stageAt(Math.max(0, nanos));
        Stage s = list.get(i);
        double f = (Math.max(0, nanos) - startNanos[i]) / (double) s.duration().toNanos();
        return from[i] + (s.target() - from[i]) * f;
    }

    /** The requests due in the first {@code nanos} of the load: the integral of the rate; all of them after the end. */
    public double countBy(long nanos) {
        if (nanos <= 0) {
            return 0;
        }
        int last = list.size() - 1;
        if (nanos >= totalNanos) {
            return countBefore[last] + (from[last] + list.get(last).target()) / 2 * (list.get(last).duration().toNanos()
                    / 1e9);
        }
        int i = stageAt(nanos);
        double t = (nanos - startNanos[i]) / 1e9;
        double slope = (list.get(i).target() - from[i]) / (list.get(i).duration().toNanos() / 1e9);
        return countBefore[i] + from[i] * t + slope * t * t / 2;
    }

    /** The average rate due from {@code fromNanos} to {@code toNanos} after the start. */
    public double meanRate(long fromNanos, long toNanos) {
        return toNanos > fromNanos ? (countBy(toNanos) - countBy(fromNanos)) / ((toNanos - fromNanos) / 1e9) : 0;
    }

    /**
     * When, in nanoseconds from the start, the requests due reach {@code count}; {@link Long#MAX_VALUE} if they never
     * do before the end. The inverse of {@link #countBy}, solved in the stage where it falls.
     */
    public long nanosOf(double count) {
        if (count <= 0) {
            return 0;
        }
        int lo = 0;
        int hi = list.size() - 1;
        // The last stage whose count before it is below count: stages that send nothing are passed over.
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (countBefore[mid] < count) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        Stage s = list.get(lo);
        double seconds = s.duration().toNanos() / 1e9;
        double slope = (s.target() - from[lo]) / seconds;
        double left = count - countBefore[lo];
        // from·t + slope·t²/2 = left, in the form that keeps its precision whichever the slope's sign.
        double root = Math.sqrt(Math.max(0, from[lo] * from[lo] + 2 * slope * left));
        double t = from[lo] + root > 0 ? 2 * left / (from[lo] + root) : Double.POSITIVE_INFINITY;
        if (!(t <= seconds * (1 + 1e-12))) {
            // Past the end; in an earlier stage only by rounding (a count of billions before a small stage): its end.
            return lo == list.size() - 1 ? Long.MAX_VALUE : startNanos[lo] + s.duration().toNanos();
        }
        return startNanos[lo] + Math.min(s.duration().toNanos(), Math.round(t * 1e9));
    }

    /** Every rate scaled by {@code share}: a worker's part of a rate schedule. */
    public Stages scaled(double share) {
        if (kind != Kind.RATE) {
            throw new IllegalStateException("only a rate schedule scales; a connection schedule is split in counts");
        }
        return new Stages(kind, list.stream().map(s -> new Stage(s.target() * share, s.duration(), s.step())).toList());
    }

    /** The same stages with {@code targets} in their place: a worker's part of a connection schedule. */
    public Stages withTargets(long[] targets) {
        if (targets.length != list.size()) {
            throw new IllegalArgumentException("targets: " + targets.length + " (expected: " + list.size() + ")");
        }
        java.util.ArrayList<Stage> out = new java.util.ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            out.add(new Stage(targets[i], list.get(i).duration(), list.get(i).step()));
        }
        return new Stages(kind, out);
    }

    private int stageAt(long nanos) {
        int lo = 0;
        int hi = list.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (startNanos[mid] <= nanos) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** As the command line takes it: {@code 0:10s,20000:30s,5000:1m:step}; read back exactly. */
    public String format() {
        return list.stream().map(s -> s.format(kind)).collect(Collectors.joining(","));
    }

    /** Each stage as {@link #format} writes it, one a list item, as a scenario file lists them. */
    public List<String> items() {
        return list.stream().map(s -> s.format(kind)).toList();
    }

    private static String number(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Stages other && kind == other.kind && list.equals(other.list);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, list);
    }

    @Override
    public String toString() {
        return format();
    }
}
