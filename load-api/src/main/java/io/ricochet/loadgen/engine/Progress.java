package io.ricochet.loadgen.engine;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a load's intervals read on the live progress line: against its duration, with the last connect failure; against
 * its count of work, with what has ended so far; or as a datagram stream's rates.
 */
public sealed interface Progress {

    /** A run of a set duration; {@code lastConnectFailure} gives the last connect failure's reason, or null. */
    record Timed(Supplier<String> lastConnectFailure) implements Progress {
    }

    /** A run of a set amount of work: {@code total} units, {@code ended} of them ended so far. */
    record Counted(LongSupplier ended, long total) implements Progress {
    }

    /** A datagram stream: sent and received per second, bad replies so far. */
    record Stream(LongSupplier badSoFar) implements Progress {
    }
}
