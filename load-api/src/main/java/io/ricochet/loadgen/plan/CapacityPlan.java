package io.ricochet.loadgen.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sums before a run: ports per source address, descriptors per process, memory, connect time and, on Kubernetes,
 * pods and nodes. {@link #refusal()} names the first limit the run would break, or is null when it fits.
 */
public record CapacityPlan(List<String> lines, String refusal) {
    /** Per server process, the held-connection bench's share: below the 18,976 one process may hold here. */
    public static final long CONNECTIONS_PER_SERVER_PROCESS = 18_000;

    public CapacityPlan {
        lines = List.copyOf(lines);
    }

    public boolean fits() {
        return refusal == null;
    }

    /** The plan of {@code d} with the measured costs, the generator's per connection with what its workload declares. */
    public static CapacityPlan of(Demand d, Limits limits) {
        ConnectionCosts costs = ConnectionCosts.of(d);
        return of(d, limits, costs.withClientBytes(costs.clientBytes() + d.declaredClientBytes()));
    }

    public static CapacityPlan of(Demand d, Limits limits, ConnectionCosts costs) {
        List<String> lines = new ArrayList<>();
        String refusal = null;

        long perWorker = d.busiestWorker();
        lines.add(String.format(Locale.ROOT, "connections: %,d over %d worker(s), %,d %s, to %s", d.connections(),
                d.workers(), perWorker, perWorker * d.workers() == d.connections() ? "each" : "at most",
                d.embedded() ? "the embedded server" : d.targets() + " target(s)"));

        // A socket bound to a source address before connect takes a port of that address for every target; without
        // one, the kernel picks a port per (source, target) pair and the workers of one machine share its source.
        long perPort;
        String portsOf;
        if (d.clientSharesSockets()) {
            perPort = 0;
            portsOf = "connection (QUIC connections share a socket per I/O thread)";
        } else if (d.sourceAddresses() > 0) {
            // A controller deals the addresses out evenly, whatever the workers' weights.
            perPort = d.distributed() ? ceil(perWorker, Math.max(1, d.sourceAddresses() / d.workers()))
                    : ceil(d.connections(), d.sourceAddresses());
            portsOf = "source address (" + d.sourceAddresses() + " given)";
        } else if (d.kubernetes()) {
            perPort = ceil(perWorker, Math.max(1, d.targets()));
            portsOf = "(pod, target) pair";
        } else {
            perPort = ceil(d.connections(), Math.max(1, d.targets()));
            portsOf = "target from this machine's one source address";
        }
        lines.add(String.format(Locale.ROOT, "ports: %,d per %s, of %,d ephemeral", perPort, portsOf,
                limits.ephemeralPorts()));
        if (perPort > limits.ephemeralPorts()) {
            String remedy = d.sourceAddresses() == 0 && d.kubernetes()
                    ? "use --workers " + ceil(d.connections(), limits.ephemeralPorts() * (long) Math.max(1, d.targets()))
                            + " or more, or more targets"
                    : "give --source-addresses, " + ceil(d.connections(), limits.ephemeralPorts()) + " or more"
                            + (d.sourceAddresses() == 0 ? ", or more targets" : "");
            refusal = String.format(Locale.ROOT, "ports: %,d connections per %s, but the ephemeral range has %,d (%s)",
                    perPort, portsOf, limits.ephemeralPorts(), remedy);
        }

        long descriptors = d.descriptorsPerProcess();
        if (!d.kubernetes() && limits.openFiles() > 0) {
            long cap = limits.connectionsPerProcess();
            lines.add(String.format(Locale.ROOT, "open files: %,d in the busiest process%s, of %,d one may hold here "
                    + "(open-file limit %,d)", descriptors, d.embedded() ? " (the embedded server's)" : "", cap,
                    limits.openFiles()));
            if (descriptors > cap && refusal == null) {
                refusal = String.format(Locale.ROOT, "open files: %,d in one process%s, but one may hold %,d here "
                        + "(open-file limit %,d; %s)", descriptors, d.embedded() ? ", the embedded server's ends included"
                        : "", cap, limits.openFiles(), d.embedded() ? "give --target a separate server"
                        : "split them with controller --workers " + ceil(d.connections(), cap) + " or more");
            }
        }

        if (d.declaredClientBytes() > 0) {
            lines.add(String.format(Locale.ROOT, "generator memory per connection: %,d B (%,d B measured for an echo "
                    + "connection, and %,d B the workload declares)", costs.clientBytes(),
                    costs.clientBytes() - d.declaredClientBytes(), d.declaredClientBytes()));
        }
        long client = d.connections() * costs.clientBytes() + d.workers() * costs.workerBaseBytes();
        long serverProcesses = d.embedded() ? 0 : Math.max(d.targets(), ceil(d.connections(), CONNECTIONS_PER_SERVER_PROCESS));
        long server = d.localTargets() ? d.connections() * costs.serverBytes() + serverProcesses * costs.serverBaseBytes()
                : 0;
        long kernel = d.connections() * (d.localTargets() ? costs.kernelBytes() : costs.kernelBytes() / 2);
        if (d.kubernetes()) {
            long pod = perWorker * (costs.clientBytes() + costs.kernelBytes() / 2) + costs.workerBaseBytes();
            long nodes = limits.nodeMemoryBytes() > 0 ? ceil(d.workers() * Math.max(pod, d.podMemoryBytes()),
                    limits.nodeMemoryBytes()) : 0;
            lines.add(String.format(Locale.ROOT, "kubernetes: %d worker pod(s), each needing about %s of the %s it "
                    + "requests; %d node(s) of %s for them", d.workers(), gib(pod), gib(d.podMemoryBytes()), nodes,
                    gib(limits.nodeMemoryBytes())));
            if (pod > d.podMemoryBytes() && refusal == null) {
                refusal = String.format(Locale.ROOT, "memory: each worker pod needs about %s for %,d connections, "
                        + "more than the %s it requests (raise --worker-memory or --workers)", gib(pod), perWorker,
                        gib(d.podMemoryBytes()));
            }
        } else {
            String needed = String.format(Locale.ROOT, "about %s (generator %s, %s, kernel %s)",
                    gib(client + server + kernel), gib(client),
                    d.localTargets() ? "servers " + gib(server) : "servers elsewhere", gib(kernel));
            lines.add("memory: " + needed + ", of " + (limits.memoryBytes() > 0 ? gib(limits.memoryBytes()) : "unknown")
                    + " here");
            if (limits.memoryBytes() > 0 && client + server + kernel > limits.memoryBytes() && refusal == null) {
                refusal = "memory: " + needed + " needed, but this machine has " + gib(limits.memoryBytes());
            }
        }

        if (d.connectRate() > 0) {
            double seconds = d.connections() / d.connectRate();
            double runSeconds = (d.warmup().toMillis() + d.duration().toMillis()) / 1000.0;
            lines.add(String.format(Locale.ROOT, "connect time: %,.1f s at %,.0f/s, in a run of %,.1f s", seconds,
                    d.connectRate(), runSeconds));
            if (seconds > runSeconds && refusal == null) {
                refusal = String.format(Locale.ROOT, "connect time: %,d connections at %,.0f/s take %,.1f s, longer "
                        + "than the run's %,.1f s (raise --connect-rate, --warmup or --duration)", d.connections(),
                        d.connectRate(), seconds, runSeconds);
            }
        }
        return new CapacityPlan(lines, refusal);
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }

    private static String gib(long bytes) {
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%d MiB", bytes >> 20);
    }
}
