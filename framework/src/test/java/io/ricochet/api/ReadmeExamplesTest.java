package io.ricochet.api;

// readme:imports
import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.metrics.MetricsEndpoint;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcMethod;
import io.ricochet.rpc.RpcService;
import io.ricochet.transport.session.FrameHandler;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import java.time.Duration;
// end

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.testing.FrameClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's embedding examples, run: each is the README's code block, word for word, between the
 * markers below, with lines ending in {@code // test-only} added to check what it does.
 */
@Timeout(30)
class ReadmeExamplesTest {
    private static final Path README = Path.of("../README.md");
    private static final Path SOURCE = Path.of("src/test/java/io/ricochet/api/ReadmeExamplesTest.java");

    @Test
    void aTcpServerWithItsOwnHandler() throws Exception {
        // readme:tcp
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        FrameHandler upperCase = (session, body) -> {          // runs on the event loop; owns body
            for (int i = body.readerIndex(); i < body.writerIndex(); i++) {
                body.setByte(i, Character.toUpperCase(body.getByte(i)));
            }
            session.send(body);                                // framed in place, flushed per read batch
        };
        Listener tcp = Listener.tcp(0);                        // 0: an ephemeral port
        try (RicochetServer server = RicochetServer.builder()
                .config(ServerConfig.builder().host("127.0.0.1")
                        .lengthField(LengthField.FOUR).idleTimeout(Duration.ofSeconds(60)).build())
                .handler(upperCase)
                .listen(tcp)
                .meterRegistry(registry)
                .build()
                .startAndAwait();
             MetricsEndpoint metrics = MetricsEndpoint.start("127.0.0.1", 0, registry)) {
            System.out.println("tcp on " + server.address(tcp) + ", metrics at " + metrics.metricsUrl());
            talkTo(server.address(tcp), metrics); // test-only
            // Serve until stopped: server.stop() (close() waits for it) drains what is owed, then closes.
        }
        // end
    }

    private static void talkTo(InetSocketAddress server, MetricsEndpoint metrics) throws Exception {
        try (FrameClient client = new FrameClient(server, 4)) {
            client.send("hello".getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals("HELLO".getBytes(StandardCharsets.US_ASCII), client.receive());
        }
        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(metrics.metricsUrl())).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(scrape.contains("ricochet_frames_received_total{"), scrape);
    }

    @Test
    void anRpcServiceWithATypedMethod() {
        // readme:rpc
        MethodDescriptor<StringValue, Int64Value> length = MethodDescriptor.of("text.length",
                StringValue.getDefaultInstance(), Int64Value.getDefaultInstance());
        RpcDispatcher methods = new RpcDispatcher();
        methods.register(length, RpcMethod.sync(text -> Int64Value.of(text.getValue().length())));
        RpcService rpc = RpcService.builder().dispatcher(methods).build();
        Listener rpcPort = rpc.listener(0);                    // beside any other listener of the server
        try (RicochetServer server = RicochetServer.builder()
                .config(ServerConfig.builder().host("127.0.0.1").build())
                .listen(rpcPort)
                .build()
                .startAndAwait();
             RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            RpcClient client = clients.connect(server.address(rpcPort)).join();
            long answer = client.call(length, StringValue.of("hello")).join().getValue();   // 5
            assertEquals(5, answer); // test-only
        }
        // end
    }

    @Test
    void theReadmeShowsExactlyTheseExamples() throws IOException {
        List<String> blocks = javaBlocks(Files.readString(README));
        assertTrue(blocks.contains(example("tcp")), "README's TCP example differs from:\n" + example("tcp"));
        assertTrue(blocks.contains(example("rpc")), "README's RPC example differs from:\n" + example("rpc"));
        assertTrue(blocks.contains(example("imports")), "README's imports differ from:\n" + example("imports"));
    }

    private static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        int at = 0;
        while ((at = markdown.indexOf("```java\n", at)) >= 0) {
            int end = markdown.indexOf("```", at + 8);
            blocks.add(markdown.substring(at + 8, end));
            at = end + 3;
        }
        return blocks;
    }

    /** The code between {@code // readme:NAME} and {@code // end}, test-only lines dropped, indentation removed. */
    private static String example(String name) throws IOException {
        List<String> lines = Files.readAllLines(SOURCE);
        int start = lines.indexOf(lines.stream().filter(l -> l.strip().equals("// readme:" + name)).findFirst().orElseThrow());
        StringBuilder code = new StringBuilder();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.strip().equals("// end")) {
                break;
            }
            if (!line.endsWith("// test-only")) {
                code.append(line.startsWith("        ") ? line.substring(8) : line.strip()).append('\n');
            }
        }
        return code.toString();
    }
}
