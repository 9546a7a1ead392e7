package io.ricochet.loadgen.cli;

import io.ricochet.loadgen.plan.CapacityPlan;
import io.ricochet.loadgen.plan.Demand;
import io.ricochet.loadgen.plan.Limits;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.workload.Workload;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** The capacity plan of a scenario, made before anything starts: by plan, the controller and a single run. */
final class Plans {
    private Plans() {
    }

    /**
     * The plan of {@code s} over workers weighted {@code weights}; {@code distributed} when a controller runs it,
     * {@code podMemory} what each worker pod requests on Kubernetes (0 otherwise); {@code workload} (null: none) may
     * declare what it adds to each connection.
     */
    static CapacityPlan plan(Scenario s, Workload workload, double[] weights, boolean distributed, boolean kubernetes,
            long podMemory, long nodeMemory) {
        Demand demand = Demand.of(s, weights, distributed, kubernetes, podMemory,
                workload == null ? 0 : workload.bytesPerConnection().orElse(0));
        return CapacityPlan.of(demand, Limits.ofThisMachine(nodeMemory));
    }

    /** A run in this one process: refused, with one line naming the limit, when it cannot fit. */
    static void checkAlone(CommandLine cli, Scenario s, Workload workload) {
        CapacityPlan plan = plan(s, workload, new double[] {1}, false, false, 0, 0);
        if (!plan.fits()) {
            throw new ParameterException(cli, "refused before sending anything: " + plan.refusal());
        }
    }
}
