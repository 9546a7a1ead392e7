package io.ricochet.transport.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Meters;
import io.ricochet.testing.QuicTestClient;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestCertificates;
import io.ricochet.testing.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Anyone who can send a datagram can start a QUIC handshake. One without Ricochet's ALPN once logged a WARN with a
 * stack trace of about 25 lines, each time: a stranger could flood the server's log. Now each is counted and the
 * listener logs one line at most every 10 s. The log is read where slf4j-simple writes it, on {@code System.err}.
 */
@Timeout(60)
class QuicHandshakeFailureTest {
    private static final int HANDSHAKES = 5;

    @TempDir
    Path dir;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @ParameterizedTest
    @MethodSource("io.ricochet.testing.Transports#available")
    void handshakesWithoutOurAlpnAreCountedAndLoggedInOneLine(TransportKind transport) throws Exception {
        ServerConfig config = TestServers.config(transport).tcpPort(ServerConfig.DISABLED).udpPort(ServerConfig.DISABLED)
                .quicPort(0).build();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream original = System.err;
        try (RicochetServer server = RicochetServer.builder().config(config).handler(new ReverseEcho())
                .quic(TestCertificates.issue(dir).serverQuic()).meterRegistry(registry).build().startAndAwait()) {
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            // At once, well within the log's interval: a refused client takes seconds to give up (its draining period).
            List<CompletableFuture<Void>> refused = new ArrayList<>();
            for (int i = 0; i < HANDSHAKES; i++) {
                refused.add(CompletableFuture.runAsync(() -> assertThrows(ExecutionException.class,
                        () -> QuicTestClient.connect(server.quicAddress(), "h3").close())));
            }
            CompletableFuture.allOf(refused.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> server.activeQuicConnections() == 0);
            System.setErr(original);
            String text = log.toString(StandardCharsets.UTF_8);
            List<String> warnings = text.lines().filter(line -> line.contains(" WARN ")).toList();
            assertEquals(1, warnings.size(), text);
            assertTrue(warnings.get(0).contains("quic: connection from /127.0.0.1:") && warnings.get(0).contains(
                    "failed its handshake: javax.net.ssl.SSLHandshakeException") && warnings.get(0).contains(
                    "NO_APPLICATION_PROTOCOL"), warnings.get(0));
            assertTrue(text.lines().noneMatch(line -> line.startsWith("\tat ") || line.startsWith("Caused by")),
                    "no stack trace: " + text);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Meters.protocolErrors(registry, "quic", "tls") == HANDSHAKES);
        } finally {
            System.setErr(original);
        }
    }
}
