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

    public static ConnectionStats tcpStats(MeterRegistry registry) {
        return new ConnectionStats(TransportMeters.register(registry, "tcp", () -> 0));
    }

    public static ConnectionStats tcpStats() {
        return tcpStats(new SimpleMeterRegistry());
    }

    /** Sum of the counter {@code name} over every series whose tags include {@code tags} (key, value, ...). */
    public static double count(MeterRegistry registry, String name, String... tags) {
        Search search = registry.find(name);
        if (tags.length > 0) {
            search = search.tags(tags);
        }
        return search.counters().stream().mapToDouble(Counter::count).sum();
    }

    public static double closed(MeterRegistry registry, String transport, String reason) {
        return count(registry, MeterNames.CONNECTIONS_CLOSED, MeterNames.TAG_TRANSPORT, transport,
                MeterNames.TAG_REASON, reason);
    }

    public static double protocolErrors(MeterRegistry registry, String transport, String kind) {
        return count(registry, MeterNames.PROTOCOL_ERRORS, MeterNames.TAG_TRANSPORT, transport,
                MeterNames.TAG_KIND, kind);
    }
}
