package io.ricochet.metrics;

import static io.ricochet.metrics.RawHttpConnection.httpGet;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.config.InvalidValueException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The metrics endpoint's connection cap against a peer that opens connections and sends nothing: 140 such sockets
 * once made every {@code /health} fail for the idle timeout, renewable forever, and {@code /health} is the echo
 * server's liveness probe. A new connection now displaces the longest-idle one, and one source address holds at most
 * its own share. Peers on other addresses are 127.x.y.z, all loopback on Linux.
 */
@Timeout(30)
class MetricsEndpointCapTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** What the issue saw: more than the default cap of 128. */
    private static final int IDLE_FLOOD = 140;
    private static final String EVICTED = "ricochet.metrics.connections.evicted";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final List<RawHttpConnection> opened = new ArrayList<>();

    private static InetAddress loopback(int last) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
    }

    private RawHttpConnection open(MetricsEndpoint endpoint, InetAddress from) throws IOException {
        RawHttpConnection connection = RawHttpConnection.open(endpoint.address(), from);
        opened.add(connection);
        return connection;
    }

    private static void assertHealthy(RawHttpConnection connection) throws IOException {
        connection.send(httpGet("/health"));
        assertEquals(200, connection.readResponse().status());
    }

    private double evicted(String reason) {
        return registry.get(EVICTED).tag(MeterNames.TAG_REASON, reason).functionCounter().count();
    }

    private void closeAll() {
        for (RawHttpConnection connection : opened) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // Closing a test socket: nothing to do.
            }
        }
    }

    @ParameterizedTest(name = "from {0} address(es)")
    @ValueSource(ints = {1, 20})
    void idleSocketsPastTheCapCannotStopHealth(int sources) throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            for (int i = 0; i < IDLE_FLOOD; i++) {
                open(endpoint, loopback(2 + i % sources));
            }
            // As a liveness probe asks: a new connection each time, from an address of its own and from the flood's.
            for (int i = 0; i < 5; i++) {
                try (RawHttpConnection probe = RawHttpConnection.open(endpoint.address(), loopback(1))) {
                    assertHealthy(probe);
                }
                try (RawHttpConnection probe = RawHttpConnection.open(endpoint.address(), loopback(2))) {
                    assertHealthy(probe);
                }
            }
            assertTrue(endpoint.openConnections() <= MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS,
                    endpoint.openConnections() + " open");
        } finally {
            closeAll();
        }
    }

    @Test
    void aFullEndpointClosesItsLongestIdleConnectionForANewOne() throws Exception {
        MetricsEndpointConfig config = MetricsEndpointConfig.DEFAULTS.withMaxConnections(3);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry, config)) {
            RawHttpConnection first = open(endpoint, loopback(1));
            RawHttpConnection second = open(endpoint, loopback(1));
            RawHttpConnection third = open(endpoint, loopback(1));
            // The first is active again, so the second is now the longest idle.
            assertHealthy(first);

            RawHttpConnection fourth = open(endpoint, loopback(1));
            assertHealthy(fourth);
            second.awaitClosedByServer();
            assertHealthy(first);
            assertHealthy(third);
            assertEquals(3, endpoint.openConnections());
            assertEquals(1.0, evicted("max_connections"));
            assertTrue(registry.scrape().contains("ricochet_metrics_connections_evicted_total{reason=\"max_connections\"} 1.0"),
                    registry.scrape());
        } finally {
            closeAll();
        }
    }

    @Test
    void anAddressPastItsShareDisplacesOnlyItsOwnLongestIdleConnection() throws Exception {
        int share = MetricsEndpointConfig.DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
        try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            RawHttpConnection other = open(endpoint, loopback(1));
            List<RawHttpConnection> peer = new ArrayList<>();
            for (int i = 0; i < share; i++) {
                peer.add(open(endpoint, loopback(2)));
            }
            RawHttpConnection oneMore = open(endpoint, loopback(2));
            assertHealthy(oneMore);
            peer.get(0).awaitClosedByServer();
            assertHealthy(other);
            assertHealthy(peer.get(1));
            await().atMost(WAIT).until(() -> endpoint.openConnections() == share + 1);
            assertEquals(1.0, evicted("max_connections_per_address"));
            assertEquals(0.0, evicted("max_connections"));
        } finally {
            closeAll();
        }
    }

    @Test
    void theCapsAreValidated() {
        InvalidValueException e = assertThrows(InvalidValueException.class,
                () -> MetricsEndpointConfig.DEFAULTS.withMaxConnectionsPerAddress(0));
        assertEquals("maxConnectionsPerAddress: 0 (expected: > 0)", e.getMessage());
        e = assertThrows(InvalidValueException.class, () -> MetricsEndpointConfig.DEFAULTS.withMaxConnections(-1));
        assertEquals("maxConnections: -1 (expected: > 0)", e.getMessage());
    }

    @Test
    void theCountersLeaveTheRegistryWithTheEndpoint() {
        MetricsEndpoint.start("127.0.0.1", 0, registry).close();
        assertEquals(null, registry.find(EVICTED).meter());
    }
}
