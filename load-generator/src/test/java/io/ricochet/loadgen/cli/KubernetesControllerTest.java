package io.ricochet.loadgen.cli;

import static io.ricochet.loadgen.cli.MockCluster.NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Kubernetes executor against the Fabric8 mock server in CRUD mode, in this JVM only. The run with
 * worker processes is {@link KubernetesControllerIT}.
 */
@Timeout(60)
@EnableKubernetesMockClient(crud = true)
class KubernetesControllerTest {
    KubernetesClient client;
    private MockCluster cluster;

    @BeforeEach
    void pointTheControllerAtTheMockServer() {
        cluster = new MockCluster(client);
    }

    @AfterEach
    void restore() {
        cluster.close();
    }

    @Test
    void workersThatNeverConnectFailTheStartBarrierClearly() {
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(live, true, StandardCharsets.UTF_8));
        Cli.Result r;
        try {
            r = Cli.run("controller", "--workers", "2", "--executor", "kubernetes", "--namespace", NS, "--job-name", "load-2",
                    "--bind", "127.0.0.1", "--advertise", "127.0.0.1", "--start-timeout", "2s",
                    "echo", "--target", cluster.target(), "--duration", "1s", "--json");
        } finally {
            System.setErr(original);
        }
        assertEquals(1, r.exit(), r.err());
        String output = live.toString(StandardCharsets.UTF_8);
        assertTrue(output.contains("start barrier timed out after 2s: workers 0 (never connected), 1 (never connected) not ready"),
                output);
        JsonNode s = r.json();
        assertEquals(0, s.get("merged").get("requests").asLong());
        assertTrue(s.get("problems").get(0).asText().contains("start barrier timed out"));
        assertNull(client.batch().v1().jobs().inNamespace(NS).withName("load-2").get(), "the Job is deleted on exit");
    }
}
