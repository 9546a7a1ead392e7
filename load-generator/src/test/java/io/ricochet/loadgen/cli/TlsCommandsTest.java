package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.transport.server.RicochetServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands over TLS against the embedded TLS server, and the TLS flags' usage errors. */
@Timeout(120)
class TlsCommandsTest {

    @Test
    void echoOverTlsVerifiesEveryReplyAndMatchesTheServersCount() {
        Cli.Result r = Cli.run("echo", "--tls", "--duration", "1s", "--connections", "3", "--pipeline", "4",
                "--size", "1..300", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(0, s.get("bad").asLong(), r.out());
        assertEquals(0, s.get("errors").asLong(), r.out());
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble(),
                "ok equals the server's frames.sent increase");
        // One handshake per connection, each after its TCP connect.
        assertEquals(3, s.get("handshake_time_us").get("count").asLong(), r.out());
        assertEquals(s.get("connect_time_us").get("count").asLong(), s.get("handshake_time_us").get("count").asLong());
        assertEquals(0, s.get("handshake_failures").asLong());
    }

    @Test
    void withoutTlsTheSummaryHasNoHandshakes() {
        Cli.Result r = Cli.run("rr", "--duration", "300ms", "--json");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.json().has("handshake_time_us"), r.out());
        assertFalse(r.json().has("handshake_failures"), r.out());
        assertFalse(Cli.run("rr", "--duration", "300ms").out().contains("tls handshake"));
    }

    @Test
    void crrOverTlsMakesOneFullHandshakePerTransaction() {
        Cli.Result r = Cli.run("crr", "--tls", "--duration", "1s", "--concurrency", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        long transactions = s.get("requests").asLong();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(transactions, s.get("ok").asLong(), r.out());
        assertEquals(transactions, s.get("handshake_time_us").get("count").asLong(), r.out());
        assertEquals((double) transactions, s.get("server").get("frames_sent").asDouble());
    }

    /** --key-bits pins the suite's AES key length; a BoringSSL client can pin it only in TLS 1.2. */
    @ParameterizedTest
    @ValueSource(strings = {"jdk 128 TLSv1.3 TLS_AES_128_GCM_SHA256", "jdk 256 TLSv1.3 TLS_AES_256_GCM_SHA384",
        "openssl 256 TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"})
    void keyBitsPinTheNegotiatedSuite(String expected) {
        String[] e = expected.split(" ");
        org.junit.jupiter.api.Assumptions.assumeTrue(e[0].equals("jdk") || io.netty.handler.ssl.OpenSsl.isAvailable());
        Cli.Result r = Cli.run("rr", "--tls", "--tls-provider", e[0], "--key-bits", e[1], "--duration", "300ms");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("tls: " + e[2] + " " + e[3] + " (" + e[0] + " client)"), r.out());
    }

    /** With --tls-resume the client keeps its sessions and offers them; every transaction is still verified. */
    @ParameterizedTest
    @ValueSource(strings = {"openssl", "jdk"})
    void crrWithSessionResumptionVerifiesEveryTransaction(String provider) {
        org.junit.jupiter.api.Assumptions.assumeTrue(provider.equals("jdk") || io.netty.handler.ssl.OpenSsl.isAvailable());
        Cli.Result r = Cli.run("crr", "--tls", "--tls-resume", "--tls-provider", provider, "--duration", "1s", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(s.get("requests").asLong(), s.get("ok").asLong(), r.out());
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble(), r.out());
        assertEquals(s.get("requests").asLong(), s.get("handshake_time_us").get("count").asLong(), r.out());
    }

    @Test
    void theTableShowsTheHandshakeRow() {
        Cli.Result r = Cli.run("rr", "--tls", "--duration", "300ms");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("handshake: 1 handshakes"), r.out());
    }

    @Test
    void rpcAndRegisterOverTls() {
        Cli.Result rpc = Cli.run("rpc", "--tls", "--clients", "3", "--requests", "300", "--json");
        assertEquals(0, rpc.exit(), rpc.err());
        assertEquals(300, rpc.json().get("received_ok").asLong(), rpc.out());
        assertEquals(0, rpc.json().get("bad").asLong() + rpc.json().get("errors").asLong(), rpc.out());
        assertEquals(300.0, rpc.json().get("server").get("rpc_requests").asDouble());

        Cli.Result register = Cli.run("register", "--tls", "--pairs", "2", "--cycles", "20", "--json");
        assertEquals(0, register.exit(), register.err());
        assertEquals(20, register.json().get("received_ok").asLong(), register.out());
    }

    @Test
    void massiveAndSweepOverTls() {
        Cli.Result massive = Cli.run("massive", "--tls", "--connections", "20", "--connect-rate", "200",
                "--per-connection-rate", "20/s", "--duration", "1s", "--json");
        assertEquals(0, massive.exit(), massive.err());
        assertEquals(20, massive.json().get("handshake_time_us").get("count").asLong(), massive.out());
        assertEquals(0, massive.json().get("bad").asLong() + massive.json().get("errors").asLong(), massive.out());

        Cli.Result sweep = Cli.run("sweep", "--tls", "--max-size", "20000", "--requests-per-step", "20", "--json");
        assertEquals(0, sweep.exit(), sweep.err());
        for (JsonNode step : sweep.json().get("steps")) {
            assertEquals(20, step.get("ok").asLong(), step.toString());
        }
    }

    @Test
    void insecureTrustsTheEmbeddedServerWithoutItsCa() {
        Cli.Result r = Cli.run("rr", "--tls", "--insecure", "--tls-provider", "jdk", "--duration", "300ms", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.json().get("ok").asLong() > 0, r.out());
    }

    @Test
    void tlsAgainstAPlaintextServerFailsWithOneClearLine() {
        try (RicochetServer plain = FaultyServers.start(new ReverseEchoHandler())) {
            Cli.Result r = Cli.run("echo", "--tls", "--insecure", "--target", FaultyServers.target(plain),
                    "--duration", "1s", "--timeout", "300ms", "--connections", "1", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertEquals(0, s.get("ok").asLong(), r.out());
            assertTrue(s.get("handshake_failures").asLong() >= 1, r.out());
            assertEquals(0, s.get("handshake_time_us").get("count").asLong(), r.out());
            String error = s.get("first_error").asText();
            assertTrue(error.contains("TLS handshake with 127.0.0.1:" + plain.tcpAddress().getPort() + " failed"), error);
            assertFalse(error.contains("\n"), error);

            Cli.Result crr = Cli.run("crr", "--tls", "--insecure", "--target", FaultyServers.target(plain),
                    "--duration", "500ms", "--timeout", "300ms");
            assertEquals(1, crr.exit(), crr.err());
            assertTrue(crr.out().contains("first error: javax.net.ssl.SSLException: TLS handshake with"), crr.out());
            assertFalse(crr.out().contains("\tat "), "no stack trace: " + crr.out());
        }
    }

    @Test
    void rpcWithTlsAgainstAPlaintextServerFailsToConnectInOneLine() {
        try (RicochetServer plain = FaultyServers.start(new ReverseEchoHandler())) {
            Cli.Result r = Cli.run("rpc", "--tls", "--insecure", "--target", FaultyServers.target(plain),
                    "--requests", "10", "--timeout", "1s", "--json");
            assertEquals(1, r.exit(), r.err());
            // A client is connected only once its handshake is done, so the run stops at the connect.
            String error = r.err().strip();
            assertFalse(error.contains("\n"), "one line: " + error);
            assertTrue(error.startsWith("load-generator: UNAVAILABLE: cannot connect to")
                    && error.contains(":" + plain.tcpAddress().getPort()) && error.contains("TLS handshake failed"), error);
        }
    }

    /** A server that requires client certificates: the client's --client-cert gets in, no certificate does not. */
    @Test
    void mutualTlsWithAClientCertificate(@TempDir Path dir) throws Exception {
        java.time.Instant from = java.time.Instant.now().minusSeconds(60);
        java.time.Instant to = java.time.Instant.now().plusSeconds(3600);
        io.ricochet.tls.DevCertificates.Issued ca = io.ricochet.tls.DevCertificates.certificateAuthority("test CA", from, to);
        Path caFile = ca.write(dir, "ca").certificate();
        io.ricochet.tls.DevCertificates.PemFiles server = io.ricochet.tls.DevCertificates.issue(ca, "localhost", from, to)
                .write(dir, "server");
        io.ricochet.tls.DevCertificates.PemFiles client = io.ricochet.tls.DevCertificates.issue(ca, "client", from, to)
                .write(dir, "client");
        io.ricochet.tls.Tls serverTls = io.ricochet.tls.ServerTlsConfig.builder(server.certificate(), server.privateKey())
                .clientCa(caFile).build().build();
        try (RicochetServer tlsServer = RicochetServer.builder().config(io.ricochet.config.ServerConfig.builder()
                .host("127.0.0.1").ephemeralPorts().ioThreads(1).build()).handler(new ReverseEchoHandler())
                .meterRegistry(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()).tls(serverTls).build()
                .startAndAwait()) {
            String target = FaultyServers.target(tlsServer);
            Cli.Result in = Cli.run("rr", "--tls", "--tls-ca", caFile.toString(), "--client-cert",
                    client.certificate().toString(), "--client-key", client.privateKey().toString(), "--target", target,
                    "--duration", "500ms", "--json");
            assertEquals(0, in.exit(), in.err());
            assertTrue(in.json().get("ok").asLong() > 0, in.out());
            assertEquals(0, in.json().get("bad").asLong() + in.json().get("errors").asLong(), in.out());
            assertEquals(1, in.json().get("handshake_time_us").get("count").asLong(), in.out());

            Cli.Result out = Cli.run("rr", "--tls", "--tls-ca", caFile.toString(), "--target", target,
                    "--duration", "500ms", "--timeout", "1s", "--json");
            assertEquals(1, out.exit(), out.err());
            assertEquals(0, out.json().get("ok").asLong(), out.out());
        }
    }

    @Test
    void anUntrustedServerFailsTheHandshake(@TempDir Path dir) throws Exception {
        // A CA of its own that did not issue the embedded server's certificate.
        Path otherCa = io.ricochet.tls.DevCertificates.certificateAuthority("other", java.time.Instant.now()
                .minusSeconds(60), java.time.Instant.now().plusSeconds(3600)).write(dir, "other").certificate();
        Cli.Result r = Cli.run("rr", "--tls", "--tls-ca", otherCa.toString(), "--duration", "500ms", "--json");
        assertEquals(1, r.exit(), r.err());
        assertEquals(0, r.json().get("ok").asLong(), r.out());
        assertTrue(r.json().get("handshake_failures").asLong() >= 1, r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--tls-ca=ca.pem", "--insecure", "--client-cert=c.pem --client-key=k.pem",
        "--tls --tls-ca=ca.pem --insecure", "--tls --client-cert=c.pem", "--tls --client-key=k.pem",
        "--tls --transport=udp", "--tls --tls-provider=gnutls", "--tls --tls-ca=/nonexistent/ca.pem"})
    void aBadTlsFlagIsOneLineAndExitTwo(String flags) {
        List<String> args = new ArrayList<>(List.of("echo", "--duration", "1s"));
        args.addAll(List.of(flags.split(" ")));
        assertUsageError(Cli.run(args.toArray(String[]::new)));
    }

    @Test
    void everyTcpCommandTakesTheFlagsAndUdpStreamRefusesThem() {
        for (String command : List.of("echo", "rr", "crr", "massive", "ramp", "sweep", "rpc", "register")) {
            assertUsageError(Cli.run(command, "--insecure"));
        }
        assertUsageError(Cli.run("udp-stream", "--tls", "--duration", "1s"));
        assertUsageError(Cli.run("controller", "--workers", "1", "echo", "--tls-ca=ca.pem"));
    }

    @Test
    void kubernetesRefusesCertificateFilesForNow() {
        Cli.Result r = Cli.run("controller", "--workers", "1", "--executor", "kubernetes", "echo", "--target",
                "127.0.0.1:1", "--tls", "--tls-ca", "ca.pem");
        assertUsageError(r);
        assertTrue(r.err().contains("not supported yet"), r.err());
    }

    private static void assertUsageError(Cli.Result r) {
        assertEquals(2, r.exit(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("load-generator: "), lines[0]);
        assertFalse(lines[0].contains("Exception"), lines[0]);
        assertNotEquals("", lines[0].substring("load-generator: ".length()).strip());
    }
}
