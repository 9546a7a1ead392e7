package io.ricochet.loadgen.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How the controller's {@link ShardPlanner} passes an option on to its workers, declared beside the option. An option
 * without it is copied to every worker as given.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface Shard {
    Rule value();

    enum Rule {
        /** Passed on as given. */
        COPY,
        /** An integer total (connections, clients, calls), split by weight; the parts add up to it exactly. */
        SPLIT_TOTAL,
        /** A rate, split in proportion to the weights. */
        SPLIT_RATE,
        /** Each worker gets its own, spaced {@link ShardPlanner#SEED_STRIDE} apart, so bodies never coincide. */
        SEED,
        /** A list of source addresses, dealt round-robin; fewer than workers is an error, since workers would share. */
        DEAL_ADDRESSES,
        /** The run-wide number of a worker's first connection: the connections of the workers before it. */
        CONNECTION_OFFSET,
        /** A file, made absolute, so a worker started elsewhere reads the same file; each, if repeated. */
        ABSOLUTE_FILE,
        /** The worker's own index, which workloads see. */
        WORKER_INDEX,
        /** The controller's own (target, report, JSON output, scrape): not passed on. */
        CONTROLLER_ONLY
    }
}
