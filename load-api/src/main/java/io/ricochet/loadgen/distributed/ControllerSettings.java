package io.ricochet.loadgen.distributed;

import io.ricochet.loadgen.engine.Interval;
import io.ricochet.loadgen.scenario.Scenario;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a {@link Controller} runs and how.
 *
 * @param command      the scenario's name
 * @param target       the target every worker loads, HOST:PORT
 * @param shards       each worker's scenario ({@link Scenario#shard}), its target and trust resolved
 * @param bindHost     address of the coordination endpoint
 * @param port         its port, 0 for an ephemeral one
 * @param advertise    the host workers connect to
 * @param interval     the scenario's interval
 * @param startTimeout how long the start barrier waits for every worker
 * @param stallTimeout a running worker silent this long has stopped reporting
 * @param warmup       the longest the scenario warms up: a worker reports nothing meanwhile, so its first report may
 *                     come this much later
 * @param scrape       the servers' metrics URLs; empty for none
 * @param reportDir    the report directory, or null
 * @param progress     where live lines go
 * @param config       the settings written to config.json
 * @param runSecret    what a connection must present to use the coordination port ({@link RunSecret})
 * @param intervals    what else takes each merged interval (the generator's metrics, the live thresholds); it must
 *                     copy what it keeps
 * @param onWorkerLoss what the run does when a worker is lost after the start
 */
public record ControllerSettings(String command, String target, List<Scenario> shards, String bindHost, int port,
        String advertise, Duration interval, Duration startTimeout, Duration stallTimeout, Duration warmup,
        List<URI> scrape, Path reportDir,
        PrintStream progress, Map<String, Object> config, String runSecret, Consumer<Interval> intervals,
        WorkerLoss onWorkerLoss) {

    public int workers() {
        return shards.size();
    }

    /**
     * Each worker's shard of {@code whole} over {@code weights}; with {@code localReports}, each keeps its own full
     * report in the report directory's {@code workers/INDEX}, beside the merged one: raw data for any check.
     */
    public static List<Scenario> shards(Scenario whole, double[] weights, boolean localReports) {
        List<Scenario> shards = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            Scenario shard = whole.shard(i, weights);
            if (localReports && whole.report() != null) {
                shard = shard.toBuilder().report(whole.report().resolve("workers").resolve(Integer.toString(i)))
                        .build();
            }
            shards.add(shard);
        }
        return shards;
    }

    /** How long a worker of {@code s} may stay silent before it has stopped reporting: 5 intervals and 10 s. */
    public static Duration stallTimeout(Scenario s) {
        return s.interval().multipliedBy(5).plusSeconds(10);
    }

    /** How long {@code s} warms up before its first interval: a framed command's time; none for RPC's calls. */
    public static Duration warmup(Scenario s) {
        return s.command().rpc() ? Duration.ZERO : s.effectiveWarmup();
    }
}
