package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.LengthField;
import io.ricochet.transport.Protocol;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The shape of one request stream, shared by the echo-style commands. */
final class LoadOptions {
    @Option(names = "--transport", defaultValue = "tcp", converter = Converters.ProtocolConverter.class,
            description = "tcp, udp or quic (each connection a QUIC connection with one stream, TLS 1.3 trusting "
                    + "--tls-ca or --insecure; default: ${DEFAULT-VALUE}).")
    Protocol protocol;

    @Option(names = "--size", defaultValue = "64", converter = Converters.SizeConverter.class,
            description = "Body bytes, N or MIN..MAX; k and M count 1024s: 4k, 1MB, 1k..4k (default: ${DEFAULT-VALUE}).")
    Converters.SizeRange size;

    @Option(names = "--length-field", defaultValue = "2", description = "2 or 4 (default: ${DEFAULT-VALUE}).")
    int lengthField;

    @Option(names = "--duration", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "Measured time, e.g. 30s, 1m30s (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", converter = ValueConverters.DurationConverter.class,
            description = "Load before measuring, not counted (default: 2s in open loop, so the JVM's start-up is not "
                    + "in the corrected latency; 0s in closed loop, and for ramp's steps, which --warmup-step precedes).")
    Duration warmup;

    /** The warmup an open-loop run gets unless told: wrk2's calibration, for a JVM's start-up and JIT compilation. */
    static final Duration OPEN_LOOP_WARMUP = Duration.ofSeconds(2);

    /** {@code --warmup}, or when not given the default of the loop kind. */
    Duration warmup(boolean openLoop) {
        return warmup != null ? warmup : openLoop ? OPEN_LOOP_WARMUP : Duration.ZERO;
    }

    @Option(names = "--timeout", defaultValue = "5s", converter = ValueConverters.DurationConverter.class,
            description = "A reply not back by then is an error (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Shard(Shard.Rule.DEAL_ADDRESSES)
    @Option(names = "--source-addresses", converter = Converters.SourceAddressesConverter.class,
            description = "Local addresses bound round-robin: a,b,c or a range 127.0.0.2-127.0.0.40.")
    Converters.SourceAddresses sourceAddresses = new Converters.SourceAddresses(List.of());

    @Mixin
    FirstConnectionOption firstConnection = new FirstConnectionOption();

    @Mixin
    FrameWorkloadOptions requests = new FrameWorkloadOptions();

    LengthField field() {
        return LengthField.ofWidth(lengthField);
    }
}
