package io.ricochet.echo.rpc;

import com.google.protobuf.ByteString;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcMethod;
import io.ricochet.echo.rpc.proto.BenchMessage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark methods of the echo server. {@code bench.update} decodes a {@link BenchMessage}, sets
 * the server's sequence number and receive time, and encodes it back (nbagent's RPC test);
 * {@code echo.reverse} answers the payload reversed.
 */
public final class BenchMethods {
    public static final String UPDATE = "bench.update";
    public static final String REVERSE = "echo.reverse";
    /** {@code bench.update} as a typed method: a {@link BenchMessage} in, the same message stamped by the server out. */
    public static final MethodDescriptor<BenchMessage, BenchMessage> UPDATE_METHOD = MethodDescriptor.of(UPDATE,
            BenchMessage.getDefaultInstance(), BenchMessage.getDefaultInstance());

    private final AtomicLong sequence = new AtomicLong();

    /** Registers both methods on {@code dispatcher}. */
    public void registerOn(RpcDispatcher dispatcher) {
        dispatcher.register(UPDATE_METHOD, RpcMethod.sync(this::update));
        dispatcher.register(REVERSE, RpcHandler.sync(BenchMethods::reverse));
    }

    BenchMessage update(BenchMessage message) {
        return message.toBuilder()
                .setServerSequence(sequence.incrementAndGet())
                .setServerReceiveTimeMicros(System.currentTimeMillis() * 1000)
                .build();
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
