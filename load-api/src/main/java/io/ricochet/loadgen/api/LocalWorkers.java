package io.ricochet.loadgen.api;

import static io.ricochet.config.Checks.positive;

import io.ricochet.loadgen.distributed.LocalExecutor;
import io.ricochet.loadgen.distributed.WorkerExecutor;
import io.ricochet.loadgen.distributed.WorkerLoss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A {@link LoadTest}'s workers as JVMs on this machine, each started on this JVM's class path (so they find the same
 * workloads, by their {@code WorkloadProvider} names) and each within its own open-file limit: the way past one
 * process's 20,000 sockets, or one JVM's event loops.
 *
 * <pre>{@code
 * LoadTest.tcp(target).workload("kv-text", Map.of()).connections(40_000).workers(LocalWorkers.of(4)).run();
 * LocalWorkers weighted = LocalWorkers.of(3).weights(1, 1, 2).jvmArgs("-Xmx512m");
 * }</pre>
 */
public final class LocalWorkers implements Workers {
    private final double[] weights;
    private final List<String> jvmArgs;
    private final Duration startTimeout;
    private final WorkerLoss onWorkerLoss;

    private LocalWorkers(double[] weights, List<String> jvmArgs, Duration startTimeout, WorkerLoss onWorkerLoss) {
        this.weights = weights;
        this.jvmArgs = List.copyOf(jvmArgs);
        this.startTimeout = startTimeout;
        this.onWorkerLoss = onWorkerLoss;
    }

    /** {@code count} workers of equal weight. */
    public static LocalWorkers of(int count) {
        return new LocalWorkers(Workers.equalWeights(count), List.of(), Duration.ofSeconds(60), WorkerLoss.ABORT);
    }

    /** The same workers weighted: one weight each, every one above 0. */
    public LocalWorkers weights(double... shares) {
        return new LocalWorkers(Workers.checkedWeights(shares, weights.length), jvmArgs, startTimeout, onWorkerLoss);
    }

    /** JVM options of each worker, such as {@code -Xmx512m}. */
    public LocalWorkers jvmArgs(String... args) {
        return new LocalWorkers(weights, List.of(args), startTimeout, onWorkerLoss);
    }

    /** How long the start barrier waits for every worker (default: 60 s). */
    public LocalWorkers startTimeout(Duration timeout) {
        return new LocalWorkers(weights, jvmArgs, positive("startTimeout", timeout), onWorkerLoss);
    }

    /** What the run does when a worker is lost after the start (default: {@link WorkerLoss#ABORT}). */
    public LocalWorkers onWorkerLoss(WorkerLoss policy) {
        return new LocalWorkers(weights, jvmArgs, startTimeout, java.util.Objects.requireNonNull(policy,
                "onWorkerLoss"));
    }

    @Override
    public WorkerLoss onWorkerLoss() {
        return onWorkerLoss;
    }

    @Override
    public int count() {
        return weights.length;
    }

    @Override
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public String executorName() {
        return "local";
    }

    @Override
    public String bindHost() {
        return "127.0.0.1";
    }

    @Override
    public String advertiseHost() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return 0;
    }

    @Override
    public Duration startTimeout() {
        return startTimeout;
    }

    @Override
    public boolean local() {
        return true;
    }

    @Override
    public WorkerExecutor executor(Path logDir) throws java.io.IOException {
        return new LocalExecutor(weights.length, jvmArgs, logDir != null ? logDir
                : Files.createTempDirectory("ricochet-workers"));
    }
}
