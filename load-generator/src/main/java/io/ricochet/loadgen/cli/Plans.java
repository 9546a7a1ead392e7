package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.plan.CapacityPlan;
import io.ricochet.loadgen.plan.Demand;
import io.ricochet.loadgen.plan.Limits;
import io.ricochet.transport.Protocol;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/** The capacity plan of a parsed scenario, made before anything starts: by plan, the controller and a single run. */
final class Plans {
    private Plans() {
    }

    /**
     * The plan of {@code scenario} (a parsed scenario command) over workers weighted {@code weights};
     * {@code distributed} when a controller runs it, {@code podMemory} what each worker pod requests on Kubernetes (0
     * otherwise).
     */
    static CapacityPlan plan(ScenarioCommand scenario, double[] weights, boolean distributed, boolean kubernetes,
            long podMemory, long nodeMemory) {
        Demand demand = demand(scenario, weights, distributed, kubernetes, podMemory);
        return CapacityPlan.of(demand, Limits.ofThisMachine(nodeMemory));
    }

    /**
     * A run in this one process: refused, with one line naming the limit, when it cannot fit. Its TLS and Noise flags
     * are checked first, so a wrong flag is named as such rather than as a run too big.
     */
    static void checkAlone(CommandSpec spec) {
        if (spec.userObject() instanceof ScenarioCommand scenario) {
            RunSupport.validateSecurityFlags(spec.commandLine(), scenario.common(), protocol(spec));
            CapacityPlan plan = plan(scenario, new double[] {1}, false, false, 0, 0);
            if (!plan.fits()) {
                throw new ParameterException(spec.commandLine(), "refused before sending anything: " + plan.refusal());
            }
        }
    }

    /** {@code weights}: each worker's share, as the controller splits connections by them. */
    static Demand demand(ScenarioCommand scenario, double[] weights, boolean distributed, boolean kubernetes,
            long podMemory) {
        CommandSpec spec = scenario.commandSpec;
        CommonOptions common = scenario.common();
        // Each command names its connections its own way; register holds a pair of clients per --pairs.
        long connections = number(spec, "--connections", number(spec, "--concurrency", number(spec, "--clients",
                2 * number(spec, "--pairs", 0))));
        Object sources = value(spec, "--source-addresses");
        Object duration = value(spec, "--duration");
        int targets = common.target == null ? 0 : common.target.size();
        boolean local = common.target == null
                || common.target.addresses().stream().allMatch(Plans::onThisMachine);
        connections = Math.max(1, connections);
        long busiest = connections < weights.length ? connections
                : Arrays.stream(ShardPlanner.split(connections, weights, "--connections")).max().orElse(connections);
        return new Demand(connections, weights.length, busiest, targets, local,
                protocol(spec),
                sources instanceof Converters.SourceAddresses s ? s.addresses().size() : 0,
                number(spec, "--connect-rate", 0.0), scenario.warmupTime(),
                duration instanceof Duration d ? d : Duration.ZERO, distributed, kubernetes, podMemory,
                scenario.workload() == null ? 0 : scenario.workload().bytesPerConnection().orElse(0));
    }

    /** The command's --transport, TCP for a command without one. */
    private static Protocol protocol(CommandSpec spec) {
        return value(spec, "--transport") instanceof Protocol p ? p : Protocol.TCP;
    }

    private static boolean onThisMachine(InetSocketAddress target) {
        return target.getAddress() != null && target.getAddress().isLoopbackAddress();
    }

    private static long number(CommandSpec spec, String option, long otherwise) {
        return value(spec, option) instanceof Number n ? n.longValue() : otherwise;
    }

    private static double number(CommandSpec spec, String option, double otherwise) {
        return value(spec, option) instanceof Number n ? n.doubleValue() : otherwise;
    }

    private static Object value(CommandSpec spec, String option) {
        OptionSpec found = spec.findOption(option);
        return found == null ? null : found.getValue();
    }
}
