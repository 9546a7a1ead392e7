package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Recorder;

/** What both RPC benchmarks share: the spec, the client group, the counters, the latency recorder, the first error. */
abstract class RpcLoadBase implements RpcWorkload {
    final RpcBenchSpec spec;
    final Counters counters = new Counters();
    /** Written from every client's event loop, hence the multi-writer recorder. */
    final Recorder latency = new Recorder(RunStats.LOWEST_US, RunStats.HIGHEST_US, RunStats.DIGITS);
    private final AtomicReference<String> firstError = new AtomicReference<>();
    RpcClients group;

    RpcLoadBase(RpcBenchSpec spec) {
        this.spec = spec;
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
    public long total() {
        return spec.total();
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public Recorder latency() {
        return latency;
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
