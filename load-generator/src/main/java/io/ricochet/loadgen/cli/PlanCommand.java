package io.ricochet.loadgen.cli;

import picocli.CommandLine.Command;

/** The controller's capacity plan alone: what the run would need, and whether it fits, with nothing started. */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the capacity plan the controller makes before every run, and starts nothing: ports per "
                + "source address, open files per process against the real limit, generator, server and kernel "
                + "memory from the measured per-connection costs, connect time at --connect-rate, and on Kubernetes "
                + "pods and nodes. Takes the controller's options and scenario, e.g. plan --workers 6 massive "
                + "--connections 100k --target 127.0.0.1:7000 --source-addresses 127.0.0.2-127.0.0.13 --connect-rate "
                + "5000 --warmup 60s --duration 30s. Exit 0 when the run fits, 1 when it is refused (the last line "
                + "names the limit).")
final class PlanCommand extends ControllerCommand {
    @Override
    boolean planOnly() {
        return true;
    }
}
