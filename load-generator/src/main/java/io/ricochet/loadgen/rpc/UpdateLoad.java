package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClient;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.echo.rpc.proto.BenchMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * nbagent's RPC test: each client calls {@code bench.update} for its share of the requests, keeping
 * {@code inFlight} calls waiting on its connection, and checks every answer: the two fields the server
 * sets (its sequence number, rising on each connection, and its receive time) and every other field
 * unchanged.
 */
public final class UpdateLoad extends RpcLoadBase {
    private final List<Driver> drivers = new ArrayList<>();

    public UpdateLoad(RpcBenchSpec spec) {
        super(spec);
    }

    @Override
    void connect() {
        openGroup(spec.inFlight());
        List<CompletableFuture<RpcClient>> connects = new ArrayList<>();
        for (int i = 0; i < spec.clients(); i++) {
            connects.add(group.connect(spec.target()));
        }
        for (int i = 0; i < spec.clients(); i++) {
            drivers.add(new Driver(i, Joins.join(connects.get(i))));
        }
    }

    @Override
    CompletableFuture<Void> begin(IntToLongFunction shareOf, String phase) {
        CompletableFuture<?>[] ends = new CompletableFuture<?>[drivers.size()];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = drivers.get(i).begin(shareOf.applyAsLong(i));
        }
        return CompletableFuture.allOf(ends);
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


    /** One client's closed loop; every field is touched only on its connection's event loop. */
    private final class Driver {
        final int index;
        final RpcClient client;
        final ByteString body;
        final Histogram histogram = RunStats.newHistogram();
        /** The current phase's calls and its end. */
        long quota;
        CompletableFuture<Void> done;
        long issued;
        long ended;
        int inFlight;
        long ok;
        long bad;
        long errors;
        long lastServerSequence;
        long firstSendNanos;
        long lastAnswerNanos;
        /**
         * Wall-clock micros minus monotonic micros, taken once a phase: a send's wall time without a second clock
         * read. The bench message's send time is only compared for equality, so a clock step mid-phase is harmless.
         */
        long wallOffsetMicros;
        boolean issuing;

        Driver(int index, RpcClient client) {
            this.index = index;
            this.client = client;
            this.body = body(index);
        }

        /** Starts a phase of {@code calls} on the event loop; nothing of an earlier phase is in flight or counted. */
        CompletableFuture<Void> begin(long calls) {
            CompletableFuture<Void> phase = new CompletableFuture<>();
            client.connection().eventLoop().execute(() -> {
                quota = calls;
                done = phase;
                issued = 0;
                ended = 0;
                ok = 0;
                bad = 0;
                errors = 0;
                firstSendNanos = 0;
                lastAnswerNanos = 0;
                wallOffsetMicros = System.currentTimeMillis() * 1000 - System.nanoTime() / 1000;
                histogram.reset();
                if (calls == 0) {
                    phase.complete(null);
                } else {
                    issue();
                }
            });
            return phase;
        }

        /** Tops the calls in flight up to the limit; re-entered from a call that fails at once, hence the guard. */
        void issue() {
            if (issuing) {
                return;
            }
            issuing = true;
            try {
                while (sending && inFlight < spec.inFlight() && issued < quota) {
                    long sequence = ++issued;
                    inFlight++;
                    long sent = System.nanoTime();
                    BenchMessage request = BenchMessage.newBuilder().setClientId(index).setSequence(sequence)
                            .setClientSendTimeMicros(wallOffsetMicros + sent / 1000).setBody(body).build();
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
                failed("client " + index + ": " + error.getMessage());
            } else {
                String mismatch = verify(request, answer);
                if (mismatch == null) {
                    long micros = micros(now - sentNanos);
                    histogram.recordValue(micros);
                    latency.recordValue(micros);
                    ok++;
                    counters.ok.increment();
                } else {
                    bad++;
                    counters.bad.increment();
                    failed("client " + index + " sequence " + request.getSequence() + ": " + mismatch);
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
            // Field by field: rebuilding the message to compare it would allocate per answer.
            if (reply.getClientId() != request.getClientId() || reply.getSequence() != request.getSequence()
                    || reply.getClientSendTimeMicros() != request.getClientSendTimeMicros()
                    || !reply.getBody().equals(request.getBody())) {
                return "a field the server must not touch changed";
            }
            return null;
        }
    }
}
