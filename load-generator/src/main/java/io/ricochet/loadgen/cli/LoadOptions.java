package io.ricochet.loadgen.cli;

import io.ricochet.commandline.ValueConverters;
import io.ricochet.config.InvalidValueException;
import io.ricochet.config.LengthField;
import io.ricochet.loadgen.scenario.Scenario;
import io.ricochet.loadgen.scenario.SizeRange;
import io.ricochet.transport.Protocol;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
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
    SizeRange size;

    @Option(names = "--length-field", defaultValue = "2",
            description = "Bytes of each frame's length prefix, 2 or 4, as the server's (default: ${DEFAULT-VALUE}, the "
                    + "echo server's); a service with 4-byte lengths needs 4.")
    int lengthField;

    @Option(names = "--duration", defaultValue = "10s", converter = ValueConverters.DurationConverter.class,
            description = "Measured time, e.g. 30s, 1m30s (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", converter = ValueConverters.DurationConverter.class,
            description = "Load before measuring, not counted (default: 2s in open loop, so the JVM's start-up is not "
                    + "in the corrected latency; 0s in closed loop, and for ramp's steps, which --warmup-step precedes).")
    Duration warmup;

    @Option(names = "--timeout", defaultValue = "5s", converter = ValueConverters.DurationConverter.class,
            description = "A reply not back by then is an error (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--source-addresses", converter = Converters.SourceAddressesConverter.class,
            description = "Local addresses bound round-robin: a,b,c or a range 127.0.0.2-127.0.0.40.")
    List<InetAddress> sourceAddresses = List.of();

    @Mixin
    FirstConnectionOption firstConnection = new FirstConnectionOption();

    @Mixin
    FrameWorkloadOptions requests = new FrameWorkloadOptions();

    /** Sets on {@code b} what the flags among these that were {@code given} say. */
    void applyTo(Scenario.Builder b, Predicate<String> given) {
        if (given.test("--transport")) {
            b.transport(protocol);
        }
        if (given.test("--length-field")) {
            b.lengthField(lengthField(lengthField));
        }
        if (given.test("--duration")) {
            b.duration(duration);
        }
        if (given.test("--warmup")) {
            b.warmup(warmup);
        }
        if (given.test("--timeout")) {
            b.timeout(timeout);
        }
        if (given.test("--source-addresses")) {
            b.sourceAddresses(sourceAddresses);
        }
        firstConnection.applyTo(b, given);
        requests.applyTo(b, given, size);
    }

    /** The length field of {@code width} bytes; another width refused by its key, as every scenario value is. */
    static LengthField lengthField(int width) {
        try {
            return LengthField.ofWidth(width);
        } catch (InvalidValueException e) {
            throw new InvalidValueException("length_field", e.value(), e.expected());
        }
    }
}
