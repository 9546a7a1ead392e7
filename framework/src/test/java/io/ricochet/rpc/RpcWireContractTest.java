package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.ricochet.config.TransportKind;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import io.ricochet.testing.Meters;
import io.ricochet.testing.TestServers;
import java.io.EOFException;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What docs/rpc.md tells a client written from it alone about the wire: the built-in ping, and malformed envelopes. */
@Timeout(60)
class RpcWireContractTest {

    @Test
    void aPingIsAnsweredWithItsIdAndNoPayloadEvenBeforeAuthenticating() throws Exception {
        try (RpcServer server = server(); RawRpcPeer peer = new RawRpcPeer(server.address(), 0)) {
            peer.send(Envelope.newBuilder().setId(42).setKind(Kind.REQUEST).setMethod(RpcConnection.PING)
                    .setPayload(bytes("ignored")).build());
            Envelope pong = peer.receive();
            assertEquals(Envelope.newBuilder().setId(42).setKind(Kind.RESPONSE).build(), pong);
            // A one-way ping is not answered: the next frame is the answer to the request after it.
            peer.send(Envelope.newBuilder().setKind(Kind.ONE_WAY).setMethod(RpcConnection.PING).build());
            peer.send(Envelope.newBuilder().setId(43).setKind(Kind.REQUEST).setMethod("echo.reverse").build());
            Envelope next = peer.receive();
            assertEquals(43, next.getId());
            assertEquals(StatusCode.UNAUTHENTICATED, next.getStatus());
        }
    }

    enum Malformed {
        /** Not protobuf at all: a field number of 0. */
        GARBAGE(new byte[] {0, 0, 0, 0}),
        /** A length-delimited field running past the end of the body. */
        TRUNCATED(new byte[] {0x1a, 0x7f, 'a'}),
        /** Kind REQUEST and a method that is not UTF-8, which proto3 requires of strings. */
        METHOD_NOT_UTF8(new byte[] {0x10, 0x01, 0x1a, 0x02, (byte) 0xc3, 0x28});

        final byte[] body;

        Malformed(byte[] body) {
            this.body = body;
        }
    }

    @ParameterizedTest
    @EnumSource(Malformed.class)
    void aMalformedEnvelopeClosesTheConnection(Malformed malformed) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (RpcServer server = server(registry)) {
            try (RawRpcPeer peer = new RawRpcPeer(server.address(), 0)) {
                peer.sendFrame(malformed.body);
                assertThrows(EOFException.class, peer::receive);
            }
            // Counted once the server's linger ends, at this peer's FIN.
            Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> Meters.closedOf(registry, RpcServer.METER_TAG, "peer") == 1.0);
        }
    }

    private static RpcServer server() {
        return server(new SimpleMeterRegistry());
    }

    private static RpcServer server(SimpleMeterRegistry registry) {
        RpcDispatcher methods = new RpcDispatcher();
        TestMethods.registerOn(methods);
        return RpcServer.builder().config(TestServers.config(TransportKind.AUTO).idleTimeout(Duration.ofMinutes(5)).build())
                .dispatcher(methods).agent(true).authenticator(RpcAuthenticator.bearerToken("secret"))
                .meterRegistry(registry).build().startAndAwait();
    }
}
