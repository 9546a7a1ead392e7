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
 * The Micrometer meters of one listener or client group, tagged {@code name}, {@code protocol},
 * {@code role} and {@code io}, so several servers (or a server restarted) on one registry count apart.
 * {@link #close} removes them, and with them the gauge's reference to the owner's state.
 */
public final class TransportMeters implements TransportCounters, AutoCloseable {
    private final MeterRegistry registry;
    private final List<Meter> meters = new ArrayList<>();
    private final Counter opened;
    private final Counter framesReceived;
    private final Counter framesSent;
    private final Counter bytesReceived;
    private final Counter bytesSent;
    private final Counter acceptErrors;
    private final Counter droppedAtSessionLimit;
    private final Counter droppedShortInitial;
    private final Counter droppedAtUnvalidatedLimit;
    private final Counter droppedAtAmplificationLimit;
    private final Counter[] closed = new Counter[CloseReason.values().length];
    private final Counter[] protocolErrors = new Counter[ProtocolErrorKind.values().length];

    private TransportMeters(MeterRegistry registry, Tags tags, Supplier<Number> active) {
        this.registry = registry;
        if (registry.find(MeterNames.CONNECTIONS_ACTIVE).tags(tags).gauge() != null) {
            throw new IllegalStateException("meters " + tags + " are already registered on this registry (expected: "
                    + "a name of its own for each server and client on one registry)");
        }
        meters.add(Gauge.builder(MeterNames.CONNECTIONS_ACTIVE, active)
                .description("Open connections (tcp, rpc) or live sessions (udp)").tags(tags).register(registry));
        opened = counter(MeterNames.CONNECTIONS_OPENED, tags, "Connections accepted or made, or sessions started");
        framesReceived = counter(MeterNames.FRAMES_RECEIVED, tags, "Complete valid frames received");
        framesSent = counter(MeterNames.FRAMES_SENT, tags, "Frames written");
        bytesReceived = counter(MeterNames.BYTES_RECEIVED, tags, "Bytes received");
        bytesSent = counter(MeterNames.BYTES_SENT, tags, "Bytes of frames written");
        acceptErrors = counter(MeterNames.ACCEPT_ERRORS, tags,
                "Failed accepts (descriptors exhausted, say); each pauses accepting for a second");
        droppedAtSessionLimit = dropped(tags, "session_limit");
        droppedShortInitial = dropped(tags, "short_initial");
        droppedAtUnvalidatedLimit = dropped(tags, "unvalidated_limit");
        droppedAtAmplificationLimit = dropped(tags, "amplification_limit");
        for (CloseReason reason : CloseReason.values()) {
            closed[reason.ordinal()] = counter(MeterNames.CONNECTIONS_CLOSED, tags.and(MeterNames.TAG_REASON, reason.tag()),
                    "Connections or sessions ended, by reason");
        }
        for (ProtocolErrorKind kind : ProtocolErrorKind.values()) {
            protocolErrors[kind.ordinal()] = counter(MeterNames.PROTOCOL_ERRORS, tags.and(MeterNames.TAG_KIND, kind.tag()),
                    "Malformed input, by kind");
        }
    }

    /**
     * Registers the meters of the listener or client group {@code name}. {@code active} is sampled by the
     * gauge until {@link #close}. Fails if meters with the same tags are registered on {@code registry}.
     */
    public static TransportMeters register(MeterRegistry registry, String name, String protocol, String role, String io,
            Supplier<Number> active) {
        Tags tags = Tags.of(MeterNames.TAG_NAME, name, MeterNames.TAG_PROTOCOL, protocol, MeterNames.TAG_ROLE, role,
                MeterNames.TAG_IO, io);
        // Looking and registering under one lock (RPC meters take it too): two owners registering the same tags
        // at once would otherwise both pass the look, and share, then remove, one set of meters.
        synchronized (registry) {
            return new TransportMeters(registry, tags, active);
        }
    }

    private Counter dropped(Tags tags, String reason) {
        return counter(MeterNames.DATAGRAMS_DROPPED, tags.and(MeterNames.TAG_REASON, reason),
                "Datagrams dropped: received and not answered, or not sent, by reason");
    }

    private Counter counter(String meterName, Tags tags, String description) {
        Counter counter = Counter.builder(meterName).description(description).tags(tags).register(registry);
        meters.add(counter);
        return counter;
    }

    @Override
    public void opened() {
        opened.increment();
    }

    @Override
    public void closed(CloseReason reason) {
        closed[reason.ordinal()].increment();
    }

    @Override
    public void protocolErrors(ProtocolErrorKind kind, long count) {
        protocolErrors[kind.ordinal()].increment(count);
    }

    @Override
    public void traffic(long framesIn, long bytesIn, long framesOut, long bytesOut) {
        if (framesIn != 0) {
            framesReceived.increment(framesIn);
        }
        if (bytesIn != 0) {
            bytesReceived.increment(bytesIn);
        }
        if (framesOut != 0) {
            framesSent.increment(framesOut);
        }
        if (bytesOut != 0) {
            bytesSent.increment(bytesOut);
        }
    }

    @Override
    public void acceptError() {
        acceptErrors.increment();
    }

    @Override
    public void droppedAtSessionLimit() {
        droppedAtSessionLimit.increment();
    }

    @Override
    public void droppedShortInitial() {
        droppedShortInitial.increment();
    }

    @Override
    public void droppedAtUnvalidatedLimit() {
        droppedAtUnvalidatedLimit.increment();
    }

    @Override
    public void droppedAtAmplificationLimit() {
        droppedAtAmplificationLimit.increment();
    }

    /** Removes every meter from the registry. Counting into the removed meters afterwards is harmless. */
    @Override
    public void close() {
        for (Meter meter : meters) {
            registry.remove(meter);
        }
    }
}
