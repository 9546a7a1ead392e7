package io.ricochet.loadgen.report;

/** One worker of a distributed run, for {@code workers.csv} and the JSON summary. */
public record WorkerRow(int index, String state, String host, long requests, long ok, long bad, long errors,
        long intervals, long p99Us, int exitCode, String reason) {

    public static final String CSV_HEADER = "index,state,host,requests,ok,bad,errors,intervals,p99_us,exit_code,reason";

    public String csv() {
        return index + "," + state + "," + host + "," + requests + "," + ok + "," + bad + "," + errors + "," + intervals
                + "," + p99Us + "," + exitCode + ",\"" + reason.replace("\"", "'") + "\"";
    }
}
