package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.await;
import static io.ricochet.rpc.RpcFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ends of the first RPC version, which close a connection on an envelope kind they do not know
 * ({@code CANCEL}) and answer {@code rpc.ping} with {@code NOT_FOUND}, played by hand on raw sockets.
 */
@Timeout(60)
class RpcVersionSkewTest {

    @Test
    void aServerThatDoesNotKnowPingsIsNeverSentACancel() throws Exception {
        try (RawRpcServer raw = new RawRpcServer();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            CompletableFuture<RpcClient> connecting = clients.connect(raw.address());
            try (RawRpcPeer old = raw.accept()) {
                RpcClient client = await(connecting);
                Envelope hello = old.receive();
                assertEquals(RpcConnection.PING, hello.getMethod());
                old.send(answer(hello, StatusCode.NOT_FOUND));
                CompletableFuture<ByteString> slow = client.call("slow", bytes("x"), Duration.ofSeconds(30));
                Envelope slowRequest = old.receive();
                slow.cancel(false);
                client.call("fast", bytes("y"));
                // Frames from one end arrive in the order sent: a CANCEL would come before the next request.
                Envelope next = old.receive();
                assertEquals(Kind.REQUEST, next.getKind(), "sent to an old server: " + next);
                assertEquals("fast", next.getMethod());
                assertEquals("slow", slowRequest.getMethod());
                old.send(answer(next, StatusCode.OK));
                assertTrue(client.isConnected());
            }
        }
    }

    @Test
    void aCancelMadeBeforeThePingIsAnsweredGoesOutOnceItIs() throws Exception {
        try (RawRpcServer raw = new RawRpcServer();
                RpcClients clients = RpcClients.create(RpcClientConfig.builder().build(), null)) {
            CompletableFuture<RpcClient> connecting = clients.connect(raw.address());
            try (RawRpcPeer current = raw.accept()) {
                RpcClient client = await(connecting);
                Envelope hello = current.receive();
                assertEquals(RpcConnection.PING, hello.getMethod());
                CompletableFuture<ByteString> slow = client.call("slow", bytes("x"), Duration.ofSeconds(30));
                Envelope slowRequest = current.receive();
                slow.cancel(false);
                client.call("marker", bytes("m"));
                assertEquals("marker", current.receive().getMethod(), "nothing before the ping is answered");
                current.send(answer(hello, StatusCode.OK));
                Envelope cancel = current.receive();
                assertEquals(Kind.CANCEL, cancel.getKind());
                assertEquals(slowRequest.getId(), cancel.getId());
            }
        }
    }

    /** A client of the first version never pings: the agent does not pass cancels on to it either. */
    @Test
    void anAgentNeverSendsACancelToAnOwnerThatDoesNotPing() throws Exception {
        try (RpcFixture f = new RpcFixture(); RawRpcPeer old = new RawRpcPeer(f.server.address(), 0)) {
            old.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod(RpcAgent.REGISTER)
                    .setPayload(RpcAgent.route("svc/old")).build());
            assertEquals(StatusCode.OK, old.receive().getStatus());
            RpcClient caller = f.client();
            CompletableFuture<ByteString> call = caller.call("svc/old", bytes("x"), Duration.ofSeconds(30));
            Envelope forwarded = old.receive();
            assertEquals("svc/old", forwarded.getMethod());
            call.cancel(false);
            CompletableFuture<ByteString> second = caller.call("svc/old", bytes("y"), Duration.ofSeconds(30));
            Envelope next = old.receive();
            assertEquals(Kind.REQUEST, next.getKind(), "sent to an old owner: " + next);
            old.send(answer(next, StatusCode.OK));
            assertEquals(ByteString.EMPTY, await(second));
        }
    }

    /**
     * An envelope kind of a later version, or kind 0 (the field left out), is dropped and counted, and the connection
     * goes on, as docs/rpc.md says. Kind 0 once closed the connection, to a client written from the docs alone.
     */
    @ParameterizedTest(name = "kind {0}")
    @ValueSource(ints = {0, 99})
    void anEnvelopeOfAnUnknownKindIsDroppedAndCountedNotFatal(int kind) throws Exception {
        try (RpcFixture f = new RpcFixture(); RawRpcPeer newer = new RawRpcPeer(f.server.address(), 0)) {
            f.methods.register("echo", RpcHandler.sync(p -> p));
            newer.send(Envelope.newBuilder().setId(7).setKindValue(kind).setMethod("echo").build());
            newer.send(Envelope.newBuilder().setId(8).setKind(Kind.REQUEST).setMethod("echo").setPayload(bytes("still"))
                    .build());
            Envelope answer = newer.receive();
            assertEquals(8, answer.getId());
            assertEquals("still", answer.getPayload().toStringUtf8());
            assertEquals(1.0, f.serverRegistry.get(RpcMetrics.ENVELOPES_DROPPED).tag("name", RpcServer.METER_TAG)
                    .counter().count());
            // Nothing was served for the dropped one: only the echo of id 8 counts.
            assertEquals(1L, f.serverRegistry.get(RpcMetrics.SERVER_REQUESTS).tag("method", "echo").tag("status", "OK")
                    .timer().count());
        }
    }

    private static Envelope answer(Envelope request, StatusCode status) {
        return Envelope.newBuilder().setId(request.getId()).setKind(Kind.RESPONSE).setStatus(status).build();
    }
}
