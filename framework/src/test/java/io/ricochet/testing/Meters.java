package io.ricochet.testing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportMeters;

/** Reads Ricochet's meters back in tests. */
public final class Meters {
    private Meters() {
    }

    /** A TCP listener's meters on {@code registry}, once per registry: connections count into them. */
    public static TransportMeters tcpMeters(MeterRegistry registry) {
        return TransportMeters.register(registry, "test", "tcp", "server", "nio", () -> 0);
    }

    public static ConnectionStats tcpStats() {
        return new ConnectionStats(tcpMeters(new SimpleMeterRegistry()));
    }

    /** Sum of the counter {@code name} over every series whose tags include {@code tags} (key, value, ...). */
    public static double count(MeterRegistry registry, String name, String... tags) {
        Search search = registry.find(name);
        if (tags.length > 0) {
            search = search.tags(tags);
        }
        return search.counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Connections of {@code protocol} closed for {@code reason}, over every server on the registry. */
    public static double closed(MeterRegistry registry, String protocol, String reason) {
        return count(registry, MeterNames.CONNECTIONS_CLOSED, MeterNames.TAG_PROTOCOL, protocol,
                MeterNames.TAG_REASON, reason);
    }

    /** Connections of the server or client group {@code name} closed for {@code reason}. */
    public static double closedOf(MeterRegistry registry, String name, String reason) {
        return count(registry, MeterNames.CONNECTIONS_CLOSED, MeterNames.TAG_NAME, name, MeterNames.TAG_REASON, reason);
    }

    public static double protocolErrors(MeterRegistry registry, String protocol, String kind) {
        return count(registry, MeterNames.PROTOCOL_ERRORS, MeterNames.TAG_PROTOCOL, protocol,
                MeterNames.TAG_KIND, kind);
    }
}
