package io.ricochet.examples.kv;

import com.google.protobuf.ByteString;
import io.ricochet.examples.kv.proto.GetReply;
import io.ricochet.examples.kv.proto.GetRequest;
import io.ricochet.examples.kv.proto.PutReply;
import io.ricochet.examples.kv.proto.PutRequest;
import io.ricochet.rpc.MethodDescriptor;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcMethod;
import io.ricochet.rpc.RpcStatus;

/**
 * The RPC front end of a {@link KvStore}: the typed methods {@code kv.put} and {@code kv.get} (messages in
 * {@code kv.proto}). A key out of bounds or a value over {@value KvStore#MAX_VALUE_BYTES} bytes answers {@code
 * INVALID_ARGUMENT}, and a new key while the store is full {@code RESOURCE_EXHAUSTED}.
 *
 * <pre>{@code
 * RpcDispatcher methods = new RpcDispatcher();
 * new KvMethods(store).registerOn(methods);
 * // at a client:
 * client.call(KvMethods.PUT, PutRequest.newBuilder().setKey("user:42").setValue(ByteString.copyFromUtf8("ada"))
 *         .build()).join();
 * GetReply reply = client.call(KvMethods.GET, GetRequest.newBuilder().setKey("user:42").build()).join();
 * }</pre>
 */
public final class KvMethods {
    public static final MethodDescriptor<PutRequest, PutReply> PUT = MethodDescriptor.of("kv.put",
            PutRequest.getDefaultInstance(), PutReply.getDefaultInstance());
    public static final MethodDescriptor<GetRequest, GetReply> GET = MethodDescriptor.of("kv.get",
            GetRequest.getDefaultInstance(), GetReply.getDefaultInstance());

    private static final GetReply MISSING = GetReply.getDefaultInstance();
    private static final PutReply STORED = PutReply.getDefaultInstance();

    private final KvStore store;

    public KvMethods(KvStore store) {
        if (store == null) {
            throw new IllegalArgumentException("store: null (expected: a store)");
        }
        this.store = store;
    }

    /**
     * Registers both methods on {@code dispatcher}, to run on the event loop (the store never blocks). So the calls of
     * one connection take effect in the order the server read them, which is the order they were made: a get made
     * after a put on the same connection sees it, whatever order the answers come back in.
     */
    public void registerOn(RpcDispatcher dispatcher) {
        dispatcher.register(PUT, RpcMethod.sync(this::put));
        dispatcher.register(GET, RpcMethod.sync(this::get));
    }

    PutReply put(PutRequest request) {
        checkKey(request.getKey());
        int size = request.getValue().size();
        if (size > KvStore.MAX_VALUE_BYTES) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "value: " + size + " bytes (expected: 0.."
                    + KvStore.MAX_VALUE_BYTES + ")");
        }
        if (!store.put(request.getKey(), request.getValue())) {
            throw new RpcException(RpcStatus.RESOURCE_EXHAUSTED, "full: " + store.maxKeys()
                    + " keys stored (expected: a key already stored, or room for a new one)");
        }
        return STORED;
    }

    GetReply get(GetRequest request) {
        checkKey(request.getKey());
        ByteString value = store.get(request.getKey());
        return value == null ? MISSING : GetReply.newBuilder().setFound(true).setValue(value).build();
    }

    private static void checkKey(String key) {
        String problem = KvStore.keyProblem(key);
        if (problem != null) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, problem);
        }
    }
}
