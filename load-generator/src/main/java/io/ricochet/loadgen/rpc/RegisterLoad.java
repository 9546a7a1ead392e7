package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.loadgen.report.ClientRow;
import io.ricochet.loadgen.report.LatencySummary;
import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcStatus;
import io.ricochet.echo.rpc.BenchMethods;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntToLongFunction;
import org.HdrHistogram.Recorder;

/**
 * nbagent's registration test, on pairs of clients. One cycle: A registers a fresh URI at the agent,
 * B calls it and must get its body reversed (A answers through the agent), A unregisters it, B calls it
 * again and must get {@code NOT_FOUND}. Each pair runs its share of the cycles one after another; a
 * cycle is ok only if all four steps are.
 */
public final class RegisterLoad extends RpcLoadBase {
    /** The steps of a cycle, in order, as named in the report. */
    public static final List<String> STEPS = List.of("register", "call", "unregister", "call_missing");
    private static final RpcHandler REVERSE = RpcHandler.sync(BenchMethods::reverse);

    private final Recorder[] stepLatency = new Recorder[STEPS.size()];
    private final org.HdrHistogram.Histogram[] stepTotals = new org.HdrHistogram.Histogram[STEPS.size()];

    public RegisterLoad(RpcBenchSpec spec) {
        super(spec);
        for (int i = 0; i < STEPS.size(); i++) {
            stepLatency[i] = new Recorder(RunStats.LOWEST_US, RunStats.HIGHEST_US, RunStats.DIGITS);
            stepTotals[i] = RunStats.newHistogram();
        }
    }

    private final List<RpcClient[]> connected = new ArrayList<>();

    @Override
    void connect() {
        // One step of a cycle at a time per connection.
        openGroup(1);
        for (int i = 0; i < spec.clients(); i++) {
            connected.add(new RpcClient[] {Joins.join(group.connect(spec.target())), Joins.join(group.connect(spec.target()))});
        }
    }

    @Override
    CompletableFuture<Void> begin(IntToLongFunction shareOf, String phase) {
        List<CompletableFuture<Void>> pairs = new ArrayList<>();
        for (int i = 0; i < connected.size(); i++) {
            RpcClient[] pair = connected.get(i);
            Pair p = new Pair(i, pair[0], pair[1], shareOf.applyAsLong(i), phase);
            p.next(0);
            pairs.add(p.done);
        }
        return CompletableFuture.allOf(pairs.toArray(new CompletableFuture<?>[0]));
    }

    @Override
    synchronized void warmedUp() {
        for (Recorder step : stepLatency) {
            step.reset();
        }
    }

    @Override
    public synchronized Map<String, LatencySummary> steps() {
        Map<String, LatencySummary> steps = new LinkedHashMap<>();
        for (int i = 0; i < STEPS.size(); i++) {
            stepTotals[i].add(stepLatency[i].getIntervalHistogram());
            steps.put(STEPS.get(i), LatencySummary.of(stepTotals[i]));
        }
        return steps;
    }

    @Override
    public List<ClientRow> clients(double seconds) {
        return List.of();
    }


    /** One owner and one caller running their cycles in sequence. */
    private final class Pair {
        final int index;
        final RpcClient owner;
        final RpcClient caller;
        final long cycles;
        final ByteString body;
        /** Keeps each warmup round's URIs apart from the others' and the measured ones. */
        final String phase;

        Pair(int index, RpcClient owner, RpcClient caller, long cycles, String phase) {
            this.index = index;
            this.owner = owner;
            this.caller = caller;
            this.cycles = cycles;
            this.body = body(index);
            this.phase = phase;
        }

        final CompletableFuture<Void> done = new CompletableFuture<>();

        /** Runs cycles from {@code first} on; loops over those that end at once so the stack stays flat. */
        void next(long first) {
            for (long cycle = first; cycle < cycles && sending; cycle++) {
                CompletableFuture<Void> ended = cycle(cycle);
                if (!ended.isDone()) {
                    long following = cycle + 1;
                    ended.whenComplete((v, e) -> next(following));
                    return;
                }
            }
            done.complete(null);
        }

        /** Completes normally whatever happened; the outcome is in the counters. */
        private CompletableFuture<Void> cycle(long cycle) {
            // The seed is distinct per worker of a distributed run, so no two workers' pairs share a URI.
            String uri = "bench/" + spec.seed() + "/" + phase + index + "/" + cycle;
            long[] t = new long[STEPS.size() + 1];
            t[0] = System.nanoTime();
            return owner.serve(uri, REVERSE)
                    .thenCompose(v -> {
                        t[1] = System.nanoTime();
                        return caller.call(uri, body, spec.timeout());
                    })
                    .thenCompose(answer -> {
                        t[2] = System.nanoTime();
                        if (!answer.equals(BenchMethods.reverse(body))) {
                            throw new Mismatch("call to " + uri + " answered a wrong body");
                        }
                        return owner.unserve(uri);
                    })
                    .thenCompose(v -> {
                        t[3] = System.nanoTime();
                        return caller.call(uri, body, spec.timeout()).handle((answer, error) -> {
                            t[4] = System.nanoTime();
                            if (error == null) {
                                throw new Mismatch("call to " + uri + " succeeded after unregister");
                            }
                            if (!(cause(error) instanceof RpcException e) || e.status() != RpcStatus.NOT_FOUND) {
                                throw new CompletionException(cause(error));
                            }
                            return null;
                        });
                    })
                    .handle((v, error) -> {
                        if (error == null) {
                            record(t);
                        } else if (cause(error) instanceof Mismatch m) {
                            counters.bad.increment();
                            failed(m.getMessage());
                            owner.unserve(uri);
                        } else {
                            counters.errors.increment();
                            failed(uri + ": " + cause(error).getMessage());
                            owner.unserve(uri);
                        }
                        return null;
                    });
        }

        private void record(long[] t) {
            for (int i = 0; i < STEPS.size(); i++) {
                stepLatency[i].recordValue(micros(t[i + 1] - t[i]));
            }
            latency.recordValue(micros(t[STEPS.size()] - t[0]));
            counters.ok.increment();
        }
    }

    private static Throwable cause(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** An answer that came but was wrong: a bad cycle, not an error. */
    private static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }
}
