package io.ricochet.loadgen.cli;

import static io.ricochet.loadgen.cli.MockCluster.NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
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

    /** The selected Ready pods are scraped at their IPs: here one pod at 127.0.0.1, whose metrics a local server serves. */
    @Test
    void theScrapeSelectorScrapesEveryReadyPodItSelects() throws Exception {
        HttpServer metrics = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        metrics.createContext("/m", exchange -> {
            byte[] body = "process_memory_rss_bytes 1048576.0\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        metrics.start();
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("echo-0")
                .addToLabels("app", "echo").endMetadata().withNewStatus().withPodIP("127.0.0.1")
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(live, true, StandardCharsets.UTF_8));
        Cli.Result r;
        try {
            r = Cli.run("controller", "--workers", "1", "--executor", "kubernetes", "--namespace", NS, "--job-name", "load-s",
                    "--bind", "127.0.0.1", "--advertise", "127.0.0.1", "--start-timeout", "1s",
                    "--scrape-selector", "app=echo", "--scrape-port", Integer.toString(metrics.getAddress().getPort()),
                    "--scrape-path", "/m", "echo", "--target", cluster.target(), "--duration", "1s", "--json");
        } finally {
            System.setErr(original);
            metrics.stop(0);
        }
        String output = live.toString(StandardCharsets.UTF_8);
        assertTrue(output.contains("controller: scraping 1 pod(s) that --scrape-selector app=echo selects in namespace "
                + NS), output);
        JsonNode server = r.json().get("merged").get("server");
        String url = "http://127.0.0.1:" + metrics.getAddress().getPort() + "/m";
        assertEquals(url, server.get("url").asText(), server.toString());
        assertEquals(url, server.get("servers").get(0).get("url").asText(), server.toString());
        assertEquals(1048576, server.get("rss_max_bytes").asLong(), server.toString());
    }
}
