package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.config.Counts;
import io.ricochet.config.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pass/fail condition on a run, as k6 has them: {@code p99<2ms}, {@code errors==0}, {@code qps>100k}. The metric is
 * one of the summary's figures; a latency takes {@code us}, {@code ms} or {@code s} (microseconds without a unit), a
 * count or rate {@code k}, {@code M} or {@code G} (as {@link Counts}), a fraction ({@code loss}, {@code error_rate}) a
 * {@code %}.
 *
 * <p>Every threshold is also judged live, once an interval, on the run so far ({@link LiveThresholds}). A window,
 * {@code p99[30s]<5ms}, judges the last 30 s instead, and the threshold breaks if any interval's window broke it.
 * {@code ;abort} stops the run at its first breach, {@code ;delay=30s} not before 30 s of measurement:
 * <pre>{@code
 * Threshold.parse("p99[30s]<5ms;abort;delay=1m")
 * }</pre>
 *
 * @param window the span judged at each interval, or null for the whole run
 * @param abort  whether a breach stops the run
 * @param delay  how long into the measurement a breach does not yet stop it
 */
public record Threshold(String expression, String metric, Op op, double value, Duration window, boolean abort,
        Duration delay) {
    private static final Pattern FORM = Pattern.compile("\\s*([a-z_0-9]+)\\s*(?:\\[([^\\]]*)\\])?\\s*(<=|>=|==|!=|<|>)"
            + "\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Zµ%]*)(?:/s)?\\s*");

    /** What each metric reads from the summary (a distributed run's merged one), and how its value is written. */
    private enum Kind { LATENCY, COUNT, FRACTION }

    private static final Map<String, Kind> METRICS = Map.ofEntries(
            Map.entry("p50", Kind.LATENCY), Map.entry("p90", Kind.LATENCY), Map.entry("p99", Kind.LATENCY),
            Map.entry("p999", Kind.LATENCY), Map.entry("max", Kind.LATENCY), Map.entry("min", Kind.LATENCY),
            Map.entry("mean", Kind.LATENCY), Map.entry("qps", Kind.COUNT), Map.entry("requests", Kind.COUNT),
            Map.entry("ok", Kind.COUNT), Map.entry("errors", Kind.COUNT), Map.entry("bad", Kind.COUNT),
            Map.entry("connect_failures", Kind.COUNT), Map.entry("late", Kind.COUNT),
            Map.entry("unexpected", Kind.COUNT),
            Map.entry("error_rate", Kind.FRACTION), Map.entry("loss", Kind.FRACTION));

    public enum Op {
        LT("<"), LE("<="), GT(">"), GE(">="), EQ("=="), NE("!=");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        static Op of(String symbol) {
            for (Op op : values()) {
                if (op.symbol.equals(symbol)) {
                    return op;
                }
            }
            throw new IllegalArgumentException(symbol);
        }

        boolean holds(double actual, double limit) {
            return switch (this) {
                case LT -> actual < limit;
                case LE -> actual <= limit;
                case GT -> actual > limit;
                case GE -> actual >= limit;
                case EQ -> actual == limit;
                case NE -> actual != limit;
            };
        }
    }

    /**
     * Parses {@code METRIC[WINDOW] OP VALUE[UNIT][;abort][;delay=DURATION]}; a bad one is an
     * {@link IllegalArgumentException} that names it.
     */
    public static Threshold parse(String expression) {
        String[] parts = expression.split(";", -1);
        Matcher m = FORM.matcher(parts[0]);
        if (!m.matches()) {
            throw new IllegalArgumentException("threshold: '" + expression + "' (expected METRIC[WINDOW] OP VALUE"
                    + "[;abort][;delay=DURATION], e.g. p99<2ms, errors[1m]==0, qps>100k;abort; OP one of < <= > >= =="
                    + " !=)");
        }
        Kind kind = METRICS.get(m.group(1));
        if (kind == null) {
            throw new IllegalArgumentException("threshold: '" + expression + "': unknown metric " + m.group(1)
                    + " (expected one of " + String.join(", ", METRICS.keySet().stream().sorted().toList()) + ")");
        }
        Duration window = m.group(2) == null ? null : duration(expression, "window", m.group(2));
        boolean abort = false;
        Duration delay = null;
        for (int i = 1; i < parts.length; i++) {
            String option = parts[i].strip();
            if (option.equals("abort") && !abort) {
                abort = true;
            } else if (option.startsWith("delay=") && delay == null) {
                delay = duration(expression, "delay", option.substring("delay=".length()));
            } else {
                throw new IllegalArgumentException("threshold: '" + expression + "': option '" + option
                        + "' (expected abort or delay=DURATION, each at most once)");
            }
        }
        if (delay != null && !abort) {
            throw new IllegalArgumentException("threshold: '" + expression + "': delay= without abort (the delay is "
                    + "how long a breach does not yet abort)");
        }
        double number = Double.parseDouble(m.group(4));
        String unit = m.group(5);
        double value = switch (kind) {
            case LATENCY -> number * switch (unit) {
                case "", "us", "µs" -> 1;
                case "ms" -> 1_000;
                case "s" -> 1_000_000;
                default -> throw badUnit(expression, unit, "us, ms or s");
            };
            case COUNT -> count(expression, m.group(4), unit);
            case FRACTION -> switch (unit) {
                case "" -> number;
                case "%" -> number / 100;
                default -> throw badUnit(expression, unit, "%, or none for a fraction");
            };
        };
        Threshold t = new Threshold(expression.strip(), m.group(1), Op.of(m.group(3)), value, window, abort,
                delay == null ? Duration.ZERO : delay);
        if (abort && !t.judgedLive()) {
            throw new IllegalArgumentException("threshold: '" + expression + "': abort on " + t.metric + " without a "
                    + "window (expected a window, such as " + t.metric + "[30s]: the whole run's " + t.metric
                    + " is only known at its end)");
        }
        return t;
    }

    /**
     * Whether a breach during the run is a breach: always with a window; without one, for a latency, a fraction, or a
     * ceiling on a total that only grows ({@code errors<100}, {@code bad==0}). A floor on a total ({@code requests>1M})
     * or any rate ({@code qps>19.5k}) is short early on in every run that meets it, so it is judged at the end only.
     */
    public boolean judgedLive() {
        if (windowed() || METRICS.get(metric) != Kind.COUNT) {
            return true;
        }
        return !metric.equals("qps") && (op == Op.LT || op == Op.LE || (op == Op.EQ && value == 0));
    }

    /** A window's or delay's duration: positive for a window, not negative for a delay. */
    private static Duration duration(String expression, String what, String text) {
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("threshold: '" + expression + "': " + what + " '" + text
                    + "' (expected a duration such as 30s or 1m)");
        }
        if (d.isNegative() || (d.isZero() && what.equals("window"))) {
            throw new IllegalArgumentException("threshold: '" + expression + "': " + what + " " + Durations.format(d)
                    + " (expected: " + (what.equals("window") ? "> 0" : ">= 0") + ")");
        }
        return d;
    }

    public Threshold {
        if (window != null && (window.isNegative() || window.isZero())) {
            throw new IllegalArgumentException("threshold: '" + expression + "': window " + window
                    + " (expected: > 0)");
        }
        if (delay == null || delay.isNegative() || (!abort && !delay.isZero())) {
            throw new IllegalArgumentException("threshold: '" + expression + "': delay " + delay
                    + " (expected: >= 0, and 0 without abort)");
        }
    }

    /** Whether this threshold is judged on a sliding window rather than on the whole run. */
    public boolean windowed() {
        return window != null;
    }

    /** {@code 100k} in the units of every count on the command line. */
    private static double count(String expression, String number, String unit) {
        try {
            return Counts.parseDecimal(number + unit);
        } catch (IllegalArgumentException e) {
            throw badUnit(expression, unit, "k, M or G");
        }
    }

    private static IllegalArgumentException badUnit(String expression, String unit, String expected) {
        return new IllegalArgumentException("threshold: '" + expression + "': unit " + unit + " (expected " + expected + ")");
    }

    /** Whether {@code summary} (any command's, as JSON) meets this; a figure the command does not measure breaks it. */
    public Result check(JsonNode summary) {
        JsonNode run = summary.has("merged") ? summary.get("merged") : summary;
        Double actual = actual(run);
        if (actual == null) {
            return new Result(expression, metric, false, null, "not measured by this command");
        }
        int lost = summary.path("workers_lost").asInt(0);
        if (lost > 0 && METRICS.get(metric) == Kind.COUNT) {
            // A total of the smaller load the surviving workers sent: neither a pass nor a figure to trust.
            JsonNode workers = summary.path("workers");
            return new Result(expression, metric, false, actual, lost + " of "
                    + (workers.isArray() ? workers.size() : workers.asInt())
                    + " workers lost, so this total is of a smaller load");
        }
        return new Result(expression, metric, op.holds(actual, value), actual, null);
    }

    private Double actual(JsonNode run) {
        return figure(metric, run);
    }

    /** Whether {@code metric} is one a threshold (or a margin) can name. */
    static boolean known(String metric) {
        return METRICS.containsKey(metric);
    }

    /** The metric names, sorted, for messages. */
    static String metricNames() {
        return String.join(", ", METRICS.keySet().stream().sorted().toList());
    }

    /** {@code metric}'s figure in {@code run} (a summary, not its wrapper), or null when the command does not measure it. */
    static Double figure(String metric, JsonNode run) {
        if (metric.equals("error_rate")) {
            Double errors = number(run.path("errors"));
            Double requests = number(run.path("requests"));
            return errors == null || requests == null ? null : errors / Math.max(1, requests);
        }
        return number(switch (METRICS.get(metric)) {
            case LATENCY -> run.path("latency_us").path(metric);
            // An RPC run's summary names its verified answers received_ok.
            case COUNT -> metric.equals("ok") && !run.has("ok") ? run.path("received_ok") : run.path(metric);
            case FRACTION -> run.path(metric);
        });
    }

    private static Double number(JsonNode node) {
        return node.isNumber() ? node.asDouble() : null;
    }

    /**
     * One threshold's outcome, as {@code summary.json} and the report keep it; {@code note} says why it has no value.
     * {@code firstBrokenS} is when the live judge first saw it broken, in seconds of measurement, or null if it never
     * did; a windowed threshold's {@code actual} is its worst window's figure.
     */
    public record Result(String expression, String metric, boolean passed, Double actual, String note,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double firstBrokenS) {
        public Result(String expression, String metric, boolean passed, Double actual, String note) {
            this(expression, metric, passed, actual, note, null);
        }

        /** {@code threshold p99<2ms: broken (p99 = 3200), first at 12.0 s}, latencies in microseconds. */
        public String line() {
            String outcome = passed ? "passed" : "broken";
            return String.format(Locale.ROOT, "threshold %s: %s (%s)%s", expression, outcome,
                    actual == null ? note : metric + " = " + format(actual) + (note == null ? "" : "; " + note),
                    firstBrokenS == null ? "" : String.format(Locale.ROOT, ", first broken at %.1f s", firstBrokenS));
        }

        /** This outcome with {@code firstBrokenS}, and as {@code passed} and {@code actual} say. */
        Result judged(boolean passed, Double actual, Double firstBrokenS) {
            return new Result(expression, metric, passed, actual, note, firstBrokenS);
        }
    }

    /** A figure as the lines print it: whole numbers without decimals, others to four significant digits. */
    static String format(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.4g", value);
    }
}
