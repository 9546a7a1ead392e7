package io.ricochet.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.Supplier;

/**
 * The TLS handshake gauges of one listener, tagged as its {@link TransportMeters} are: handshakes in progress, and
 * connections waiting for their source's turn. {@link #close} removes them.
 *
 * <pre>{@code
 * TlsHandshakeMeters meters = TlsHandshakeMeters.register(registry, "tls", "tls", "epoll", handoff::handshaking,
 *         handoff::waiting);
 * }</pre>
 */
public final class TlsHandshakeMeters implements AutoCloseable {
    private final MeterRegistry registry;
    private final List<Gauge> gauges;

    private TlsHandshakeMeters(MeterRegistry registry, List<Gauge> gauges) {
        this.registry = registry;
        this.gauges = gauges;
    }

    /** Registers the gauges of the server listener {@code name}, sampled until {@link #close}. */
    public static TlsHandshakeMeters register(MeterRegistry registry, String name, String protocol, String io,
            Supplier<Number> inProgress, Supplier<Number> waiting) {
        Tags tags = Tags.of(MeterNames.TAG_NAME, name, MeterNames.TAG_PROTOCOL, protocol, MeterNames.TAG_ROLE, "server",
                MeterNames.TAG_IO, io);
        return new TlsHandshakeMeters(registry, List.of(
                Gauge.builder(MeterNames.TLS_HANDSHAKES_IN_PROGRESS, inProgress)
                        .description("TLS handshakes in progress on the listener's handshake loops").tags(tags)
                        .register(registry),
                Gauge.builder(MeterNames.TLS_HANDSHAKES_WAITING, waiting)
                        .description("TLS connections waiting for their source address's turn to handshake").tags(tags)
                        .register(registry)));
    }

    @Override
    public void close() {
        gauges.forEach(registry::remove);
    }
}
