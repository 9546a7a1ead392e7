package io.ricochet.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.echo.rpc.BenchMethods;
import io.ricochet.echo.rpc.proto.BenchMessage;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.NoiseMode;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcStatus;
import io.ricochet.testing.FrameClient;
import io.ricochet.testing.Frames;
import io.ricochet.testing.QuicTestClient;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.DevCertificates;
import io.ricochet.tls.Tls;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.client.FrameClient.FrameExchange;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class EchoServerCliTest {

    @Test
    void printsListeningLinesServesAndExitsZeroOnSigterm() throws Exception {
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "0",
                "--rpc-port", "0", "--metrics-port", "0", "--idle-timeout", "5s")) {
            InetSocketAddress tcp = server.awaitListening("tcp");
            InetSocketAddress udp = server.awaitListening("udp");
            InetSocketAddress rpc = server.awaitListening("rpc");
            InetSocketAddress metrics = server.awaitListening("metrics");
            assertEquals(List.of("listening tcp 127.0.0.1:" + tcp.getPort(), "listening udp 127.0.0.1:" + udp.getPort(),
                    "listening rpc 127.0.0.1:" + rpc.getPort(),
                    "listening metrics http://127.0.0.1:" + metrics.getPort() + "/metrics"), server.stdoutLines());

            try (FrameClient client = new FrameClient(tcp, 2)) {
                client.send(new byte[] {1, 2, 3});
                assertArrayEquals(new byte[] {3, 2, 1}, client.receive());
            }
            try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
                socket.setSoTimeout(5000);
                byte[] datagram = Frames.encode(2, new byte[] {4, 5});
                socket.send(new DatagramPacket(datagram, datagram.length, udp));
                DatagramPacket reply = new DatagramPacket(new byte[100], 100);
                socket.receive(reply);
                assertArrayEquals(Frames.encode(2, new byte[] {5, 4}), Arrays.copyOf(reply.getData(), reply.getLength()));
            }
            try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), new SimpleMeterRegistry())) {
                RpcClient client = clients.connect(rpc).get(10, TimeUnit.SECONDS);
                BenchMessage sent = BenchMessage.newBuilder().setClientId(7).setSequence(9)
                        .setBody(ByteString.copyFromUtf8("body")).build();
                BenchMessage answer = BenchMessage.parseFrom(
                        client.call(BenchMethods.UPDATE, sent.toByteString()).get(10, TimeUnit.SECONDS));
                assertEquals(1, answer.getServerSequence());
                assertTrue(answer.getServerReceiveTimeMicros() > 0);
                assertEquals(sent, answer.toBuilder().clearServerSequence().clearServerReceiveTimeMicros().build());
                assertEquals("olleh", client.call(BenchMethods.REVERSE, ByteString.copyFromUtf8("hello"))
                        .get(10, TimeUnit.SECONDS).toStringUtf8());
            }
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.getPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(framesSent(scrape.body(), "echo", "tcp") == 1.0);
            assertTrue(framesSent(scrape.body(), "echo", "udp") == 1.0);
            // The two answers, after the answer to the ping a client sends as it connects (docs/rpc.md, "Version skew").
            assertTrue(framesSent(scrape.body(), "rpc", "rpc") == 3.0, scrape.body());
            assertTrue(scrape.body().contains(
                    "ricochet_rpc_server_requests_seconds_count{method=\"bench.update\",name=\"rpc\",status=\"OK\"} 1"), scrape.body());

            assertEquals(0, server.terminate(), server.stderr());
            assertTrue(server.stderr().contains("shut down"), server.stderr());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "--length-field=3", "--idle-timeout=soon", "--transport=dpdk", "--max-frame=0",
        "--tcp-port=70000", "--max-connections=-5", "--metrics-port=-7", "--tls-port=0", "--tls-cert=/nonexistent",
        "--tls-port=0 --tls-cert=/nonexistent --tls-key=/nonexistent", "--tls-provider=gnutls --tls-port=0", "--rpc-token-file=/nonexistent",
        "--noise-port=0 --noise-key=/nonexistent", "--noise-generate-key --noise-port=0", "--noise-key=/tmp/k",
        "--quic-port=0", "--quic-port=70000", "--quic-retry"})
    void aBadFlagGivesOneLineAndExitTwo(String flag) throws Exception {
        try (EchoServerProcess server = EchoServerProcess.start(flag.split(" "))) {
            assertEquals(2, server.awaitExit());
            String[] lines = server.stderr().strip().split("\n");
            assertEquals(1, lines.length, server.stderr());
            assertTrue(lines[0].startsWith("echo-server: "), lines[0]);
            assertFalse(lines[0].contains("Exception"), lines[0]);
        }
    }

    @Test
    void aTakenPortGivesOneLineAndExitOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                EchoServerProcess server = EchoServerProcess.start("--tcp-port", "" + taken.getLocalPort(),
                        "--udp-port", "0", "--metrics-port", "0")) {
            assertEquals(1, server.awaitExit());
            String errors = server.stderr().lines().filter(l -> l.startsWith("echo-server: ")).reduce("", String::concat);
            assertTrue(errors.contains("cannot bind tcp 127.0.0.1:" + taken.getLocalPort()), server.stderr());
            assertFalse(server.stderr().contains("\tat "), "no stack trace: " + server.stderr());
        }
    }

    /**
     * A second echo-server with its own TCP port once bound the UDP port the first held, and took a share of its
     * peers: UDP was bound with SO_REUSEPORT whenever it had several channels (one per I/O thread by default).
     */
    @Test
    void aUdpPortHeldByAnotherEchoServerGivesOneLineAndExitOne() throws Exception {
        try (EchoServerProcess first = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "0", "--rpc-port", "-1",
                "--metrics-port", "0", "--io-threads", "2", "--udp-channels", "2")) {
            InetSocketAddress udp = first.awaitListening("udp");
            try (EchoServerProcess second = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "" + udp.getPort(),
                    "--rpc-port", "-1", "--metrics-port", "0", "--io-threads", "2", "--udp-channels", "2")) {
                assertEquals(1, second.awaitExit(), second.stderr());
                List<String> errors = second.stderr().lines().filter(l -> l.startsWith("echo-server: ")).toList();
                assertEquals(1, errors.size(), second.stderr());
                assertTrue(errors.get(0).contains("cannot bind udp 127.0.0.1:" + udp.getPort()), second.stderr());
                assertFalse(second.stderr().contains("\tat "), "no stack trace: " + second.stderr());
            }
        }
    }

    @Test
    void helpDescribesEveryFlag() {
        java.io.StringWriter out = new java.io.StringWriter();
        picocli.CommandLine cli = EchoServerMain.newCommandLine(new EchoServerCommand(new SignalShutdown()));
        cli.setOut(new java.io.PrintWriter(out));
        assertEquals(0, cli.execute("--help"));
        for (String flag : List.of("--host", "--tcp-port", "--udp-port", "--metrics-port", "--idle-timeout",
                "--length-field", "--max-frame", "--max-connections", "--max-connections-per-address", "--io-threads", "--transport", "--linger-timeout",
                "--metrics-max-connections", "--metrics-max-connections-per-address", "--rpc-auth-timeout",
                "--noise-max-handshakes", "--noise-max-handshakes-per-address", "--noise-handshake-threads",
                "--tls-handshakes-per-address", "--tls-handshake-threads")) {
            assertTrue(out.toString().contains(flag), flag);
        }
    }

    /**
     * Descriptor exhaustion once stopped every port of the process. A full echo port now refuses new
     * connections while its admitted ones, the RPC port and /health serve on (a small cap stands in for
     * the open-file limit).
     */
    @Test
    void aFullEchoPortRefusesNewConnectionsWhileTheOtherPortsServe() throws Exception {
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "-1",
                "--rpc-port", "0", "--metrics-port", "0", "--max-connections", "2");
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), new SimpleMeterRegistry())) {
            InetSocketAddress tcp = server.awaitListening("tcp");
            InetSocketAddress rpc = server.awaitListening("rpc");
            InetSocketAddress metrics = server.awaitListening("metrics");
            try (FrameClient a = new FrameClient(tcp, 2);
                    FrameClient b = new FrameClient(tcp, 2)) {
                a.send(new byte[] {1, 2});
                assertArrayEquals(new byte[] {2, 1}, a.receive());
                b.send(new byte[] {3, 4});
                assertArrayEquals(new byte[] {4, 3}, b.receive());
                try (FrameClient refused = new FrameClient(tcp, 2)) {
                    assertTrue(refused.isClosedByServer());
                }
                RpcClient client = clients.connect(rpc).get(10, TimeUnit.SECONDS);
                assertEquals("cba", client.call(BenchMethods.REVERSE, ByteString.copyFromUtf8("abc"))
                        .get(10, TimeUnit.SECONDS).toStringUtf8());
                HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + metrics.getPort() + "/health")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode());
                a.send(new byte[] {5, 6});
                assertArrayEquals(new byte[] {6, 5}, a.receive());
            }
            assertEquals(0, server.terminate(), server.stderr());
        }
    }

    /** The TLS port, and RPC over TLS with a token, with a certificate from a test CA. */
    @Test
    void servesTheEchoAndAuthenticatedRpcOverTls(@TempDir Path dir) throws Exception {
        Instant now = Instant.now();
        DevCertificates.Issued ca = DevCertificates.certificateAuthority("test CA", now.minusSeconds(3600), now.plusSeconds(86_400));
        DevCertificates.PemFiles cert = DevCertificates.issue(ca, "localhost", now.minusSeconds(3600), now.plusSeconds(86_400))
                .write(dir, "server");
        Path caFile = ca.write(dir, "ca").certificate();
        Path tokenFile = Files.writeString(dir.resolve("token"), "s3cret\n");
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "-1", "--metrics-port", "-1",
                "--rpc-port", "0", "--rpc-tls", "--rpc-token-file", tokenFile.toString(), "--tls-port", "0",
                "--tls-cert", cert.certificate().toString(), "--tls-key", cert.privateKey().toString())) {
            InetSocketAddress tls = server.awaitListening("tls");
            Tls trusting = ClientTlsConfig.builder().trustedCa(caFile).build().build();
            try (io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().tls(trusting).build()) {
                FrameExchange exchange = client.connect(tls).get(10, TimeUnit.SECONDS);
                ByteBuf reply = exchange.request(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})).get(10, TimeUnit.SECONDS);
                try {
                    assertArrayEquals(new byte[] {3, 2, 1}, ByteBufUtil.getBytes(reply));
                } finally {
                    reply.release();
                }
            }
            InetSocketAddress rpc = server.awaitListening("rpc");
            try (RpcClients clients = RpcClients.create(RpcClientConfig.builder().tls(trusting).bearerToken("s3cret").build(), null);
                 RpcClients strangers = RpcClients.create(RpcClientConfig.builder().tls(trusting).build(), null)) {
                RpcClient client = clients.connect(rpc).get(10, TimeUnit.SECONDS);
                assertEquals("cba", client.call(BenchMethods.REVERSE, ByteString.copyFromUtf8("abc"))
                        .get(10, TimeUnit.SECONDS).toStringUtf8());
                RpcClient stranger = strangers.connect(rpc).get(10, TimeUnit.SECONDS);
                ExecutionException refused = assertThrows(ExecutionException.class, () -> stranger.call(BenchMethods.REVERSE,
                        ByteString.copyFromUtf8("abc")).get(10, TimeUnit.SECONDS));
                assertEquals(RpcStatus.UNAUTHENTICATED, ((RpcException) refused.getCause()).status());
            }
            assertEquals(0, server.terminate(), server.stderr());
        }
    }

    /** --rpc-auth-timeout: a connection that never authenticates is closed then, not at the 10 s default. */
    @Test
    void anRpcConnectionThatNeverAuthenticatesIsClosedAtTheAuthTimeout(@TempDir Path dir) throws Exception {
        Path tokenFile = Files.writeString(dir.resolve("token"), "s3cret\n");
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "-1", "--metrics-port",
                "-1", "--rpc-port", "0", "--rpc-token-file", tokenFile.toString(), "--rpc-auth-timeout", "300ms")) {
            InetSocketAddress rpc = server.awaitListening("rpc");
            try (java.net.Socket silent = new java.net.Socket(rpc.getAddress(), rpc.getPort())) {
                // Well under the default's 10 s, well over 300 ms on a loaded machine.
                silent.setSoTimeout(8_000);
                assertEquals(-1, silent.getInputStream().read(), "closed by the server, having sent nothing");
            }
            assertEquals(0, server.terminate(), server.stderr());
        }
    }

    /** The QUIC port: TLS 1.3 from the same certificate flags, the echo on a bidirectional stream; with Retry too. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void servesTheEchoOverQuic(boolean retry, @TempDir Path dir) throws Exception {
        Instant now = Instant.now();
        DevCertificates.Issued ca = DevCertificates.certificateAuthority("test CA", now.minusSeconds(3600), now.plusSeconds(86_400));
        DevCertificates.PemFiles cert = DevCertificates.issue(ca, "localhost", now.minusSeconds(3600), now.plusSeconds(86_400))
                .write(dir, "server");
        List<String> args = new ArrayList<>(List.of("--tcp-port", "0", "--udp-port", "-1", "--metrics-port", "-1",
                "--rpc-port", "-1", "--quic-port", "0", "--tls-cert", cert.certificate().toString(), "--tls-key",
                cert.privateKey().toString()));
        if (retry) {
            args.add("--quic-retry");
        }
        try (EchoServerProcess server = EchoServerProcess.start(args.toArray(String[]::new))) {
            InetSocketAddress quic = server.awaitListening("quic");
            try (QuicTestClient client = QuicTestClient.connect(quic, Protocol.QUIC_ALPN)) {
                QuicTestClient.Stream stream = client.openStream();
                stream.write(new byte[] {0, 3, 1, 2, 3});
                assertArrayEquals(new byte[] {0, 3, 3, 2, 1}, stream.read(5, Duration.ofSeconds(10)));
            }
            assertEquals(0, server.terminate(), server.stderr());
        }
    }

    /** The Noise port with a key made on first start, and the metrics port bound apart from the service ports. */
    @Test
    void servesTheEchoOverNoiseWithAKeyItMadeAndMetricsOnAnotherAddress(@TempDir Path dir) throws Exception {
        Path keyFile = dir.resolve("noise.key");
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "-1", "--rpc-port", "-1",
                "--metrics-port", "0", "--metrics-host", "127.0.0.2", "--noise-port", "0", "--noise-key", keyFile.toString(),
                "--noise-generate-key")) {
            InetSocketAddress noise = server.awaitListening("noise");
            String publicKey = server.awaitLine("noise public-key ");
            assertEquals(NoiseKeyPair.read(keyFile).publicKeyBase64(), publicKey);
            InetSocketAddress metrics = server.awaitListening("metrics");
            assertEquals("127.0.0.2", metrics.getAddress().getHostAddress());
            ClientNoiseConfig pinned = ClientNoiseConfig.builder(NoiseKeyPair.parsePublicKey(publicKey)).mode(NoiseMode.STREAM)
                    .keyBits(128).build();
            try (io.ricochet.transport.client.FrameClient client = io.ricochet.transport.client.FrameClient.builder().noise(pinned).build()) {
                FrameExchange exchange = client.connect(noise).get(10, TimeUnit.SECONDS);
                ByteBuf reply = exchange.request(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})).get(10, TimeUnit.SECONDS);
                try {
                    assertArrayEquals(new byte[] {3, 2, 1}, ByteBufUtil.getBytes(reply));
                } finally {
                    reply.release();
                }
            }
            // The handshake meters, on /metrics beside the listener's others.
            String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:"
                    + metrics.getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            for (String reason : List.of("max_handshakes", "max_handshakes_per_address")) {
                assertTrue(Pattern.compile("ricochet_noise_handshakes_shed_total\\{io=\"[a-z_]+\",name=\"noise\","
                        + "protocol=\"noise\",reason=\"" + reason + "\",role=\"server\"} 0.0").matcher(scrape).find(), scrape);
            }
            assertTrue(scrape.contains("ricochet_noise_handshakes_in_progress{"), scrape);
            assertEquals(0, server.terminate(), server.stderr());
        }
    }

    @Test
    void aConnectionCapAboveTheOpenFileLimitIsNamedInOneLine() throws Exception {
        try (EchoServerProcess server = EchoServerProcess.start("--tcp-port", "0", "--udp-port", "-1",
                "--metrics-port", "-1", "--max-connections", "100000000")) {
            server.awaitListening("tcp");
            assertEquals(0, server.terminate(), server.stderr());
            List<String> named = server.stderr().lines().filter(l -> l.startsWith("echo-server: --max-connections"))
                    .toList();
            assertEquals(1, named.size(), server.stderr());
            assertTrue(named.get(0).contains("open-file limit"), named.get(0));
        }
    }

    /** {@code ricochet_frames_sent_total} of the listener {@code name} and {@code protocol}, whatever its I/O transport. */
    private static double framesSent(String scrape, String name, String protocol) {
        Matcher m = Pattern.compile("ricochet_frames_sent_total\\{io=\"[a-z_]+\",name=\""
                + name + "\",protocol=\"" + protocol + "\",role=\"server\"} (\\S+)").matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }
}
