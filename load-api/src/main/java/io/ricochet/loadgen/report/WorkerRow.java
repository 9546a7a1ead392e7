package io.ricochet.loadgen.report;

import java.util.List;

/**
 * One worker of a distributed run, for {@code workers.csv} and the JSON summary; {@code lostAtS} is when a worker lost
 * after the start was lost, in seconds since the start, and null for one that was not: from then on the merged
 * intervals miss its shard.
 */
public record WorkerRow(int index, String state, String host, long requests, long ok, long bad, long errors,
        long intervals, long p99Us, int exitCode, String reason, Double lostAtS) {

    public static final List<String> COLUMNS = List.of("index", "state", "host", "requests", "ok", "bad", "errors",
            "intervals", "p99_us", "exit_code", "reason", "lost_at_s");
}
