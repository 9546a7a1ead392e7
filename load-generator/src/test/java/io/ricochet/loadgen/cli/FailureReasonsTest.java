package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.config.LengthField;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.session.FrameHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
            assertTrue(error.matches("requests? 0( to \\d+)? of connection \\d+ (was|were) not answered: the server closed "
                    + "the connection;.*"), error);
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
            assertEquals("no reply within --timeout 300ms (no reply yet on any connection: is the server's length field 2 "
                    + "bytes, as --length-field 2, the default, says? a service with a 4-byte one needs --length-field 4)",
                    r.json().get("first_error").asText(), r.out());
            assertTrue(r.json().get("duration_s").asDouble() < 60, r.out());
        }
    }

    /**
     * A 4-byte service loaded with the default 2-byte length field waits for the rest of a frame that never comes: the
     * first error names the flag, where it said only that no reply came in time.
     */
    @Test
    void aServiceWithAWiderLengthFieldIsToldOfTheFlag() {
        try (RicochetServer server = FaultyServers.start(new ReverseEchoHandler(), LengthField.FOUR)) {
            Cli.Result r = Cli.run("echo", "--target", FaultyServers.target(server), "--timeout", "300ms",
                    "--connections", "2", "--duration", "60s", "--json");
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.json().get("first_error").asText().endsWith("needs --length-field 4)"), r.out());
            Cli.Result right = Cli.run("echo", "--target", FaultyServers.target(server), "--length-field", "4",
                    "--connections", "2", "--duration", "1s", "--json");
            assertEquals(0, right.exit(), right.err());
        }
    }

    /**
     * An echo server that stops gracefully mid-run, after answering right, closes its connections with the requests
     * then in flight unanswered: the first error says it answered and asks whether it shut down, rather than whether
     * it speaks the protocol at all.
     */
    @Test
    @Timeout(90)
    void aServerThatShutsDownAfterGoodRepliesIsAskedWhetherItShutDown() throws Exception {
        CountDownLatch answered = new CountDownLatch(500);
        FrameHandler echo = new ReverseEchoHandler();
        RicochetServer server = FaultyServers.start((session, body) -> {
            echo.onFrame(session, body);
            answered.countDown();
        });
        CompletableFuture<Cli.Result> run;
        try {
            run = CompletableFuture.supplyAsync(() -> Cli.run("echo", "--target", FaultyServers.target(server),
                    "--connections", "2", "--timeout", "1s", "--duration", "60s", "--json"));
            assertTrue(answered.await(30, TimeUnit.SECONDS), "the server answered");
        } finally {
            server.close();
        }
        Cli.Result r = run.get(60, TimeUnit.SECONDS);
        assertEquals(1, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("ok").asLong() >= 500, r.out());
        String error = s.get("first_error").asText();
        assertTrue(error.matches("requests? \\d+( to \\d+)? of connection [01] (was|were) not answered: the server closed "
                + "the connection, after \\d+ good repl(y|ies) \\(did it shut down\\?\\)"), error);
        assertFalse(error.contains("echo port"), error);
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
