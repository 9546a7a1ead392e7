package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.scenario.ScenarioException.Key;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A worker's part of a {@link Scenario}, as a pure function of the whole, the worker's index and every worker's weight:
 * <ul>
 *   <li>totals (connections: crr's concurrency, rpc's clients, register's pairs; requests; RPC warmup calls) are split
 *       by weight, the remainder going to the largest fractions, so the parts add up to the whole exactly; rr keeps
 *       its one connection on each worker;</li>
 *   <li>rates (the total rate, the connect rate, a rate schedule's stages) are split in proportion; a per-connection
 *       rate is the same on each; a connection schedule's every target is split as a total;</li>
 *   <li>each worker's seed is spaced {@link #SEED_STRIDE} from the last, so workers' bodies never coincide;</li>
 *   <li>source addresses are dealt round-robin, at least one per worker, so no two workers draw on one address's
 *       ephemeral ports;</li>
 *   <li>connections are numbered over the run: a worker's first continues where the previous worker's end, so targets
 *       and sources are dealt evenly over the whole run and a workload's {@code {{conn}}} is unique;</li>
 *   <li>files are made absolute, so a worker started elsewhere reads the same file;</li>
 *   <li>what only the controller acts on (scrape, report, JSON output, thresholds, the metrics endpoint) is left out.</li>
 * </ul>
 *
 * <pre>{@code
 * Scenario whole = Scenario.builder(Command.ECHO).connections(10).rate(1_000).build();
 * Scenario third = whole.shard(2, new double[] {1, 1, 2});   // half of it: 5 connections and 500/s
 * }</pre>
 */
public final class Sharding {
    /** Seeds are spaced this far apart so workers' bodies never coincide. */
    static final long SEED_STRIDE = 1_000_003;

    private Sharding() {
    }

    static Scenario shard(Scenario whole, int index, double[] weights) {
        if (!whole.command().distributable()) {
            throw new ScenarioException("command", "command: " + whole.command().label()
                    + " (expected: one a controller can split over workers: echo, rr, crr, massive, rpc or register)");
        }
        checkWeights(weights, index);
        int workers = weights.length;
        Stages[] stages = stages(whole.stages(), weights);
        long[] connections = whole.command() == Command.RR ? null : whole.connectionStages() ? peaks(stages)
                : split(whole.connections(), weights, "connections");
        Scenario.Builder b = whole.toBuilder()
                .connections(connections == null ? whole.connections() : (int) connections[index])
                .rate(whole.rate() * share(weights, index))
                .stages(stages == null ? null : stages[index])
                .connectRate(whole.connectRate() * share(weights, index))
                .seed(whole.seed() + index * SEED_STRIDE)
                .worker(index)
                .firstConnection(whole.firstConnection() + before(connections, whole.connections(), index))
                .sourceAddresses(dealt(whole.sourceAddresses(), index, workers))
                .workload(absolute(whole.workload()))
                .tls(absolute(whole.tls()))
                .scrape(List.of()).report(null).json(false).thresholds(List.of()).metricsPort(null)
                .metricsHost(Defaults.METRICS_HOST);
        if (whole.requests() > 0) {
            b.requests(split(whole.requests(), weights, "requests")[index]);
        }
        if (whole.warmupRequests() > 0) {
            // A worker may warm up with none: a warmup of 0 is valid, unlike a shard of no requests.
            b.warmupRequests(parts(whole.warmupRequests(), weights)[index]);
        }
        return b.build();
    }

    /**
     * Each worker's stages: a rate schedule scaled to its share, a connection schedule with each stage's target split
     * by weight, so that the workers' targets add up to the whole's at every stage's end; null without stages.
     */
    private static Stages[] stages(Stages whole, double[] weights) {
        if (whole == null) {
            return null;
        }
        Stages[] out = new Stages[weights.length];
        if (whole.kind() == Stages.Kind.RATE) {
            for (int i = 0; i < weights.length; i++) {
                out[i] = whole.scaled(share(weights, i));
            }
            return out;
        }
        long[][] targets = new long[weights.length][whole.list().size()];
        for (int stage = 0; stage < whole.list().size(); stage++) {
            long[] parts = parts((long) whole.list().get(stage).target(), weights);
            for (int i = 0; i < weights.length; i++) {
                targets[i][stage] = parts[i];
            }
        }
        for (int i = 0; i < weights.length; i++) {
            if (Arrays.stream(targets[i]).max().orElse(0) == 0) {
                throw new ScenarioException("stages", Key.bare("stages"), ": a peak of " + (long) whole.peak()
                        + " connections over " + weights.length + " workers leaves worker " + i
                        + " none (expected: at least one each)");
            }
            out[i] = whole.withTargets(targets[i]);
        }
        return out;
    }

    /** Each worker's connections under a connection schedule: its stages' peak. */
    private static long[] peaks(Stages[] stages) {
        return Arrays.stream(stages).mapToLong(st -> (long) st.peak()).toArray();
    }

    private static void checkWeights(double[] weights, int index) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("weights: none (expected: one per worker)");
        }
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights: " + w + " (expected: > 0)");
            }
        }
        if (index < 0 || index >= weights.length) {
            throw new IllegalArgumentException("index: " + index + " (expected: 0.." + (weights.length - 1) + ")");
        }
    }

    /** Worker {@code index}'s share of a rate: its weight over the sum. */
    public static double share(double[] weights, int index) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        return weights[index] / sum;
    }

    /** The connections of the workers before {@code index}: where its run-wide numbering starts. */
    private static long before(long[] parts, int each, int index) {
        long sum = 0;
        for (int i = 0; i < index; i++) {
            sum += parts == null ? each : parts[i];
        }
        return sum;
    }

    /**
     * {@code total} in parts proportional to {@code weights}, summing exactly to {@code total}: each part its exact
     * share rounded down, then one more to the largest remainders. A part of 0 is refused, naming {@code key}.
     */
    public static long[] split(long total, double[] weights, String key) {
        long[] parts = parts(total, weights);
        for (int i = 0; i < parts.length; i++) {
            if (parts[i] == 0) {
                throw new ScenarioException(key, Key.bare(key), ": " + total + " over " + weights.length
                        + " workers leaves worker " + i + " none (expected: at least one each)");
            }
        }
        return parts;
    }

    /** {@code total} in parts proportional to {@code weights}, summing exactly to it; a part may be 0. */
    static long[] parts(long total, double[] weights) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        long[] parts = new long[weights.length];
        double[] remainders = new double[weights.length];
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = total * (weights[i] / sum);
            parts[i] = Math.min(total, (long) Math.floor(exact));
            remainders[i] = exact - parts[i];
            given += parts[i];
        }
        for (long left = total - given; left > 0; left--) {
            int best = 0;
            for (int i = 1; i < weights.length; i++) {
                if (remainders[i] > remainders[best]) {
                    best = i;
                }
            }
            parts[best]++;
            remainders[best] = -1;
        }
        return parts;
    }

    /** Every {@code workers}-th address from {@code index}; none if none were given. */
    private static List<InetAddress> dealt(List<InetAddress> addresses, int index, int workers) {
        if (addresses.isEmpty()) {
            return addresses;
        }
        if (addresses.size() < workers) {
            // Shared, two workers would draw on one address's ephemeral ports unawares.
            throw new ScenarioException("source_addresses", Key.bare("source_addresses"), ": " + addresses.size()
                    + " address(es) over " + workers + " workers would have workers share a source address "
                    + "(expected: at least one per worker)");
        }
        List<InetAddress> picked = new ArrayList<>();
        for (int i = index; i < addresses.size(); i += workers) {
            picked.add(addresses.get(i));
        }
        return picked;
    }

    private static WorkloadSettings absolute(WorkloadSettings w) {
        return new WorkloadSettings(w.name(), w.jars().stream().map(Sharding::absolute).toList(), w.params(),
                w.payload(), w.expect(), w.size(), absolute(w.proto()), w.method(), w.requestType(), w.responseType(),
                w.data(), w.expectStatus());
    }

    private static TlsSettings absolute(TlsSettings t) {
        return new TlsSettings(t.enabled(), absolute(t.ca()), t.insecure(), absolute(t.clientCert()),
                absolute(t.clientKey()), t.provider(), t.resume(), t.earlyData());
    }

    private static Path absolute(Path file) {
        return file == null ? null : file.toAbsolutePath();
    }
}
