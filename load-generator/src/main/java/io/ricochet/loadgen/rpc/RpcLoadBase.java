package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.report.ProgressLine;
import io.ricochet.loadgen.scenario.Latencies;
import io.ricochet.loadgen.scenario.Schedule;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Recorder;

/**
 * What both RPC benchmarks share: the spec, the client group, the counters, the latency recorder, the first error, and
 * how they run as a {@link io.ricochet.loadgen.scenario.Load}.
 */
abstract class RpcLoadBase implements RpcWorkload {
    /** Rounds the warmup is run in; see {@link #prepare}. */
    static final int WARMUP_ROUNDS = 5;
    final RpcBenchSpec spec;
    final Counters counters = new Counters();
    /** Written from every client's event loop, hence the multi-writer recorder. */
    final Recorder latency = new Recorder(RunStats.LOWEST_US, RunStats.HIGHEST_US, RunStats.DIGITS);
    private final AtomicReference<String> firstError = new AtomicReference<>();
    RpcClients group;
    /** Completes when every measured unit has ended; set by {@link #start}. */
    volatile CompletableFuture<Void> done;
    /** Cleared by a stop: no unit starts after it. */
    volatile boolean sending = true;

    RpcLoadBase(RpcBenchSpec spec) {
        this.spec = spec;
    }

    /** Connects every client; fails with {@code RpcException(UNAVAILABLE)} if one cannot connect. */
    abstract void connect();

    /**
     * Starts one phase on every client: client {@code i} does {@code shareOf(i)} units of work, under {@code phase}
     * ("" when measured) where the work leaves names behind. The future completes when all of the phase has ended.
     */
    abstract CompletableFuture<Void> begin(IntToLongFunction shareOf, String phase);

    /** Forgets what the warmup recorded beyond the shared counters and latency. */
    void warmedUp() {
    }

    /**
     * Connects, then runs the warmup on the same connections, so measurement starts at the steady state the warmup
     * reached (new connections would run their setup paths again, and the JIT would recompile what they touch). The
     * warmup runs in {@link #WARMUP_ROUNDS} rounds, as JMH's warmup iterations do, so the code of a phase change (a
     * phase started by a task, calls issued outside a read, a last answer that issues none) has run, and been
     * profiled, before measuring: with one warmup phase the JIT met it first at the measured phase's start, threw away
     * the compiled hot path there and spent the next second recompiling it.
     */
    @Override
    public final void prepare() {
        connect();
        if (spec.warmup() > 0) {
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                int r = round;
                // Every call ends by its deadline, so each round ends.
                begin(i -> spec.warmupShareOf(i, r, WARMUP_ROUNDS), "warmup" + r + "/").join();
            }
            counters.ok.reset();
            counters.bad.reset();
            counters.errors.reset();
            latency.reset();
            firstError.set(null);
            warmedUp();
        }
    }

    @Override
    public final void start() {
        done = begin(spec::shareOf, "");
    }

    /** Starts the client group, allowing {@code maxInFlight} calls per connection. */
    void openGroup(int maxInFlight) {
        RpcConfig rpc = RpcConfig.builder().maxInFlight(maxInFlight).defaultTimeout(spec.timeout()).build();
        RpcClientConfig.Builder config = RpcClientConfig.builder().rpc(rpc).transport(spec.io()).ioThreads(spec.ioThreads());
        if (spec.tls() != null) {
            config.tls(spec.tls());
        } else if (spec.noise() != null) {
            config.noise(spec.noise());
        }
        group = RpcClients.create(config.build(), null);
    }

    /** The fixed body of client or pair {@code index}, derived from the seed. */
    ByteString body(int index) {
        byte[] bytes = new byte[spec.bodySize()];
        new SplittableRandom(spec.seed() * 31 + index).nextBytes(bytes);
        return ByteString.copyFrom(bytes);
    }

    /** Keeps {@code what} as the run's first error unless one came before. */
    void failed(String what) {
        firstError.compareAndSet(null, what);
    }

    static long micros(long nanos) {
        return Math.max(RunStats.LOWEST_US, Math.min(RunStats.HIGHEST_US, nanos / 1000));
    }

    @Override
    public RunStats.Counts counts() {
        long ok = counters.ok.sum();
        long bad = counters.bad.sum();
        long errors = counters.errors.sum();
        return new RunStats.Counts(ok + bad + errors, ok, bad, errors, 0, 0, 0, 0);
    }

    @Override
    public int openConnections() {
        return spec.clients();
    }

    @Override
    public void drainLatencies(Latencies into) {
        into.service().add(latency.getIntervalHistogram());
    }

    @Override
    public boolean openLoop() {
        return false;
    }

    @Override
    public boolean finished() {
        CompletableFuture<Void> d = done;
        return d != null && d.isDone();
    }

    @Override
    public boolean awaitFinished(long nanos) throws InterruptedException {
        CompletableFuture<Void> d = done;
        if (d == null) {
            return RpcWorkload.super.awaitFinished(nanos);
        }
        try {
            d.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            // Each unit's failure is counted where it happens; the future only says the work is over.
        }
        return true;
    }

    @Override
    public void stopSending() {
        sending = false;
    }

    /** Nothing is waited for: a stopped run reports what has ended, and closing fails the rest. */
    @Override
    public void drain(Duration timeout) {
    }

    @Override
    public void describe(Map<String, Object> config) {
        config.put("latency_kind", "closed_loop");
        config.put("io", io());
    }

    @Override
    public ProgressLine progressLine(Schedule schedule) {
        return ProgressLine.counted(counters::received, total());
    }

    @Override
    public long total() {
        return spec.total();
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public String io() {
        return group == null ? spec.io().label() : group.io().label();
    }

    @Override
    public String firstError() {
        return firstError.get();
    }

    @Override
    public void close() {
        if (group != null) {
            group.close();
        }
    }
}
