package io.ricochet.loadgen.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ricochet.loadgen.report.ReportWriter;
import io.ricochet.loadgen.stats.RunStats;
import java.io.IOException;
import java.nio.file.Path;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;

/**
 * One {@code .hlog} of a report read back: its percentiles interval by interval, and the spectrum of the whole run as
 * HdrHistogram's plotter draws it.
 */
final class LatencyLog {
    /** Spectrum points per halving of the distance to 100%, as {@code outputPercentileDistribution} uses. */
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private LatencyLog() {
    }

    /** {@code hlog}'s intervals, timed from {@code startMillis} (the run's start, as the log's base time says). */
    static ObjectNode read(Path hlog) throws IOException {
        Series series = new Series();
        // A line a kill cut short is left out.
        try (HistogramLogReader reader = new HistogramLogReader(WholeLines.of(hlog).stream())) {
            EncodableHistogram next;
            while ((next = reader.nextIntervalHistogram()) != null) {
                if (next instanceof Histogram h) {
                    series.add(h, h.getEndTimeStamp() / 1000.0 - reader.getStartTimeSec());
                }
            }
        }
        return series.toJson();
    }

    /** The intervals and their sum. */
    private static final class Series {
        final ArrayNode time = ReportWriter.JSON.createArrayNode();
        final ArrayNode p50 = ReportWriter.JSON.createArrayNode();
        final ArrayNode p90 = ReportWriter.JSON.createArrayNode();
        final ArrayNode p99 = ReportWriter.JSON.createArrayNode();
        final ArrayNode max = ReportWriter.JSON.createArrayNode();
        final ArrayNode count = ReportWriter.JSON.createArrayNode();
        final Histogram total = RunStats.newHistogram();

        void add(Histogram h, double timeS) {
            time.add(Math.round(timeS * 1000) / 1000.0);
            count.add(h.getTotalCount());
            // An empty interval has no latency: a gap in the line, not a zero.
            if (h.getTotalCount() == 0) {
                p50.addNull();
                p90.addNull();
                p99.addNull();
                max.addNull();
            } else {
                p50.add(h.getValueAtPercentile(50));
                p90.add(h.getValueAtPercentile(90));
                p99.add(h.getValueAtPercentile(99));
                max.add(h.getMaxValue());
            }
            total.add(h);
        }

        ObjectNode toJson() {
            ObjectNode json = ReportWriter.JSON.createObjectNode();
            json.set("time", time);
            json.set("p50", p50);
            json.set("p90", p90);
            json.set("p99", p99);
            json.set("max", max);
            json.set("count", count);
            json.put("total", total.getTotalCount());
            ArrayNode percentile = json.putArray("spectrum_percentile");
            ArrayNode value = json.putArray("spectrum_us");
            if (total.getTotalCount() > 0) {
                for (HistogramIterationValue v : total.percentiles(TICKS_PER_HALF_DISTANCE)) {
                    // The last point is 100%, which a 1/(1-p) axis cannot place.
                    if (v.getPercentileLevelIteratedTo() >= 100.0) {
                        break;
                    }
                    percentile.add(v.getPercentileLevelIteratedTo());
                    value.add(total.highestEquivalentValue(v.getValueIteratedTo()));
                }
            }
            return json;
        }
    }
}
