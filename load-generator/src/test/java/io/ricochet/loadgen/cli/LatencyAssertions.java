package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Checks on a printed latency summary that hold however loaded the machine is: no bound on how long
 * anything took, only what any honest histogram of the run must satisfy.
 */
final class LatencyAssertions {
    private static final String[] IN_ORDER = {"min", "p50", "p90", "p99", "p999", "max"};

    private LatencyAssertions() {
    }

    /** One value per {@code count} reply, every percentile present and positive, in order from min to max. */
    static void assertWellFormed(JsonNode latency, long count) {
        assertEquals(count, latency.get("count").asLong(), "one latency per verified reply: " + latency);
        long previous = 1; // 1 µs, the histograms' lowest value
        for (String field : IN_ORDER) {
            assertTrue(latency.hasNonNull(field), field + " missing: " + latency);
            long value = latency.get(field).asLong();
            assertTrue(value >= previous, field + " " + value + " below the one before it (" + previous + "): " + latency);
            previous = value;
        }
        double mean = latency.get("mean").asDouble();
        assertTrue(mean >= latency.get("min").asLong() && mean <= latency.get("max").asLong(), "mean within min..max: " + latency);
    }

    /**
     * Open loop: each reply's latency from its intended send is at least that from its actual send (a request is
     * never sent early), so at every percentile the corrected histogram is at least the service one.
     */
    static void assertCorrectedAtLeastService(JsonNode corrected, JsonNode service) {
        assertEquals(corrected.get("count").asLong(), service.get("count").asLong(), "both record every verified reply");
        for (String field : IN_ORDER) {
            assertTrue(corrected.get(field).asLong() >= service.get(field).asLong(),
                    field + ": corrected " + corrected + " below service " + service);
        }
    }
}
