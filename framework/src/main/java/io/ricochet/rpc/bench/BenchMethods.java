package io.ricochet.rpc.bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcStatus;
import io.ricochet.rpc.bench.proto.BenchMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark methods of the echo server. {@code bench.update} decodes a {@link BenchMessage}, sets
 * the server's sequence number and receive time, and encodes it back (nbagent's RPC test);
 * {@code echo.reverse} answers the payload reversed.
 */
public final class BenchMethods {
    public static final String UPDATE = "bench.update";
    public static final String REVERSE = "echo.reverse";

    private final AtomicLong sequence = new AtomicLong();

    /** Registers both methods on {@code dispatcher}. */
    public void registerOn(RpcDispatcher dispatcher) {
        dispatcher.register(UPDATE, request -> CompletableFuture.completedFuture(update(request.payload())));
        dispatcher.register(REVERSE, RpcHandler.sync(BenchMethods::reverse));
    }

    ByteString update(ByteString payload) {
        BenchMessage message;
        try {
            message = BenchMessage.parseFrom(payload);
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "payload is not a BenchMessage: " + e.getMessage());
        }
        return message.toBuilder()
                .setServerSequence(sequence.incrementAndGet())
                .setServerReceiveTimeMicros(System.currentTimeMillis() * 1000)
                .build().toByteString();
    }

    public static ByteString reverse(ByteString payload) {
        byte[] bytes = payload.toByteArray();
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
        return ByteString.copyFrom(bytes);
    }
}
