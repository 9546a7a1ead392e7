package io.ricochet.loadgen.distributed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls the coordination endpoint refused: a count per method and the first reason of each. However
 * many come, they cost a counter each, never a stored message: the methods are the endpoint's few, and
 * a reason is cut to {@link #MAX_REASON_CHARS}. Thread-safe: the event loop records, the run's thread reads.
 */
final class RefusedInputs {
    static final int MAX_REASON_CHARS = 200;

    private final Map<String, Kind> byMethod = new LinkedHashMap<>();
    private final long newsEveryNanos;
    private long total;
    private long announced;
    private long lastNewsNanos;

    /** @param newsEvery the least time between two lines of {@link #news} */
    RefusedInputs(Duration newsEvery) {
        this.newsEveryNanos = newsEvery.toNanos();
    }

    private static final class Kind {
        final String first;
        long count;

        Kind(String first) {
            this.first = first;
        }
    }

    /** Counts one refused call of {@code method} (one of the endpoint's), and why. */
    synchronized void record(String method, String reason) {
        total++;
        byMethod.computeIfAbsent(method, m -> new Kind(reason.length() <= MAX_REASON_CHARS ? reason
                : reason.substring(0, MAX_REASON_CHARS) + "...")).count++;
    }

    synchronized long total() {
        return total;
    }

    /** One line per method with refusals, for the run's problems. */
    synchronized List<String> problems() {
        List<String> lines = new ArrayList<>();
        byMethod.forEach((method, kind) -> lines.add(describe(method, kind)));
        return lines;
    }

    /**
     * A line for the live output if calls were refused since the last one, at most one per
     * {@code newsEvery} (a flood of refusals is one line a second, not one each); with {@code flush}, at
     * once. Null when there is nothing to say yet.
     */
    synchronized String news(long nowNanos, boolean flush) {
        if (total == announced || (!flush && announced > 0 && nowNanos - lastNewsNanos < newsEveryNanos)) {
            return null;
        }
        announced = total;
        lastNewsNanos = nowNanos;
        List<String> kinds = new ArrayList<>();
        byMethod.forEach((method, kind) -> kinds.add(describe(method, kind)));
        return "controller: " + total + " input" + (total == 1 ? "" : "s") + " refused so far: " + String.join("; ", kinds);
    }

    private static String describe(String method, Kind kind) {
        return "refused " + kind.count + " " + method + " call" + (kind.count == 1 ? "" : "s") + " (first: " + kind.first + ")";
    }
}
