package io.ricochet.loadgen.report.threshold;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A regression gate against a baseline run, as {@code compare --fail-if} takes it: {@code p99>+10%} fails when the
 * run's p99 is more than 10% above the baseline's, {@code qps<-5%} when its QPS is more than 5% below. The metric is
 * one a {@link Threshold} names; the margin is a signed percentage of the baseline's figure.
 *
 * <pre>{@code
 * Margin slower = Margin.parse("p99>+10%");
 * Margin.Result r = slower.check(baselineSummary, runSummary);   // "fail-if p99>+10%: passed (p99 1200 -> 1260, +5.0%)"
 * }</pre>
 *
 * @param expression as given
 * @param metric     the summary's figure compared
 * @param above      true for {@code >} (fail above the limit), false for {@code <} (fail below it)
 * @param change     the limit as a fraction of the baseline's figure: +0.10 for {@code +10%}
 */
public record Margin(String expression, String metric, boolean above, double change) {
    private static final Pattern FORM = Pattern.compile("\\s*([a-z_0-9]+)\\s*([<>])\\s*([+-][0-9]+(?:\\.[0-9]+)?)%\\s*");

    /** Parses {@code METRIC >|< +|-PERCENT%}; a bad one is an {@link IllegalArgumentException} naming it. */
    public static Margin parse(String expression) {
        Matcher m = FORM.matcher(expression);
        if (!m.matches()) {
            throw new IllegalArgumentException("fail-if: '" + expression + "' (expected METRIC>+N% or METRIC<-N%, "
                    + "e.g. p99>+10%, qps<-5%)");
        }
        if (!Threshold.known(m.group(1))) {
            throw new IllegalArgumentException("fail-if: '" + expression + "': unknown metric " + m.group(1)
                    + " (expected one of " + Threshold.metricNames() + ")");
        }
        return new Margin(expression.strip(), m.group(1), m.group(2).equals(">"),
                Double.parseDouble(m.group(3)) / 100);
    }

    /**
     * Whether {@code run} stays within this margin of {@code baseline} (each a summary as summary.json has it, or a
     * controller's with its merged run); a figure either does not have fails it, saying so.
     */
    public Result check(JsonNode baseline, JsonNode run) {
        Double before = Threshold.figure(metric, merged(baseline));
        Double after = Threshold.figure(metric, merged(run));
        if (before == null || after == null) {
            return new Result(expression, metric, false, before, after, "not measured by " + (before == null
                    ? "the baseline" : "this run"));
        }
        double limit = before * (1 + change);
        boolean worse = above ? after > limit : after < limit;
        return new Result(expression, metric, !worse, before, after, null);
    }

    private static JsonNode merged(JsonNode summary) {
        return summary.has("merged") ? summary.get("merged") : summary;
    }

    /** One margin's verdict: the figures compared, and the line {@code compare} prints. */
    public record Result(String expression, String metric, boolean passed, Double baseline, Double actual,
            String note) {
        /** {@code fail-if p99>+10%: broken (p99 1200 -> 1500, +25.0%)}. */
        public String line() {
            String outcome = passed ? "passed" : "broken";
            if (note != null) {
                return "fail-if " + expression + ": " + outcome + " (" + note + ")";
            }
            String change = baseline == 0 ? "" : String.format(Locale.ROOT, ", %+.1f%%",
                    (actual - baseline) / Math.abs(baseline) * 100);
            return String.format(Locale.ROOT, "fail-if %s: %s (%s %s -> %s%s)", expression, outcome, metric,
                    Threshold.format(baseline), Threshold.format(actual), change);
        }

    }
}
