package io.ricochet.loadgen.plan;

import io.ricochet.loadgen.scenario.Command;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.Sharding;
import java.util.Arrays;

import io.ricochet.config.InvalidValueException;
import io.ricochet.transport.Protocol;
import java.time.Duration;

/**
 * What a run asks of the machines, as the capacity plan reads it.
 *
 * @param connections       connections held at once, over all workers
 * @param workers           processes (local JVMs or pods) they are split over
 * @param busiestWorker     the most connections one worker gets (workers may be weighted)
 * @param targets           servers the connections are dealt over; 0 for the generator's own embedded server
 * @param localTargets      whether the servers run on this machine (loopback, or embedded), so their memory counts here
 * @param protocol          what the connections are: over UDP an embedded server answers on one socket, over QUIC
 *                          too, and a QUIC client's connections share a socket per I/O thread
 * @param sourceAddresses   local addresses given to connect from; 0 for the kernel's choice
 * @param connectRate       connects per second over all workers; 0 for as fast as they go
 * @param warmup            the run's warmup, which a held-connection ramp may use
 * @param duration          the measured time
 * @param distributed       whether a controller runs it: an embedded server then lives in the controller, apart
 *                          from the workers
 * @param kubernetes        whether the workers are pods (their limits are the pods', not this machine's)
 * @param podMemoryBytes    the memory each worker pod requests (kubernetes only)
 * @param declaredClientBytes what the run's workload declares its own state adds to each connection in the generator,
 *                          beyond the engine's measured cost; 0 when it declares nothing
 */
public record Demand(long connections, int workers, long busiestWorker, int targets, boolean localTargets, Protocol protocol,
        int sourceAddresses,
        double connectRate, Duration warmup, Duration duration, boolean distributed, boolean kubernetes,
        long podMemoryBytes, long declaredClientBytes) {

    public Demand {
        if (protocol == null) {
            throw new InvalidValueException("protocol", "null", "tcp, udp or quic");
        }
        if (connections < 1) {
            throw new InvalidValueException("connections", Long.toString(connections), ">= 1");
        }
        if (workers < 1) {
            throw new InvalidValueException("workers", Integer.toString(workers), ">= 1");
        }
        if (declaredClientBytes < 0) {
            throw new InvalidValueException("bytesPerConnection", Long.toString(declaredClientBytes), ">= 0");
        }
        if (busiestWorker < (connections + workers - 1) / workers || busiestWorker > connections) {
            throw new InvalidValueException("busiestWorker", Long.toString(busiestWorker),
                    "from an equal share to all " + connections);
        }
    }

    /** The same demand without a workload's declaration (the tests' and older callers' form). */
    public Demand(long connections, int workers, long busiestWorker, int targets, boolean localTargets,
            Protocol protocol, int sourceAddresses, double connectRate, Duration warmup, Duration duration,
            boolean distributed, boolean kubernetes, long podMemoryBytes) {
        this(connections, workers, busiestWorker, targets, localTargets, protocol, sourceAddresses, connectRate, warmup,
                duration, distributed, kubernetes, podMemoryBytes, 0);
    }

    /**
     * What {@code s} asks for, split over workers weighted {@code weights} as {@link Scenario#shard} splits it:
     * {@code distributed} when a controller runs it, {@code podMemoryBytes} what each worker pod requests on Kubernetes
     * (0 otherwise), {@code declaredClientBytes} what its workload declares per connection.
     */
    public static Demand of(Scenario s, double[] weights, boolean distributed, boolean kubernetes, long podMemoryBytes,
            long declaredClientBytes) {
        // register holds a pair of clients per pair; rr its one connection.
        long connections = Math.max(1, s.command() == Command.REGISTER ? 2L * s.connections() : s.connections());
        boolean local = s.target() == null
                || s.target().addresses().stream().allMatch(t -> t.getAddress() != null && t.getAddress().isLoopbackAddress());
        long busiest = connections < weights.length ? connections
                : Arrays.stream(Sharding.split(connections, weights, "connections")).max().orElse(connections);
        boolean timed = s.command().framedWorkload() || s.command() == Command.UDP_STREAM;
        return new Demand(connections, weights.length, busiest, s.target() == null ? 0 : s.target().size(), local,
                s.command().rpc() ? Protocol.TCP : s.transport(), s.sourceAddresses().size(), s.connectRate(),
                timed ? s.effectiveWarmup() : Duration.ZERO, timed ? s.duration() : Duration.ZERO, distributed,
                kubernetes, podMemoryBytes, declaredClientBytes);
    }

    /** The generator's own embedded server. */
    public boolean embedded() {
        return targets == 0;
    }

    /**
     * Descriptors the busiest process holds: a worker's connections; with the embedded server, every server end too
     * (over UDP, its one socket), in the one process of a single run, or in the controller's.
     */
    public long descriptorsPerProcess() {
        long clientEnds = clientSharesSockets() ? 0 : busiestWorker;
        if (!embedded()) {
            return clientEnds;
        }
        long serverEnds = protocol == Protocol.TCP ? connections : 1;
        return distributed ? Math.max(clientEnds, serverEnds) : (clientSharesSockets() ? 0 : connections) + serverEnds;
    }

    /** QUIC: a client's connections share its I/O threads' sockets, so they take neither a descriptor nor a port each. */
    public boolean clientSharesSockets() {
        return protocol == Protocol.QUIC;
    }
}
