package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.bench.BenchMethods;
import io.ricochet.rpc.bench.proto.BenchMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * nbagent's RPC test: each client calls {@code bench.update} for its share of the requests, keeping
 * {@code inFlight} calls waiting on its connection, and checks every answer: the two fields the server
 * sets (its sequence number, rising on each connection, and its receive time) and every other field
 * unchanged.
 */
public final class UpdateLoad implements RpcWorkload {
    private final RpcBenchSpec spec;
    private final Counters counters = new Counters();
    private final Recorder latency = new Recorder(RunStats.LOWEST_US, RunStats.HIGHEST_US, RunStats.DIGITS);
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final List<Driver> drivers = new ArrayList<>();
    private RpcClients group;

    public UpdateLoad(RpcBenchSpec spec) {
        this.spec = spec;
    }

    @Override
    public void connect() {
        RpcConfig rpc = RpcConfig.builder().maxInFlight(Math.max(spec.inFlight(), 1)).defaultTimeout(spec.timeout()).build();
        group = RpcClients.create(RpcClientConfig.builder().rpc(rpc).transport(spec.io()).ioThreads(spec.ioThreads())
                .build(), new SimpleMeterRegistry());
        List<CompletableFuture<RpcClient>> connects = new ArrayList<>();
        for (int i = 0; i < spec.clients(); i++) {
            connects.add(group.connect(spec.target()));
        }
        for (int i = 0; i < spec.clients(); i++) {
            drivers.add(new Driver(i, Joins.join(connects.get(i)), spec.shareOf(i)));
        }
    }

    @Override
    public CompletableFuture<Void> start() {
        CompletableFuture<?>[] done = new CompletableFuture<?>[drivers.size()];
        for (int i = 0; i < done.length; i++) {
            done[i] = drivers.get(i).done;
        }
        for (Driver driver : drivers) {
            driver.client.connection().eventLoop().execute(driver::issue);
        }
        return CompletableFuture.allOf(done);
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
    public Map<String, LatencySummary> steps() {
        return Map.of();
    }

    @Override
    public List<ClientRow> clients(double seconds) {
        List<ClientRow> rows = new ArrayList<>();
        for (Driver d : drivers) {
            double clientSeconds = d.lastAnswerNanos > d.firstSendNanos ? (d.lastAnswerNanos - d.firstSendNanos) / 1e9 : seconds;
            rows.add(new ClientRow(d.index, d.quota, d.ok, d.bad, d.errors,
                    Math.round(d.ok / clientSeconds * 10) / 10.0, LatencySummary.of(d.histogram)));
        }
        return rows;
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

    /** One client's closed loop; every field is touched only on its connection's event loop. */
    private final class Driver {
        final int index;
        final RpcClient client;
        final long quota;
        final ByteString body;
        final Histogram histogram = RunStats.newHistogram();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        long issued;
        long ended;
        int inFlight;
        long ok;
        long bad;
        long errors;
        long lastServerSequence;
        long firstSendNanos;
        long lastAnswerNanos;
        boolean issuing;

        Driver(int index, RpcClient client, long quota) {
            this.index = index;
            this.client = client;
            this.quota = quota;
            byte[] bytes = new byte[spec.bodySize()];
            new SplittableRandom(spec.seed() * 31 + index).nextBytes(bytes);
            this.body = ByteString.copyFrom(bytes);
            if (quota == 0) {
                done.complete(null);
            }
        }

        /** Tops the calls in flight up to the limit; re-entered from a call that fails at once, hence the guard. */
        void issue() {
            if (issuing) {
                return;
            }
            issuing = true;
            try {
                while (inFlight < spec.inFlight() && issued < quota) {
                    long sequence = ++issued;
                    inFlight++;
                    BenchMessage request = BenchMessage.newBuilder().setClientId(index).setSequence(sequence)
                            .setClientSendTimeMicros(System.currentTimeMillis() * 1000).setBody(body).build();
                    long sent = System.nanoTime();
                    if (firstSendNanos == 0) {
                        firstSendNanos = sent;
                    }
                    client.call(BenchMethods.UPDATE, request.toByteString(), spec.timeout())
                            .whenComplete((answer, error) -> answered(request, sent, answer, error));
                }
            } finally {
                issuing = false;
            }
        }

        private void answered(BenchMessage request, long sentNanos, ByteString answer, Throwable error) {
            long now = System.nanoTime();
            inFlight--;
            ended++;
            lastAnswerNanos = now;
            if (error != null) {
                errors++;
                counters.errors.increment();
                firstError.compareAndSet(null, "client " + index + ": " + error.getMessage());
            } else {
                String mismatch = verify(request, answer);
                if (mismatch == null) {
                    long micros = Math.max(1, (now - sentNanos) / 1000);
                    histogram.recordValue(Math.min(micros, RunStats.HIGHEST_US));
                    latency.recordValue(Math.min(micros, RunStats.HIGHEST_US));
                    ok++;
                    counters.ok.increment();
                } else {
                    bad++;
                    counters.bad.increment();
                    firstError.compareAndSet(null, "client " + index + " sequence " + request.getSequence() + ": " + mismatch);
                }
            }
            if (ended == quota) {
                done.complete(null);
            } else {
                issue();
            }
        }

        private String verify(BenchMessage request, ByteString answer) {
            BenchMessage reply;
            try {
                reply = BenchMessage.parseFrom(answer);
            } catch (InvalidProtocolBufferException e) {
                return "answer is not a BenchMessage";
            }
            if (reply.getServerSequence() <= lastServerSequence) {
                return "server sequence " + reply.getServerSequence() + " not above " + lastServerSequence;
            }
            lastServerSequence = reply.getServerSequence();
            if (reply.getServerReceiveTimeMicros() <= 0) {
                return "server receive time not set";
            }
            if (!reply.toBuilder().clearServerSequence().clearServerReceiveTimeMicros().build().equals(request)) {
                return "a field the server must not touch changed";
            }
            return null;
        }
    }
}
