package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.transport.RicochetServer;
import org.junit.jupiter.api.Test;

/**
 * A run that cannot measure anything ends early and says why: the first error names the cause in the user's terms
 * ({@code LoadDriverTest} checks the line that says it stopped early). Each run asks for 60 s: that it ends at all,
 * with a shorter duration, is the check.
 */
class FailureReasonsTest {

    @Test
    void framesOverTheServersMaxFrameSayTheServerClosedOnThem() {
        try (RicochetServer server = FaultyServers.start(new ReverseEchoHandler())) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--size", "5000", "--duration",
                    "60s", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertEquals(0, s.get("ok").asLong(), r.out());
            assertTrue(s.get("errors").asLong() > 0, r.out());
            String error = s.get("first_error").asText();
            assertTrue(error.startsWith("the server closed the connection with"), error);
            assertTrue(error.contains("bodies of up to 5000 bytes") && error.contains("--max-frame"), error);
            assertTrue(s.get("duration_s").asDouble() < 60, r.out());
        }
    }

    @Test
    void anUnreachableTargetEndsAtOnceNamingTheRefusal() {
        // Refused connects are retried, backing off, until they have failed for --timeout.
        Cli.Result r = Cli.run("echo", "--target", "127.0.0.1:1", "--timeout", "1s", "--duration", "60s");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("first error: cannot connect to 127.0.0.1:1: connection refused"), r.out());
        assertTrue(r.out().matches("(?s).*connect time: 0 connects, p50 0  p99 0  max 0 us; \\d{2,} failed.*"), r.out());
    }

    @Test
    void crrAgainstAnUnreachableTargetEndsAtOnceToo() {
        Cli.Result r = Cli.run("crr", "--target", "127.0.0.1:1", "--timeout", "1s", "--duration", "60s", "--json");
        assertEquals(1, r.exit(), r.err());
        assertEquals("cannot connect to 127.0.0.1:1: connection refused", r.json().get("first_error").asText());
        assertTrue(r.json().get("duration_s").asDouble() < 60, r.out());
    }

    @Test
    void aServerThatNeverAnswersEndsTheRunNamingTheTimeout() {
        try (RicochetServer server = FaultyServers.start(FaultyServers.silent())) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--timeout", "300ms",
                    "--connections", "2", "--duration", "60s", "--json");
            assertEquals(1, r.exit(), r.err());
            assertEquals("no reply within --timeout 300ms", r.json().get("first_error").asText(), r.out());
            assertTrue(r.json().get("duration_s").asDouble() < 60, r.out());
        }
    }

    @Test
    void aServerOfAnotherProtocolIsNamedAsAPossibleCause() {
        // As echo pointed at an RPC port: the length field read as one the server will not take.
        try (RicochetServer server = FaultyServers.start(new ReverseEchoHandler())) {
            Cli.Result wrongField = Cli.run("echo", "--target", FaultyServers.target(server), "--length-field", "4",
                    "--duration", "60s", "--json");
            assertEquals(1, wrongField.exit(), wrongField.err());
            String error = wrongField.json().get("first_error").asText();
            assertTrue(error.contains("is --target an echo port, with --length-field 4?"), error);
        }
    }
}
