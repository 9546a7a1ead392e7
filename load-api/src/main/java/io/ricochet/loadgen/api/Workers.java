package io.ricochet.loadgen.api;

import io.ricochet.loadgen.distributed.WorkerLoss;
import io.ricochet.loadgen.distributed.WorkerExecutor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a {@link LoadTest}'s workers run: {@link LocalWorkers} (JVMs on this machine), or {@code KubernetesWorkers}
 * (an Indexed Job, in {@code ricochet-load-kubernetes}). The test's scenario is split over them, each worker sent its
 * shard, and their histograms merged exactly into one {@link LoadResult}, as the {@code controller} command does.
 *
 * <pre>{@code
 * LoadResult merged = LoadTest.tcp(target).workload("kv-text", Map.of("keys", "100"))
 *         .connections(400).rate(20_000).duration(Duration.ofSeconds(10))
 *         .workers(LocalWorkers.of(4))
 *         .run();
 * }</pre>
 */
public interface Workers {
    /** How many workers. */
    int count();

    /** Each worker's share of connections, rates and requests, one per worker. */
    double[] weights();

    /** What the run's report calls this executor: {@code local}, {@code kubernetes}. */
    String executorName();

    /** The address the controller's coordination port binds. */
    String bindHost();

    /** The host the workers are told to connect to. */
    String advertiseHost();

    /** The coordination port; 0 for an ephemeral one. */
    int port();

    /** How long the start barrier waits for every worker to be ready. */
    Duration startTimeout();

    /** Starts nothing yet: the executor that launches this run's workers, logging into {@code logDir} if it can. */
    WorkerExecutor executor(Path logDir) throws IOException;

    /**
     * What the run does when a worker is lost after the start: {@link WorkerLoss#ABORT} (the default) stops it and
     * fails the test at once, {@link WorkerLoss#CONTINUE} goes on with the others.
     */
    default WorkerLoss onWorkerLoss() {
        return WorkerLoss.ABORT;
    }

    /** Whether the workers run on this machine, so each keeps its own report beside the merged one. */
    default boolean local() {
        return false;
    }

    /** {@code count} equal weights, {@code count} within 1 to 1024: the default of every kind of workers. */
    static double[] equalWeights(int count) {
        io.ricochet.config.Checks.inRange("workers", count, 1, 1024);
        double[] equal = new double[count];
        java.util.Arrays.fill(equal, 1);
        return equal;
    }

    /** {@code shares}, checked: one per worker of {@code count}, every one above 0 and finite. */
    static double[] checkedWeights(double[] shares, int count) {
        if (shares.length != count) {
            throw new IllegalArgumentException("weights: " + shares.length + " values (expected: one per worker, "
                    + count + ")");
        }
        for (double w : shares) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights: " + w + " (expected: > 0)");
            }
        }
        return shares.clone();
    }
}
