package io.ricochet.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;

/** The meters of one transport ({@code tcp} or {@code udp}), registered once and shared by its connections. */
public final class TransportMeters {
    private final Counter opened;
    private final Counter framesReceived;
    private final Counter framesSent;
    private final Counter bytesReceived;
    private final Counter bytesSent;
    private final Counter acceptErrors;
    private final Counter droppedAtSessionLimit;
    private final Counter[] closed = new Counter[CloseReason.values().length];
    private final Counter[] protocolErrors = new Counter[ProtocolErrorKind.values().length];

    private TransportMeters(MeterRegistry registry, String transport, Supplier<Number> active) {
        Gauge.builder(MeterNames.CONNECTIONS_ACTIVE, active)
                .description("Open connections (tcp) or live sessions (udp)")
                .tag(MeterNames.TAG_TRANSPORT, transport)
                .register(registry);
        opened = counter(registry, MeterNames.CONNECTIONS_OPENED, transport, "Connections accepted or sessions started");
        framesReceived = counter(registry, MeterNames.FRAMES_RECEIVED, transport, "Complete valid frames received");
        framesSent = counter(registry, MeterNames.FRAMES_SENT, transport, "Frames written");
        bytesReceived = counter(registry, MeterNames.BYTES_RECEIVED, transport, "Bytes received");
        bytesSent = counter(registry, MeterNames.BYTES_SENT, transport, "Bytes of frames written");
        acceptErrors = counter(registry, MeterNames.ACCEPT_ERRORS, transport,
                "Failed accepts (descriptors exhausted, say); each pauses accepting for a second");
        droppedAtSessionLimit = Counter.builder(MeterNames.DATAGRAMS_DROPPED)
                .description("Valid datagrams dropped without reply, by reason")
                .tag(MeterNames.TAG_TRANSPORT, transport)
                .tag(MeterNames.TAG_REASON, "session_limit")
                .register(registry);
        for (CloseReason reason : CloseReason.values()) {
            closed[reason.ordinal()] = Counter.builder(MeterNames.CONNECTIONS_CLOSED)
                    .description("Connections or sessions ended, by reason")
                    .tag(MeterNames.TAG_TRANSPORT, transport)
                    .tag(MeterNames.TAG_REASON, reason.tag())
                    .register(registry);
        }
        for (ProtocolErrorKind kind : ProtocolErrorKind.values()) {
            protocolErrors[kind.ordinal()] = Counter.builder(MeterNames.PROTOCOL_ERRORS)
                    .description("Malformed input, by kind")
                    .tag(MeterNames.TAG_TRANSPORT, transport)
                    .tag(MeterNames.TAG_KIND, kind.tag())
                    .register(registry);
        }
    }

    /** Registers the meters; {@code active} is read whenever the gauge is sampled and must stay reachable. */
    public static TransportMeters register(MeterRegistry registry, String transport, Supplier<Number> active) {
        return new TransportMeters(registry, transport, active);
    }

    private static Counter counter(MeterRegistry registry, String name, String transport, String description) {
        return Counter.builder(name).description(description).tag(MeterNames.TAG_TRANSPORT, transport).register(registry);
    }

    public void opened() {
        opened.increment();
    }

    public void acceptError() {
        acceptErrors.increment();
    }

    /** A datagram from a new peer, dropped because every session place is taken. */
    public void droppedAtSessionLimit() {
        droppedAtSessionLimit.increment();
    }

    public void closed(CloseReason reason) {
        closed[reason.ordinal()].increment();
    }

    public void protocolErrors(ProtocolErrorKind kind, long count) {
        protocolErrors[kind.ordinal()].increment(count);
    }

    void traffic(long framesIn, long bytesIn, long framesOut, long bytesOut) {
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
}
