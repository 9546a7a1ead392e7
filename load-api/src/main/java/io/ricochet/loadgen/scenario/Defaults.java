package io.ricochet.loadgen.scenario;

import io.ricochet.config.LengthField;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.Protocol;
import java.time.Duration;
import java.util.List;

/** Each command's defaults, as its command line documents them: what a scenario file or builder leaves out. */
final class Defaults {
    /** The address {@code metricsPort} binds unless told. */
    static final String METRICS_HOST = "127.0.0.1";

    private Defaults() {
    }

    /** The body size a command sends when its scenario gives none: bench.update's 32, one byte a datagram, 64. */
    static SizeRange bodySize(Command command) {
        return SizeRange.of(switch (command) {
            case RPC, REGISTER -> 32;
            case UDP_STREAM -> 1;
            default -> 64;
        });
    }

    static Scenario.Builder of(Command command) {
        Scenario.Builder b = new Scenario.Builder();
        b.command = command;
        b.transport = command == Command.UDP_STREAM ? Protocol.UDP : Protocol.TCP;
        b.lengthField = command == Command.SWEEP ? LengthField.FOUR : LengthField.TWO;
        b.connections = switch (command) {
            case RR, CRR, SWEEP -> 1;
            case MASSIVE -> 10_000;
            case RPC -> 50;
            default -> 10;
        };
        b.connectRate = command == Command.MASSIVE ? 2_000 : 0;
        b.perConnectionRate = command == Command.MASSIVE ? 0.04 : 0;
        b.pipeline = command == Command.RAMP ? 16 : 1;
        b.inFlight = 1;
        b.sourceAddresses = List.of();
        b.duration = Duration.ofSeconds(10);
        b.requests = switch (command) {
            case RPC -> 200_000;
            case REGISTER -> 10_000;
            default -> 0;
        };
        b.timeout = switch (command) {
            case RPC, REGISTER -> Duration.ofSeconds(10);
            case SWEEP -> Duration.ofSeconds(30);
            default -> Duration.ofSeconds(5);
        };
        b.interval = Duration.ofSeconds(1);
        b.seed = 1;
        b.workload = WorkloadSettings.generated(null);
        b.tls = TlsSettings.OFF;
        b.noise = NoiseSettings.OFF;
        b.io = TransportKind.AUTO;
        b.ioThreads = 1;
        b.serverIoThreads = 1;
        b.thresholds = List.of();
        b.scrape = List.of();
        b.metricsHost = METRICS_HOST;
        b.ramp = command == Command.RAMP ? RampSettings.DEFAULTS : null;
        b.sweep = command == Command.SWEEP ? SweepSettings.DEFAULTS : null;
        b.udpStream = command == Command.UDP_STREAM ? UdpStreamSettings.DEFAULTS : null;
        return b;
    }
}
