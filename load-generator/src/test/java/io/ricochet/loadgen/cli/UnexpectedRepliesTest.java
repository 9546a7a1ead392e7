package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ricochet.transport.server.RicochetServer;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Frames a server sends that answer no request are counted apart from requests: they never inflate {@code requests} or
 * {@code qps}, and they are reported (and fail the run) rather than dropped.
 */
@Timeout(60)
class UnexpectedRepliesTest {

    @Test
    void framesNobodyAskedForAreCountedApartAndNeverAsRequests() {
        AtomicLong received = new AtomicLong();
        try (RicochetServer server = FaultyServers.start(FaultyServers.answersThenSendsUnasked(3, received))) {
            Cli.Result r = Cli.run("rr", "--target", FaultyServers.target(server), "--duration", "500ms", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            long requests = s.get("requests").asLong();
            assertTrue(requests > 0, r.out());
            // Every request the server read was answered once, and each answer ended one request: no more.
            assertEquals(received.get(), requests, r.out());
            assertEquals(requests, s.get("ok").asLong() + s.get("bad").asLong() + s.get("errors").asLong(), r.out());
            // duration_s is rounded to the millisecond, qps taken over the exact seconds.
            double qps = requests / s.get("duration_s").asDouble();
            assertEquals(qps, s.get("qps").asDouble(), qps * 0.01, r.out());
            long unexpected = s.get("unexpected").asLong();
            assertTrue(unexpected >= 3 * (requests - 1), r.out());
            assertTrue(s.get("first_error").asText().contains("no request outstanding"), r.out());
        }
    }

    /** A connection per request: a frame after the reply answers nothing either, and is counted, not dropped. */
    @Test
    void crrCountsAFrameAfterTheReplyRatherThanDroppingIt() {
        AtomicLong received = new AtomicLong();
        try (RicochetServer server = FaultyServers.start(FaultyServers.answersThenSendsUnasked(1, received))) {
            Cli.Result r = Cli.run("crr", "--target", FaultyServers.target(server), "--duration", "500ms", "--json");
            assertEquals(1, r.exit(), r.err());
            JsonNode s = r.json();
            assertEquals(received.get(), s.get("requests").asLong(), r.out());
            assertTrue(s.get("unexpected").asLong() > 0, r.out());
            assertTrue(s.get("first_error").asText().contains("a frame after the reply"), r.out());
        }
    }

    @Test
    void theTableSaysHowManyFramesCameUnasked() {
        AtomicLong received = new AtomicLong();
        try (RicochetServer server = FaultyServers.start(FaultyServers.answersThenSendsUnasked(1, received))) {
            Cli.Result r = Cli.run("rr", "--target", FaultyServers.target(server), "--duration", "300ms");
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.out().matches("(?s).*\nunexpected: \\d+ frames? that answered no request, not counted as "
                    + "requests\n.*"), r.out());
        }
    }
}
