package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.transport.server.RicochetServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands over the Noise channel against the embedded Noise server, and the Noise flags' usage errors. */
@Timeout(120)
class NoiseCommandsTest {

    @ParameterizedTest
    @ValueSource(strings = {"package 128", "package 256", "stream 128", "stream 256"})
    void echoOverNoiseVerifiesEveryReplyAndMatchesTheServersCount(String modeAndBits) {
        String[] m = modeAndBits.split(" ");
        Cli.Result r = Cli.run("echo", "--encrypt", m[0], "--key-bits", m[1], "--duration", "1s", "--connections", "3",
                "--pipeline", "8", "--size", "1..3000", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(0, s.get("bad").asLong() + s.get("errors").asLong(), r.out());
        assertEquals((double) s.get("ok").asLong(), s.get("server").get("frames_sent").asDouble(),
                "ok equals the server's frames.sent increase");
        assertEquals(3, s.get("handshake_time_us").get("count").asLong(), r.out());
        assertEquals(0, s.get("handshake_failures").asLong());
    }

    @Test
    void crrOverNoiseMakesOneHandshakePerTransaction() {
        Cli.Result r = Cli.run("crr", "--encrypt", "stream", "--duration", "1s", "--concurrency", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        long transactions = s.get("requests").asLong();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(transactions, s.get("ok").asLong(), r.out());
        assertEquals(transactions, s.get("handshake_time_us").get("count").asLong(), r.out());
        assertEquals((double) transactions, s.get("server").get("frames_sent").asDouble());
    }

    @Test
    void rpcRegisterMassiveAndSweepOverNoise() {
        Cli.Result rpc = Cli.run("rpc", "--encrypt", "package", "--clients", "3", "--requests", "300", "--json");
        assertEquals(0, rpc.exit(), rpc.err());
        assertEquals(300, rpc.json().get("received_ok").asLong(), rpc.out());
        assertEquals(0, rpc.json().get("bad").asLong() + rpc.json().get("errors").asLong(), rpc.out());
        assertEquals(300.0, rpc.json().get("server").get("rpc_requests").asDouble());

        Cli.Result register = Cli.run("register", "--encrypt", "stream", "--pairs", "2", "--cycles", "20", "--json");
        assertEquals(0, register.exit(), register.err());
        assertEquals(20, register.json().get("received_ok").asLong(), register.out());

        Cli.Result massive = Cli.run("massive", "--encrypt", "package", "--connections", "20", "--connect-rate", "200",
                "--per-connection-rate", "20/s", "--duration", "1s", "--json");
        assertEquals(0, massive.exit(), massive.err());
        assertEquals(20, massive.json().get("handshake_time_us").get("count").asLong(), massive.out());
        assertEquals(0, massive.json().get("bad").asLong() + massive.json().get("errors").asLong(), massive.out());

        Cli.Result sweep = Cli.run("sweep", "--encrypt", "stream", "--max-size", "20000", "--requests-per-step", "20", "--json");
        assertEquals(0, sweep.exit(), sweep.err());
        for (JsonNode step : sweep.json().get("steps")) {
            assertEquals(20, step.get("ok").asLong(), step.toString());
        }
    }

    /** A key that is not the server's: every handshake fails, and the first error says so in one line. */
    @Test
    void aWrongPinnedKeyFailsEveryHandshake() {
        Cli.Result r = Cli.run("rr", "--noise-key", NoiseKeyPair.generate().publicKeyBase64(), "--duration", "500ms",
                "--timeout", "1s", "--json");
        assertEquals(1, r.exit(), r.err());
        JsonNode s = r.json();
        assertEquals(0, s.get("ok").asLong(), r.out());
        assertTrue(s.get("handshake_failures").asLong() >= 1, r.out());
        String error = s.get("first_error").asText();
        assertTrue(error.contains("Noise handshake with 127.0.0.1:"), error);
        assertFalse(error.contains("\n"), error);
    }

    @Test
    void noiseAgainstAPlaintextServerFailsInOneLine() {
        try (RicochetServer plain = FaultyServers.start(new ReverseEchoHandler())) {
            String key = NoiseKeyPair.generate().publicKeyBase64();
            Cli.Result r = Cli.run("crr", "--noise-key", key, "--target", FaultyServers.target(plain),
                    "--duration", "500ms", "--timeout", "300ms");
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.out().contains("first error: java.io.IOException: Noise handshake with"), r.out());
            assertFalse(r.out().contains("\tat "), "no stack trace: " + r.out());

            Cli.Result rpc = Cli.run("rpc", "--noise-key", key, "--target", FaultyServers.target(plain),
                    "--requests", "10", "--timeout", "1s");
            assertEquals(1, rpc.exit(), rpc.err());
            String error = rpc.err().strip();
            assertFalse(error.contains("\n"), "one line: " + error);
            assertTrue(error.startsWith("load-generator: UNAVAILABLE: cannot connect to")
                    && error.contains("Noise handshake failed"), error);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--key-bits=128", "--encrypt=zip", "--encrypt=package --key-bits=192", "--tls --key-bits=64",
        "--encrypt=package --tls", "--encrypt=package --transport=udp", "--noise-key=AAAA",
        "--noise-key=not*base64", "--encrypt=package --target=127.0.0.1:1",
        "--noise-key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
    void aBadNoiseFlagIsOneLineAndExitTwo(String flags) {
        List<String> args = new ArrayList<>(List.of("echo", "--duration", "1s"));
        args.addAll(List.of(flags.split(" ")));
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("load-generator: "), lines[0]);
        assertFalse(lines[0].contains("Exception"), lines[0]);
        assertNotEquals("", lines[0].substring("load-generator: ".length()).strip());
    }

    @Test
    void tlsResumeNeedsTls() {
        Cli.Result r = Cli.run("crr", "--tls-resume", "--duration", "1s");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--tls-resume without --tls"), r.err());
    }

    @Test
    void everyTcpCommandTakesTheFlags() {
        for (String command : List.of("echo", "rr", "crr", "massive", "ramp", "sweep", "rpc", "register")) {
            Cli.Result r = Cli.run(command, "--key-bits", "128");
            assertEquals(2, r.exit(), command + ": " + r.err());
            assertTrue(r.err().contains("--key-bits without --tls, --noise-key or --encrypt"), command + ": " + r.err());
        }
    }
}
