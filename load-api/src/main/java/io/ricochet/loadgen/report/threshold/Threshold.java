package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.config.Counts;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pass/fail condition on a run's summary, as k6 has them: {@code p99<2ms}, {@code errors==0}, {@code qps>100k}. The
 * metric is one of the summary's figures; a latency takes {@code us}, {@code ms} or {@code s} (microseconds without a
 * unit), a count or rate {@code k}, {@code M} or {@code G} (as {@link Counts}), a fraction ({@code loss},
 * {@code error_rate}) a {@code %}.
 */
public record Threshold(String expression, String metric, Op op, double value) {
    private static final Pattern FORM = Pattern.compile("\\s*([a-z_0-9]+)\\s*(<=|>=|==|!=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Zµ%]*)(?:/s)?\\s*");

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

    /** Parses {@code METRIC OP VALUE[UNIT]}; a bad one is an {@link IllegalArgumentException} that names it. */
    public static Threshold parse(String expression) {
        Matcher m = FORM.matcher(expression);
        if (!m.matches()) {
            throw new IllegalArgumentException("threshold: '" + expression + "' (expected METRIC OP VALUE, e.g. p99<2ms,"
                    + " errors==0, qps>100k; OP one of < <= > >= == !=)");
        }
        Kind kind = METRICS.get(m.group(1));
        if (kind == null) {
            throw new IllegalArgumentException("threshold: '" + expression + "': unknown metric " + m.group(1)
                    + " (expected one of " + String.join(", ", METRICS.keySet().stream().sorted().toList()) + ")");
        }
        double number = Double.parseDouble(m.group(3));
        String unit = m.group(4);
        double value = switch (kind) {
            case LATENCY -> number * switch (unit) {
                case "", "us", "µs" -> 1;
                case "ms" -> 1_000;
                case "s" -> 1_000_000;
                default -> throw badUnit(expression, unit, "us, ms or s");
            };
            case COUNT -> count(expression, m.group(3), unit);
            case FRACTION -> switch (unit) {
                case "" -> number;
                case "%" -> number / 100;
                default -> throw badUnit(expression, unit, "%, or none for a fraction");
            };
        };
        return new Threshold(expression.strip(), m.group(1), Op.of(m.group(2)), value);
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

    /** One threshold's outcome, as {@code summary.json} and the report keep it; {@code note} says why it has no value. */
    public record Result(String expression, String metric, boolean passed, Double actual, String note) {
        /** {@code threshold p99<2ms: broken (p99 = 3200)}, latencies in microseconds. */
        public String line() {
            String outcome = passed ? "passed" : "broken";
            return String.format(Locale.ROOT, "threshold %s: %s (%s)", expression, outcome,
                    actual == null ? note : metric + " = " + (actual == Math.rint(actual) ? String.format(Locale.ROOT,
                            "%.0f", actual) : String.format(Locale.ROOT, "%.4g", actual)));
        }
    }
}
