package io.ricochet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** k8s/base/echo-server/deployment.yaml: its args parse with the echo server's own CLI, and its ports are the flags'. */
class EchoServerManifestTest {

    @Test
    void containerPortsProbesAndScrapeAnnotationsMatchTheFlags() throws Exception {
        Deployment deployment;
        try (InputStream in = Files.newInputStream(Path.of("..", "k8s", "base", "echo-server", "deployment.yaml"))) {
            deployment = assertInstanceOf(Deployment.class, Serialization.unmarshal(in));
        }
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        EchoServerCommand command = new EchoServerCommand(new SignalShutdown());
        EchoServerMain.newCommandLine(command).parseArgs(container.getArgs().toArray(String[]::new));
        assertEquals("0.0.0.0", command.host);
        assertEquals(Map.of("tcp/TCP", command.tcpPort, "udp/UDP", command.udpPort, "rpc/TCP", command.rpc.port,
                "metrics/TCP", command.metrics.port), ports(container.getPorts()));
        assertEquals(command.metrics.port, port(container, container.getReadinessProbe().getHttpGet().getPort().getStrVal()));
        assertEquals("/health", container.getReadinessProbe().getHttpGet().getPath());
        assertEquals("/health", container.getLivenessProbe().getHttpGet().getPath());
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();
        assertEquals(Integer.toString(command.metrics.port), annotations.get("prometheus.io/port"));
        assertEquals("/metrics", annotations.get("prometheus.io/path"));
        assertEquals("/health", container.getStartupProbe().getHttpGet().getPath());
        assertEquals(command.metrics.port, port(container, container.getStartupProbe().getHttpGet().getPort().getStrVal()));
        // Heap 40% of the memory limit and direct memory as much (the JVM's cap when none is given): 20% left for the
        // rest. Netty's native libraries load from the image's read-only /app/native, not from /tmp; the classes from
        // the image's class-data archive of this jar.
        assertEquals(List.of("java", "-XX:+UseParallelGC", "-XX:MaxRAMPercentage=40", "-Djava.library.path=/app/native",
                "-XX:SharedArchiveFile=/app/cds/echo-server.jsa", "-Xlog:disable", "-Xlog:all=warning:stderr",
                "-jar", "/app/echo-server.jar"), container.getCommand());
        assertEquals("/tmp", container.getVolumeMounts().stream().filter(m -> deployment.getSpec().getTemplate().getSpec()
                .getVolumes().stream().anyMatch(v -> v.getName().equals(m.getName()) && v.getEmptyDir() != null))
                .findFirst().orElseThrow().getMountPath());
    }

    private static Map<String, Integer> ports(List<ContainerPort> ports) {
        return ports.stream().collect(java.util.stream.Collectors.toMap(p -> p.getName() + "/" + p.getProtocol(),
                ContainerPort::getContainerPort));
    }

    private static int port(Container container, String name) {
        return container.getPorts().stream().filter(p -> p.getName().equals(name)).findFirst().orElseThrow().getContainerPort();
    }
}
