package io.ricochet.rpc;

import com.google.protobuf.ByteString;

/** Methods for the RPC tests: a reversing method and a second one, as the echo server's benchmark methods are. */
final class TestMethods {
    static final String REVERSE = "echo.reverse";
    static final String UPDATE = "bench.update";

    private TestMethods() {
    }

    static void registerOn(RpcDispatcher dispatcher) {
        dispatcher.register(REVERSE, RpcHandler.sync(TestMethods::reverse));
        dispatcher.register(UPDATE, RpcHandler.sync(payload -> payload));
    }

    static ByteString reverse(ByteString payload) {
        byte[] bytes = payload.toByteArray();
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
        return ByteString.copyFrom(bytes);
    }
}
