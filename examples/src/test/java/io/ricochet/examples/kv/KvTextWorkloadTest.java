package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.config.ServerConfig;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import io.ricochet.transport.server.RicochetServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link KvTextWorkload} driven by hand against a real {@link KvServer}, as the engine would drive it: requests made
 * into bodies, several in flight, each reply checked with the context of its own request.
 */
@Timeout(30)
class KvTextWorkloadTest {
    private static final String KEY = "c0-[0-9a-z]{6}-k\\d+";
    private static final String VALUE = "v\\d+-[0-9a-z]+";

    private KvServer server;
    private TextClient client;

    @BeforeEach
    void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000));
        client = new TextClient(server.tcpAddress());
    }

    @AfterEach
    void stop() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    @ParameterizedTest(name = "keys={0} get-share={1} in flight={2}")
    @CsvSource({"1, 0.5, 16", "4, 0.5, 1", "100, 0.5, 64", "3, 0.9, 8", "2, 0.0, 4", "2, 1.0, 4"})
    void everyReplyOfAGoodServerChecksOk(int keys, double getShare, int inFlight) {
        Driven run = Driven.open(new KvTextWorkload(keys, getShare), 0, 42);
        run.requests(client, 400, inFlight);
        run.assertAllOk();
    }

    @Test
    void aGetExpectsThePutsMadeBeforeItEvenWithLaterPutsInFlight() {
        Driven run = Driven.open(new KvTextWorkload(1, 0.5), 3, 7);
        run.requests(client, 1_000, 32);
        run.assertAllOk();
        // One key and 32 in flight: nearly every get is answered after later puts to its key were sent.
        assertTrue(run.replies.stream().filter(r -> r.startsWith("value ")).count() > 100, "gets that read a value");
        assertTrue(run.sent.stream().allMatch(r -> r.matches("(get|put) c3-[0-9a-z]{6}-k0( .*)?")), run.sent.get(0));
    }

    @Test
    void checkingAReplyAgainGivesTheSameVerdict() {
        Driven run = Driven.open(new KvTextWorkload(2, 0.5), 0, 1);
        run.requests(client, 20, 4);
        run.assertAllOk();
        for (int s = 0; s < 20; s++) {
            assertTrue(run.check(s, run.replies.get(s)).isOk(), "request " + s + " again");
        }
        Check wrong = run.check(3, "nonsense");
        assertEquals(wrong.reason(), run.check(3, "nonsense").reason());
    }

    @Test
    void aValueTheConnectionNeverPutFailsAGetOfAKeyItExpectsMissing() {
        Driven run = Driven.open(new KvTextWorkload(1, 1.0), 0, 1);
        run.requests(client, 1, 1);
        run.assertAllOk();
        String key = run.sent.get(0).substring("get ".length());
        server.store().put(key, ByteString.copyFromUtf8("planted"));
        run.requests(client, 1, 1);
        assertEquals("get " + key + ": got \"value planted\" (expected: \"missing\")", run.checks.get(1).reason());
    }

    @Test
    void aValueChangedBehindTheConnectionsBackFailsTheNextGet() {
        Driven run = Driven.open(new KvTextWorkload(1, 0.5), 0, 5);
        // One request at a time: after each put's reply, someone else overwrites the key.
        for (int s = 0; s < 50; s++) {
            run.requests(client, 1, 1);
            String request = run.sent.get(s);
            if (request.startsWith("put ")) {
                server.store().put(request.split(" ")[1], ByteString.copyFromUtf8("tampered"));
            }
        }
        List<String> bad = run.badReasons();
        assertFalse(bad.isEmpty());
        for (String reason : bad) {
            assertTrue(reason.matches("get " + KEY + ": got \"value tampered\" \\(expected: \"value " + VALUE + "\"\\)"),
                    reason);
        }
    }

    @Test
    void aPutTheServerRefusesIsBadWithTheServersAnswer() {
        try (KvServer tiny = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1));
                TextClient toTiny = new TextClient(tiny.tcpAddress())) {
            Driven run = Driven.open(new KvTextWorkload(2, 0.0), 0, 9);
            run.requests(toTiny, 20, 4);
            List<String> bad = run.badReasons();
            assertFalse(bad.isEmpty());
            for (String reason : bad) {
                assertTrue(reason.matches("put " + KEY + ": got \"error full\" \\(expected: \"ok\"\\)"), reason);
            }
        }
    }

    @Test
    void aServerThatIsNotTheKvServiceFailsEveryCheckSayingWhatItAnswered() {
        // An echo of the request, as a server that is not the kv service might answer.
        RicochetServer echo = RicochetServer.builder()
                .config(ServerConfig.builder().host("127.0.0.1").tcpPort(0).build())
                .handler((session, body) -> session.send(body))
                .build()
                .startAndAwait();
        try (TextClient toEcho = new TextClient(echo.tcpAddress())) {
            Driven run = Driven.open(new KvTextWorkload(2, 0.5), 0, 2);
            run.requests(toEcho, 20, 4);
            assertEquals(20, run.badReasons().size());
            for (String reason : run.badReasons()) {
                assertTrue(reason.matches("put (" + KEY + "): got \"put \\1 " + VALUE + "\" \\(expected: \"ok\"\\)")
                        || reason.matches("get (" + KEY + "): got \"get \\1\" \\(expected: \"(missing|value " + VALUE
                        + ")\"\\)"), reason);
            }
        } finally {
            echo.close();
        }
    }

    @Test
    void aReopenedConnectionDoesNotExpectWhatItsPredecessorPut() {
        KvTextWorkload workload = new KvTextWorkload(3, 0.3);
        Driven before = Driven.open(workload, 0, 4);
        before.requests(client, 50, 4);
        before.assertAllOk();
        // The same connection index, after the server dropped it: a new conversation that has put nothing yet.
        Driven after = Driven.open(workload, 0, 4);
        after.requests(client, 50, 4);
        after.assertAllOk();
    }

    @Test
    void aReplyToARequestNoLongerRememberedSaysSo() {
        Driven run = Driven.open(new KvTextWorkload(1, 0.5), 0, 1);
        Check check = run.check(999, "ok");
        assertEquals("request 999: not remembered (expected: one of the last 4096 requests of its connection; "
                + "is more than that in flight?)", check.reason());
    }

    /** One conversation and what it sent, got and said. */
    private static final class Driven {
        final FrameConversation conversation;
        final FakeContext context;
        final List<String> sent = new ArrayList<>();
        final List<String> replies = new ArrayList<>();
        final List<Check> checks = new ArrayList<>();

        Driven(FrameConversation conversation, FakeContext context) {
            this.conversation = conversation;
            this.context = context;
        }

        /** A new conversation of connection {@code connection}, its random source seeded with {@code seed}. */
        static Driven open(KvTextWorkload workload, long connection, long seed) {
            FakeContext context = new FakeContext(connection, seed);
            return new Driven(workload.open(context.at(-1)), context);
        }

        /** Makes {@code count} more requests, {@code inFlight} at a time, and checks each reply in order. */
        void requests(TextClient client, int count, int inFlight) {
            long first = sent.size();
            List<CompletableFuture<ByteBuf>> pending = new ArrayList<>();
            for (long s = first; s < first + count; s++) {
                ByteBuf body = Unpooled.buffer();
                conversation.request(context.at(s), body);
                sent.add(body.toString(StandardCharsets.ISO_8859_1));
                pending.add(client.send(body));
                if (pending.size() == inFlight || s == first + count - 1) {
                    long sequence = s - pending.size() + 1;
                    for (CompletableFuture<ByteBuf> reply : pending) {
                        checkReply(sequence++, await(reply));
                    }
                    pending.clear();
                }
            }
        }

        private void checkReply(long sequence, ByteBuf reply) {
            try {
                replies.add(reply.toString(StandardCharsets.ISO_8859_1));
                checks.add(conversation.check(context.at(sequence), reply));
            } finally {
                reply.release();
            }
        }

        Check check(long sequence, String reply) {
            ByteBuf body = Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1);
            try {
                return conversation.check(context.at(sequence), body);
            } finally {
                body.release();
            }
        }

        List<String> badReasons() {
            return checks.stream().filter(c -> !c.isOk()).map(Check::reason).toList();
        }

        void assertAllOk() {
            assertEquals(List.of(), badReasons());
        }
    }
}
