package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.config.ServerConfig;
import io.ricochet.examples.kv.proto.GetReply;
import io.ricochet.examples.kv.proto.GetRequest;
import io.ricochet.examples.kv.proto.PutRequest;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.RpcCall;
import io.ricochet.loadgen.workload.RpcConversation;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcServer;
import io.ricochet.rpc.RpcStatus;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link KvRpcWorkload} driven by hand against a real {@link KvServer}, as the engine would drive it: calls made,
 * several in flight, and each answer checked with the context of its own call, in whatever order the answers are
 * taken.
 */
@Timeout(30)
class KvRpcWorkloadTest {
    private static final String KEY = "c0-[0-9a-z]{6}-k\\d+";
    private static final String VALUE = "v\\d+-[0-9a-z]+";

    private KvServer server;
    private RpcClients clients;

    @BeforeEach
    void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1_000));
        clients = RpcClients.create(RpcClientConfig.builder().build(), null);
    }

    @AfterEach
    void stop() {
        try {
            clients.close();
        } finally {
            server.close();
        }
    }

    @ParameterizedTest(name = "keys={0} get-share={1} in flight={2}")
    @CsvSource({"1, 0.5, 16", "4, 0.5, 1", "100, 0.5, 64", "3, 0.9, 8", "2, 0.0, 4", "2, 1.0, 4"})
    void everyAnswerOfAGoodServerChecksOkInAnyOrder(int keys, double getShare, int inFlight) {
        Driven run = Driven.open(new KvRpcWorkload(keys, getShare), 0, 42, connect(server.rpcAddress()));
        run.calls(400, inFlight);
        run.assertAllOk();
    }

    @Test
    void aGetExpectsThePutsMadeBeforeItEvenWithLaterPutsInFlight() {
        Driven run = Driven.open(new KvRpcWorkload(1, 0.5), 3, 7, connect(server.rpcAddress()));
        run.calls(1_000, 32);
        run.assertAllOk();
        assertTrue(run.answers.stream().filter(GetReply::getFound).count() > 100, "gets that read a value");
        assertTrue(run.made.stream().allMatch(c -> key(c).matches("c3-[0-9a-z]{6}-k0")), key(run.made.get(0)));
    }

    @Test
    void checkingAnAnswerAgainGivesTheSameVerdict() {
        Driven run = Driven.open(new KvRpcWorkload(2, 0.5), 0, 1, connect(server.rpcAddress()));
        run.calls(20, 4);
        run.assertAllOk();
        for (int s = 0; s < 20; s++) {
            assertTrue(run.conversation.check(run.context.at(s), run.replies.get(s)).isOk(), "call " + s + " again");
        }
        RpcReply wrong = new RpcReply(RpcStatus.INTERNAL, ByteString.EMPTY, "boom");
        assertEquals(run.conversation.check(run.context.at(3), wrong).reason(),
                run.conversation.check(run.context.at(3), wrong).reason());
    }

    @Test
    void aValueTheConnectionNeverPutFailsAGetOfAKeyItExpectsMissing() {
        Driven run = Driven.open(new KvRpcWorkload(1, 1.0), 0, 1, connect(server.rpcAddress()));
        run.calls(1, 1);
        run.assertAllOk();
        String key = key(run.made.get(0));
        server.store().put(key, ByteString.copyFromUtf8("planted"));
        run.calls(1, 1);
        assertEquals("get " + key + ": got value \"planted\" (expected: missing)", run.checks.get(1).reason());
    }

    @Test
    void aValueChangedBehindTheConnectionsBackFailsTheNextGet() {
        Driven run = Driven.open(new KvRpcWorkload(1, 0.5), 0, 5, connect(server.rpcAddress()));
        for (int s = 0; s < 50; s++) {
            run.calls(1, 1);
            RpcCall call = run.made.get(s);
            if (call.method().equals("kv.put")) {
                server.store().put(key(call), ByteString.copyFromUtf8("tampered"));
            }
        }
        List<String> bad = run.badReasons();
        assertFalse(bad.isEmpty());
        for (String reason : bad) {
            assertTrue(reason.matches("get " + KEY + ": got value \"tampered\" \\(expected: value \"" + VALUE + "\"\\)"),
                    reason);
        }
    }

    @Test
    void aPutTheServerRefusesIsBadWithItsStatusAndDetail() {
        try (KvServer tiny = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 1))) {
            Driven run = Driven.open(new KvRpcWorkload(2, 0.0), 0, 9, connect(tiny.rpcAddress()));
            run.calls(20, 4);
            List<String> bad = run.badReasons();
            assertFalse(bad.isEmpty());
            for (String reason : bad) {
                assertTrue(reason.matches("put " + KEY + ": got RESOURCE_EXHAUSTED \"full: 1 keys stored \\(expected: "
                        + "a key already stored, or room for a new one\\)\" \\(expected: OK\\)"), reason);
            }
        }
    }

    @Test
    void aServerWithoutTheMethodsFailsEveryCheckWithItsStatus() {
        RpcServer empty = rpcServer(new RpcDispatcher());
        try {
            Driven run = Driven.open(new KvRpcWorkload(2, 0.5), 0, 2, connect(empty.address()));
            run.calls(10, 4);
            assertEquals(10, run.badReasons().size());
            for (String reason : run.badReasons()) {
                assertTrue(reason.matches("(put|get) " + KEY + ": got NOT_FOUND \"no method or route 'kv\\.(put|get)'\" "
                        + "\\(expected: (OK|missing|value \"" + VALUE + "\")\\)"), reason);
            }
        } finally {
            empty.close();
        }
    }

    @Test
    void anAnswerThatIsNotTheMethodsMessageIsBad() {
        RpcDispatcher wrong = new RpcDispatcher();
        wrong.register("kv.get", RpcHandler.sync(payload -> ByteString.copyFrom(new byte[] {(byte) 0xff})));
        RpcServer server = rpcServer(wrong);
        try {
            Driven run = Driven.open(new KvRpcWorkload(1, 1.0), 0, 2, connect(server.address()));
            run.calls(1, 1);
            assertTrue(run.checks.get(0).reason().matches("get " + KEY + ": got an answer that is not a GetReply \\(.+\\) "
                    + "\\(expected: missing\\)"), run.checks.get(0).reason());
        } finally {
            server.close();
        }
    }

    @Test
    void aCallNoLongerRememberedSaysSo() {
        Driven run = Driven.open(new KvRpcWorkload(1, 0.5), 0, 1, null);
        Check check = run.conversation.check(run.context.at(999), new RpcReply(RpcStatus.OK, ByteString.EMPTY, ""));
        assertEquals("request 999: not remembered (expected: one of the last 4096 requests of its connection; "
                + "is more than that in flight?)", check.reason());
    }

    private RpcClient connect(InetSocketAddress address) {
        return await(clients.connect(address));
    }

    private static RpcServer rpcServer(RpcDispatcher methods) {
        return RpcServer.builder().config(ServerConfig.builder().host("127.0.0.1").tcpPort(0).build())
                .dispatcher(methods).build().startAndAwait();
    }

    private static String key(RpcCall call) {
        try {
            return call.method().equals("kv.get") ? GetRequest.parseFrom(call.payload()).getKey()
                    : PutRequest.parseFrom(call.payload()).getKey();
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    /** One conversation and what it called, was answered and said. */
    private static final class Driven {
        final RpcConversation conversation;
        final FakeContext context;
        final RpcClient client;
        final Random order = new Random(11);
        final List<RpcCall> made = new ArrayList<>();
        final List<RpcReply> replies = new ArrayList<>();
        final List<GetReply> answers = new ArrayList<>();
        final List<Check> checks = new ArrayList<>();

        private Driven(RpcConversation conversation, FakeContext context, RpcClient client) {
            this.conversation = conversation;
            this.context = context;
            this.client = client;
        }

        static Driven open(KvRpcWorkload workload, long connection, long seed, RpcClient client) {
            FakeContext context = new FakeContext(connection, seed);
            return new Driven(workload.open(context.at(-1)), context, client);
        }

        /** Makes {@code count} more calls, {@code inFlight} at a time, and checks each batch's answers shuffled. */
        void calls(int count, int inFlight) {
            int first = made.size();
            List<CompletableFuture<RpcReply>> pending = new ArrayList<>();
            for (int s = first; s < first + count; s++) {
                RpcCall call = conversation.request(context.at(s));
                made.add(call);
                replies.add(null);
                checks.add(null);
                pending.add(client.call(call.method(), call.payload()).handle(Driven::reply));
                if (pending.size() == inFlight || s == first + count - 1) {
                    int batch = s - pending.size() + 1;
                    List<Integer> shuffled = new ArrayList<>();
                    for (int i = 0; i < pending.size(); i++) {
                        shuffled.add(i);
                    }
                    Collections.shuffle(shuffled, order);
                    for (int i : shuffled) {
                        check(batch + i, await(pending.get(i)));
                    }
                    pending.clear();
                }
            }
        }

        private void check(int sequence, RpcReply reply) {
            replies.set(sequence, reply);
            checks.set(sequence, conversation.check(context.at(sequence), reply));
            if (reply.isOk() && made.get(sequence).method().equals("kv.get")) {
                try {
                    answers.add(GetReply.parseFrom(reply.payload()));
                } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                    // A wrong server's answer: the check has said so.
                }
            }
        }

        /** An answer as the engine gives it to a check: OK with its bytes, or the status and detail. */
        private static RpcReply reply(ByteString payload, Throwable failure) {
            if (failure == null) {
                return new RpcReply(RpcStatus.OK, payload, "");
            }
            if (failure instanceof RpcException e) {
                return new RpcReply(e.status(), ByteString.EMPTY, e.detail());
            }
            throw new AssertionError("not an RPC failure", failure);
        }

        List<String> badReasons() {
            return checks.stream().filter(c -> !c.isOk()).map(Check::reason).toList();
        }

        void assertAllOk() {
            assertEquals(List.of(), badReasons());
        }
    }
}
