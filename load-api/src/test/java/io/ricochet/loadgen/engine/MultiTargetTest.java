package io.ricochet.loadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.loadgen.payload.Expectation;
import io.ricochet.loadgen.payload.PayloadWorkload;
import io.ricochet.metrics.MeterNames;
import io.ricochet.transport.server.RicochetServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One load over several servers: connections dealt round-robin, each (source, target) pair an equal share. */
@Timeout(60)
class MultiTargetTest {

    @Test
    void connectionsAreDealtRoundRobinOverEveryTarget() throws Exception {
        List<RicochetServer> servers = new ArrayList<>();
        List<SimpleMeterRegistry> registries = new ArrayList<>();
        try {
            List<InetSocketAddress> addresses = startEchoServers(3, servers, registries);
            LoadSpec spec = LoadSpec.builder(new Targets(addresses)).connections(6).pipeline(2)
                    .sourceAddresses(List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3")))
                    .timeout(Duration.ofSeconds(10)).build();
            try (HeldConnections load = new HeldConnections(spec, PayloadWorkload.generated(1, 64, 64, Expectation.reversed()))) {
                load.start();
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> load.openConnections() == 6
                        && load.counts().ok() >= 100);
                for (SimpleMeterRegistry registry : registries) {
                    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> active(registry) == 2);
                }
                load.stopSending();
                load.drain(Duration.ofSeconds(5));
                assertEquals(0, load.counts().bad(), "every reply verified");
                assertEquals(0, load.stats.connectFailures.sum());
            }
        } finally {
            servers.forEach(RicochetServer::close);
        }
    }

    @Test
    void connectsPerRequestGoRoundEveryTarget() throws Exception {
        List<RicochetServer> servers = new ArrayList<>();
        List<SimpleMeterRegistry> registries = new ArrayList<>();
        try {
            List<InetSocketAddress> addresses = startEchoServers(3, servers, registries);
            // One transaction at a time: every one of them must still reach each server in turn.
            LoadSpec spec = LoadSpec.builder(new Targets(addresses)).connections(1).timeout(Duration.ofSeconds(10))
                    .build();
            try (ConnectionPerRequest load = new ConnectionPerRequest(spec, PayloadWorkload.generated(1, 64, 64, Expectation.reversed()), false)) {
                load.start();
                for (SimpleMeterRegistry registry : registries) {
                    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> opened(registry) >= 2);
                }
                load.stopSending();
                load.drain(Duration.ofSeconds(5));
                assertEquals(0, load.counts().bad(), "every reply verified");
            }
        } finally {
            servers.forEach(RicochetServer::close);
        }
    }

    @Test
    void aWorkersShareContinuesTheRoundsOfTheWorkersBeforeIt() {
        Targets targets = Targets.parse("127.0.0.1:7000-7007");
        LoadSpec second = LoadSpec.builder(targets).connections(4).firstConnection(4).build();
        assertEquals(7004, second.target(0).getPort());
        assertEquals(7007, second.target(3).getPort());
    }

    @Test
    void everySourceTargetPairCarriesAnEqualShare() throws Exception {
        Targets targets = Targets.parse("127.0.0.1:7000-7002");
        LoadSpec spec = LoadSpec.builder(targets).connections(12)
                .sourceAddresses(List.of(InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3")))
                .build();
        Map<String, Integer> pairs = new HashMap<>();
        for (long id = 0; id < 12; id++) {
            pairs.merge(spec.source(id).getAddress().getHostAddress() + ">" + spec.target(id).getPort(), 1,
                    Integer::sum);
        }
        assertEquals(6, pairs.size(), pairs.toString());
        assertTrue(pairs.values().stream().allMatch(n -> n == 2), pairs.toString());
    }

    /** Starts {@code n} echo servers on ephemeral loopback ports, adding each and its meters to the lists. */
    private static List<InetSocketAddress> startEchoServers(int n, List<RicochetServer> servers,
            List<SimpleMeterRegistry> registries) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            RicochetServer server = RicochetServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0)
                    .transport(TransportKind.NIO).ioThreads(1).build()).handler(new ReverseEchoHandler())
                    .meterRegistry(registry).build().startAndAwait();
            servers.add(server);
            registries.add(registry);
            addresses.add(server.tcpAddress());
        }
        return addresses;
    }

    private static double opened(SimpleMeterRegistry registry) {
        var counter = registry.find(MeterNames.CONNECTIONS_OPENED).counter();
        return counter == null ? -1 : counter.count();
    }

    private static double active(SimpleMeterRegistry registry) {
        var gauge = registry.find(MeterNames.CONNECTIONS_ACTIVE).gauge();
        return gauge == null ? -1 : gauge.value();
    }
}
