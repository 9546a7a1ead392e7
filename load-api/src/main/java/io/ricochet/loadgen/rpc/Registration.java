package io.ricochet.loadgen.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.loadgen.engine.Mixing;
import io.ricochet.loadgen.engine.RpcExchange;
import io.ricochet.loadgen.engine.StepTimes;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcStatus;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * nbagent's registration test as an exchange over a pair of connections. One request is a cycle: the owner registers a
 * fresh URI at the agent, the caller calls it and must get its body reversed (the owner answers through the agent),
 * the owner unregisters it, and the caller's next call must get {@code NOT_FOUND}. A cycle is ok only if all four steps
 * are; each step is timed on its own.
 */
public record Registration(int bodySize, long seed, Duration timeout) implements RpcExchange {
    /** The steps of a cycle, in order, as named in the report. */
    public static final List<String> STEPS = List.of("register", "call", "unregister", "call_missing");
    private static final RpcHandler REVERSE = RpcHandler.sync(BenchMethods::reverse);


    @Override
    public int connectionsPerLane() {
        return 2;
    }

    @Override
    public List<String> steps() {
        return STEPS;
    }

    @Override
    public Session open(Context lane, List<RpcClient> clients, StepTimes steps) {
        byte[] bytes = new byte[bodySize];
        new SplittableRandom(Mixing.mix(seed * 31 + lane.connection())).nextBytes(bytes);
        ByteString body = ByteString.copyFrom(bytes);
        ByteString reversed = BenchMethods.reverse(body);
        RpcClient owner = clients.get(0);
        RpcClient caller = clients.get(1);
        long connection = lane.connection();
        return request -> cycle(owner, caller, body, reversed, steps,
                // The seed differs per worker and the connection index is run-wide, so no two pairs share a URI.
                "bench/" + seed + "/" + connection + "/" + request.sequence());
    }

    /** Completes with the cycle's check, or exceptionally when a step got no answer. */
    private CompletionStage<Check> cycle(RpcClient owner, RpcClient caller, ByteString body, ByteString reversed,
            StepTimes steps, String uri) {
        long[] t = new long[STEPS.size() + 1];
        t[0] = System.nanoTime();
        return owner.serve(uri, REVERSE)
                .thenCompose(v -> {
                    t[1] = System.nanoTime();
                    return caller.call(uri, body, timeout);
                })
                .thenCompose(answer -> {
                    t[2] = System.nanoTime();
                    if (!answer.equals(reversed)) {
                        throw new Mismatch("call to " + uri + " answered a wrong body");
                    }
                    return owner.unserve(uri);
                })
                .thenCompose(v -> {
                    t[3] = System.nanoTime();
                    return caller.call(uri, body, timeout).handle((answer, error) -> {
                        t[4] = System.nanoTime();
                        if (error == null) {
                            throw new Mismatch("call to " + uri + " succeeded after unregister");
                        }
                        if (!(cause(error) instanceof RpcException e) || e.status() != RpcStatus.NOT_FOUND) {
                            throw new CompletionException(cause(error));
                        }
                        return (Void) null;
                    });
                })
                .handle((v, error) -> {
                    if (error == null) {
                        for (int i = 0; i < STEPS.size(); i++) {
                            steps.record(i, t[i + 1] - t[i]);
                        }
                        return Check.ok();
                    }
                    owner.unserve(uri);
                    if (cause(error) instanceof Mismatch m) {
                        return Check.bad(m.getMessage());
                    }
                    throw new CompletionException(new RpcFailure(uri + ": " + cause(error).getMessage()));
                });
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

    /** A step that got no answer, with the URI it was about. */
    private static final class RpcFailure extends RuntimeException {
        RpcFailure(String message) {
            super(message, null, false, false);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
