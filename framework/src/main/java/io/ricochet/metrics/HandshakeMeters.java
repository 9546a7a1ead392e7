package io.ricochet.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The Noise handshake meters of one listener, tagged as its {@link TransportMeters} are: handshakes in progress
 * (a gauge) and handshakes shed, by reason. {@link #close} removes them.
 */
public final class HandshakeMeters implements HandshakeCounters, AutoCloseable {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Counter[] shed = new Counter[HandshakeShedReason.values().length];

    private HandshakeMeters(MeterRegistry registry, Tags tags, Supplier<Number> inProgress) {
        this.registry = registry;
        meters.add(Gauge.builder(MeterNames.NOISE_HANDSHAKES_IN_PROGRESS, inProgress)
                .description("Noise handshakes in progress: first message received, answer not yet made").tags(tags)
                .register(registry));
        for (HandshakeShedReason reason : HandshakeShedReason.values()) {
            shed[reason.ordinal()] = Counter.builder(MeterNames.NOISE_HANDSHAKES_SHED)
                    .description("Noise handshakes refused before any key agreement, their connections closed, by reason")
                    .tags(tags.and(MeterNames.TAG_REASON, reason.tag())).register(registry);
            meters.add(shed[reason.ordinal()]);
        }
    }

    /** Registers the meters of the server listener {@code name}; {@code inProgress} is sampled until {@link #close}. */
    public static HandshakeMeters register(MeterRegistry registry, String name, String protocol, String io,
            Supplier<Number> inProgress) {
        Tags tags = Tags.of(MeterNames.TAG_NAME, name, MeterNames.TAG_PROTOCOL, protocol, MeterNames.TAG_ROLE, "server",
                MeterNames.TAG_IO, io);
        return new HandshakeMeters(registry, tags, inProgress);
    }

    @Override
    public void shed(HandshakeShedReason reason) {
        shed[reason.ordinal()].increment();
    }

    @Override
    public void close() {
        for (Meter meter : meters) {
            registry.remove(meter);
        }
    }
}
