package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.config.TransportKind;
import io.ricochet.transport.EventLoops;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One-way sends are checked as calls are, and say how they went instead of tearing the connection down. */
@Timeout(60)
class RpcOneWayTest {

    @Test
    void anUnsendableOneWayIsRefusedAndTheConnectionAndItsCallsStay() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CompletableFuture<ByteString> answer = new CompletableFuture<>();
            CountDownLatch waiting = new CountDownLatch(1);
            f.methods.register("wait", request -> {
                waiting.countDown();
                return answer;
            });
            RpcClient client = f.client();
            CompletableFuture<ByteString> pending = client.call("wait", bytes("x"), Duration.ofSeconds(30));
            assertTrue(waiting.await(10, TimeUnit.SECONDS));
            ByteString tooBig = ByteString.copyFrom(new byte[RpcConfig.DEFAULTS.maxPayload() + 1]);
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.send("note", tooBig)));
            assertEquals(RpcStatus.RESOURCE_EXHAUSTED, failure(client.connection().send("note", tooBig)));
            String longName = "m".repeat(RpcConfig.MAX_METHOD_LENGTH + 1);
            assertEquals(RpcStatus.INVALID_ARGUMENT, failure(client.send(longName, bytes("x"))));
            assertEquals(RpcStatus.INVALID_ARGUMENT, failure(client.call(longName, bytes("x"))));
            assertTrue(client.isConnected());
            answer.complete(bytes("done"));
            assertEquals("done", await(pending).toStringUtf8());
        }
    }

    @Test
    void aOneWayThatIsSentCompletesAndOneWithNoConnectionFails() throws Exception {
        try (RpcFixture f = new RpcFixture()) {
            CountDownLatch arrived = new CountDownLatch(1);
            f.methods.register("note", request -> {
                arrived.countDown();
                return CompletableFuture.completedFuture(ByteString.EMPTY);
            });
            RpcClient client = f.client();
            assertEquals(null, await(client.send("note", bytes("x"))));
            assertTrue(arrived.await(10, TimeUnit.SECONDS));
            client.close();
            assertEquals(RpcStatus.UNAVAILABLE, failure(client.send("note", bytes("x"))));
        }
    }

    /** The connection's event loop is gone: the send fails its future instead of throwing at the caller. */
    @Test
    void aOneWayAfterItsEventLoopShutDownFailsItsFuture() throws Exception {
        EventLoops loops = EventLoops.create(TransportKind.AUTO, 1, "one-way");
        try (RpcFixture f = new RpcFixture();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().keepalive(Duration.ZERO).build(), null,
                        loops)) {
            RpcConnection connection = await(clients.connect(f.server.address())).connection();
            loops.shutdown().get(20, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
            assertEquals(RpcStatus.UNAVAILABLE, failure(connection.send("note", bytes("x"))));
            assertEquals(RpcStatus.UNAVAILABLE, failure(connection.call("note", bytes("x"))));
        } finally {
            loops.close();
        }
    }
}
