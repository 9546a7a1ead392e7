package io.ricochet.loadgen.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.server.RicochetServer;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * What a controller run on the Fabric8 mock server needs: the system properties that point the controller's
 * client at the mock server (its client is built from the usual configuration, which includes them), and an
 * embedded echo server to target. Closing restores the properties and stops the server.
 */
final class MockCluster implements AutoCloseable {
    static final String NS = "loadtest";

    private final Map<String, String> savedProperties = new HashMap<>();
    private final RicochetServer echo;

    MockCluster(KubernetesClient client) {
        set("kubernetes.master", client.getMasterUrl().toString());
        set("kubernetes.auth.tryKubeConfig", "false");
        set("kubernetes.auth.tryServiceAccount", "false");
        set("kubernetes.trust.certificates", "true");
        set("kubernetes.namespace", NS);
        echo = TestServers.echo(TestServers.config(TransportKind.AUTO).build(), new SimpleMeterRegistry());
    }

    private void set(String key, String value) {
        savedProperties.putIfAbsent(key, System.getProperty(key));
        System.setProperty(key, value);
    }

    /** The echo server's TCP address, as {@code --target} takes it. */
    String target() {
        InetSocketAddress a = echo.tcpAddress();
        return a.getHostString() + ":" + a.getPort();
    }

    @Override
    public void close() {
        savedProperties.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
        echo.close();
    }
}
