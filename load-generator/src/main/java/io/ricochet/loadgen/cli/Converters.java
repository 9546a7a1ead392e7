package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters.Parsing;
import io.ricochet.loadgen.distributed.WorkerLoss;
import io.ricochet.loadgen.engine.Stages;
import io.ricochet.loadgen.engine.Targets;
import io.ricochet.loadgen.report.threshold.Threshold;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.loadgen.scenario.Values;
import io.ricochet.transport.Protocol;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * picocli converters for the load generator's own option values, each the parser a scenario file's value goes through
 * ({@link Values}, {@link SizeRange}, {@link Targets}, {@link Threshold}); each failure is one line naming the value.
 * The framework's units (durations, byte sizes, counts, I/O transports) are converted by the shared
 * {@code ValueConverters}.
 */
final class Converters {
    private Converters() {
    }

    static final class WorkerLossConverter extends Parsing<WorkerLoss> {
        WorkerLossConverter() {
            super(text -> {
                try {
                    return WorkerLoss.parse(text);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(text + " (expected: abort or continue)");
                }
            });
        }
    }

    static final class ThresholdConverter extends Parsing<Threshold> {
        ThresholdConverter() {
            super(Threshold::parse);
        }
    }

    /** One {@code HOST:PORT}, such as the controller's address. */
    static final class AddressConverter extends Parsing<InetSocketAddress> {
        AddressConverter() {
            super(value -> {
                Targets one = Targets.parse(value);
                if (one.size() != 1) {
                    throw new IllegalArgumentException("address: " + value + " (expected: one HOST:PORT)");
                }
                return one.first();
            });
        }
    }

    static final class TargetConverter extends Parsing<Targets> {
        TargetConverter() {
            super(Targets::parse);
        }
    }

    static final class ProtocolConverter extends Parsing<Protocol> {
        ProtocolConverter() {
            super(Values::protocol);
        }
    }

    /** Body bytes, {@code N} or {@code MIN..MAX}: {@code 64}, {@code 4k}, {@code 1k..4k}. */
    static final class SizeConverter extends Parsing<SizeRange> {
        SizeConverter() {
            super(SizeRange::parseBytes);
        }
    }

    /** A count, {@code N} or {@code MIN..MAX}: {@code 100}, {@code 10k}, {@code 1k..10k}. */
    static final class CountRangeConverter extends Parsing<SizeRange> {
        CountRangeConverter() {
            super(SizeRange::parseCounts);
        }
    }

    /** A rate such as {@code 5000}, {@code 10k}, {@code 0.04}, {@code 1.5k/s} or {@code 10/m}. */
    static final class RateConverter extends Parsing<Double> {
        RateConverter() {
            super(Values::rate);
        }
    }

    /** A load's stages, {@code 0:10s,20k:30s,5k:1m:step} or {@code 1000conns:30s}. */
    static final class StagesConverter extends Parsing<Stages> {
        StagesConverter() {
            super(Values::stages);
        }
    }

    /** A share of a whole, {@code 0.1%} or {@code 0.001}: 0 up to 1 (100%). */
    static final class FractionConverter extends Parsing<Double> {
        FractionConverter() {
            super(Values::fraction);
        }
    }

    /** {@code a,b,c} or a range {@code 127.0.0.2-127.0.0.40} of IPv4 addresses. */
    static final class SourceAddressesConverter extends Parsing<List<InetAddress>> {
        SourceAddressesConverter() {
            super(Values::sourceAddresses);
        }
    }
}
