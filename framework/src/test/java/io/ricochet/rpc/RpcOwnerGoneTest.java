package io.ricochet.rpc;

import static io.ricochet.rpc.RpcFixture.bytes;
import static io.ricochet.rpc.RpcFixture.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.StatusCode;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.Arrays;
import java.util.stream.Stream;
import io.ricochet.config.TransportKind;
import io.ricochet.testing.Transports;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A route's owner that goes away with a forwarded call in flight. The agent once waited for the answers its own
 * hops were owed, which a gone owner never gives: the caller got DEADLINE_EXCEEDED at its deadline instead of
 * UNAVAILABLE at once, and the route kept taking calls, each one keeping the dead connection open a while longer.
 */
@Timeout(60)
class RpcOwnerGoneTest {
    /** Long enough that a call ending by its deadline cannot pass for one failed at once. */
    private static final Duration DEADLINE = Duration.ofSeconds(8);

    enum Leaving {
        /** Closes its socket: a FIN. */
        FIN,
        /** Shuts its output down and goes on reading: it can hear calls but never answer them. */
        HALF_CLOSE,
        /** Closes with a reset, as a crashed host's firewall does. */
        RST;

        void leave(RawRpcPeer owner) throws IOException {
            switch (this) {
                case FIN -> owner.close();
                case HALF_CLOSE -> owner.shutdownOutput();
                case RST -> owner.reset();
            }
        }
    }

    static Stream<Arguments> transportsAndLeavings() {
        return Transports.available().flatMap(t -> Arrays.stream(Leaving.values()).map(l -> Arguments.of(t, l)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("transportsAndLeavings")
    void aCallInFlightToAnOwnerThatLeavesFailsAtOnceAndItsRouteGoes(TransportKind transport, Leaving leaving)
            throws Exception {
        try (RpcFixture f = new RpcFixture(transport, RpcConfig.DEFAULTS, RpcClientConfig.builder().build());
                RawRpcPeer owner = new RawRpcPeer(f.server.address(), 0)) {
            owner.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod(RpcAgent.REGISTER)
                    .setPayload(RpcAgent.route("svc/gone")).build());
            assertEquals(StatusCode.OK, owner.receive().getStatus());
            RpcClient caller = f.client();
            long start = System.nanoTime();
            CompletableFuture<ByteString> inFlight = caller.call("svc/gone", bytes("x"), DEADLINE);
            assertEquals("svc/gone", owner.receive().getMethod(), "the call reached its owner");

            leaving.leave(owner);

            assertEquals(RpcStatus.UNAVAILABLE, failure(inFlight));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis < DEADLINE.toMillis() / 2, "failed after " + tookMillis + " ms, not at once");
            // The owner is gone by the time its caller hears so: the next call is not forwarded into the void.
            assertEquals(0, f.server.agent().routes());
            assertEquals(RpcStatus.NOT_FOUND, failure(caller.call("svc/gone", bytes("y"), DEADLINE)));
        }
    }

    /**
     * The reset as the attack found it: nobody writes to the owner after it, and another caller calls again. In about half the runs that call was forwarded to the dead owner and answered UNAVAILABLE, and the call
     * in flight failed only then: the agent had not seen the reset until it wrote.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.ricochet.testing.Transports#available")
    void aResetOwnersRoutesGoAtOnceThoughNoOneWrites(TransportKind transport) throws Exception {
        try (RpcFixture f = new RpcFixture(transport, RpcConfig.DEFAULTS, RpcClientConfig.builder().build())) {
            RpcClient caller = f.client();
            RpcClient another = f.client();
            for (int round = 0; round < 10; round++) {
                String route = "svc/reset-" + round;
                CompletableFuture<ByteString> inFlight;
                try (RawRpcPeer owner = new RawRpcPeer(f.server.address(), 0)) {
                    owner.send(Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod(RpcAgent.REGISTER)
                            .setPayload(RpcAgent.route(route)).build());
                    assertEquals(StatusCode.OK, owner.receive().getStatus());
                    inFlight = caller.call(route, bytes("x"), DEADLINE);
                    assertEquals(route, owner.receive().getMethod(), "the call reached its owner");
                    long resetAt = System.nanoTime();
                    owner.reset();
                    // Nobody writes to the owner meanwhile: only the reset itself can end the call.
                    org.awaitility.Awaitility.await("round " + round + ": the call in flight ended by its owner's reset")
                            .atMost(Duration.ofSeconds(1)).until(inFlight::isDone);
                    assertEquals(RpcStatus.UNAVAILABLE, failure(inFlight));
                    assertEquals(RpcStatus.NOT_FOUND, failure(another.call(route, bytes("y"), DEADLINE)),
                            "round " + round + ": " + (System.nanoTime() - resetAt) / 1_000_000 + " ms after the reset");
                }
            }
        }
    }
}
