package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class KubernetesExecutorTest {

    /** Observed: no cluster meant 42 s of retries, then "An error has occurred.". Now the cause, at once. */
    @Test
    void anUnreachableApiServerFailsTheLaunchNamingItAndTheCause() {
        Config unreachable = new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0)
                .withNamespace("ricochet").build();
        try (KubernetesExecutor executor = new KubernetesExecutor(new KubernetesSettings("ricochet", "job", "image", 1,
                60, "1", "1Gi", "test", false), () -> new KubernetesClientBuilder().withConfig(unreachable).build())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> executor.launch(new InetSocketAddress("127.0.0.1", 7200), "secret"));
            assertTrue(e.getMessage().startsWith(
                    "cannot start the workers' Job through the Kubernetes API at https://127.0.0.1:1"), e.getMessage());
            assertTrue(e.getMessage().contains("ConnectException"), e.getMessage());
        }
    }
}
