package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.scenario.Scenario;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/**
 * How many connections a stream of requests runs on and how they are opened and paced: shared by {@code echo} and
 * {@code massive}, each with its own defaults (a stress test opens ten at once, a held-connection test ramps to ten
 * thousand that send rarely), which are its scenario's defaults too.
 */
final class ConnectionOptions {
    @Option(names = "--connections", converter = ValueConverters.CountConverter.class, description = "Connections, e.g. 500 or 10k (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--connect-rate", converter = Converters.RateConverter.class,
            description = "New connections per second while ramping; 0 = all at once (default: ${DEFAULT-VALUE}).")
    double connectRate;

    @Option(names = "--per-connection-rate", converter = Converters.RateConverter.class,
            description = "Requests/s on each connection, open loop, e.g. 0.04/s for held connections; "
                    + "0 = none of its own (default: ${DEFAULT-VALUE}).")
    double perConnectionRate;

    @Option(names = "--stages", converter = Converters.StagesConverter.class,
            description = "The load's shape: TARGET:DURATION[:step],... each stage ramping from the last target (the "
                    + "first from 0), or held with :step. Targets are rates (open loop, e.g. '0:10s,20k:30s,20k:1m,"
                    + "0:10s') or connections ('1000conns:30s,1000conns:5m'). The run lasts their total.")
    Stages stages;

    /** The defaults, shown in the command's help. */
    ConnectionOptions(int connections, double connectRate, double perConnectionRate) {
        this.connections = connections;
        this.connectRate = connectRate;
        this.perConnectionRate = perConnectionRate;
    }

    /** Sets on {@code b} what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--stages")) {
            b.stages(stages);
        }
        if (given.test("--connections")) {
            b.connections(connections);
        }
        if (given.test("--connect-rate")) {
            b.connectRate(connectRate);
        }
        if (given.test("--per-connection-rate")) {
            b.perConnectionRate(perConnectionRate);
        }
    }
}
