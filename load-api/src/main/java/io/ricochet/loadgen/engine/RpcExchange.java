package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.rpc.RpcClient;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The general form of an RPC workload, inside the engine: a request is any exchange over one or more connections (a
 * registration cycle through the agent, over an owner's and a caller's), ending with its check. The public
 * {@link io.ricochet.loadgen.workload.RpcWorkload} is its case of one call on one connection, which {@link CallLane}
 * runs without this indirection.
 */
public interface RpcExchange {

    /** Connections each lane has: the clients {@link #open} is given. */
    default int connectionsPerLane() {
        return 1;
    }

    /** The names of the steps its exchanges time, in order; empty if none. */
    default List<String> steps() {
        return List.of();
    }

    /** A lane's session over {@code clients}, its steps timed into {@code steps}. */
    Session open(Context lane, List<RpcClient> clients, StepTimes steps);

    interface Session {
        /**
         * Starts request {@code request.sequence()}; the stage completes with its check, or exceptionally when it got
         * no answer (an error, the exception's message kept as the first error).
         */
        CompletionStage<Check> exchange(Context request);
    }
}
