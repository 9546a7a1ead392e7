package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;
import static io.ricochet.examples.kv.Await.failure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.ricochet.examples.kv.proto.GetReply;
import io.ricochet.examples.kv.proto.GetRequest;
import io.ricochet.examples.kv.proto.PutRequest;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.rpc.RpcClients;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcStatus;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** kv.put and kv.get over a real loopback connection to a {@link KvServer} on ephemeral ports. */
@Timeout(30)
class KvMethodsTest {
    private KvServer server;
    private RpcClients clients;
    private RpcClient client;

    @BeforeEach
    void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 3));
        clients = RpcClients.create(RpcClientConfig.builder().build(), null);
        client = await(clients.connect(server.rpcAddress()));
    }

    @AfterEach
    void stop() {
        try {
            clients.close();
        } finally {
            server.close();
        }
    }

    @Test
    void aValuePutIsReadBackAndAPutReplacesIt() {
        put("user:42", "ada");
        assertEquals(found("ada"), get("user:42"));
        put("user:42", "grace");
        assertEquals(found("grace"), get("user:42"));
    }

    @Test
    void aKeyNeverPutIsNotFoundWithAnEmptyValue() {
        GetReply reply = get("never.put");
        assertFalse(reply.getFound());
        assertTrue(reply.getValue().isEmpty());
    }

    @Test
    void keysAndValuesAtTheirBoundsAreServed() {
        String key = "k".repeat(KvStore.MAX_KEY_BYTES);
        ByteString value = ByteString.copyFrom(new byte[KvStore.MAX_VALUE_BYTES]);
        await(client.call(KvMethods.PUT, PutRequest.newBuilder().setKey(key).setValue(value).build()));
        assertEquals(GetReply.newBuilder().setFound(true).setValue(value).build(), get(key));
        put("empty", "");
        assertEquals(GetReply.newBuilder().setFound(true).build(), get("empty"));
    }

    @Test
    void aKeyOutOfBoundsIsAnInvalidArgumentThatNamesIt() {
        assertEquals("key: \"a b\" (expected: 1..64 bytes of [A-Za-z0-9._:-])", refused(RpcStatus.INVALID_ARGUMENT,
                client.call(KvMethods.GET, GetRequest.newBuilder().setKey("a b").build())));
        assertEquals("key: \"\" (expected: 1..64 bytes of [A-Za-z0-9._:-])", refused(RpcStatus.INVALID_ARGUMENT,
                client.call(KvMethods.PUT, PutRequest.newBuilder().setKey("").build())));
        assertEquals("key: 65 characters (expected: 1..64 bytes of [A-Za-z0-9._:-])", refused(RpcStatus.INVALID_ARGUMENT,
                client.call(KvMethods.PUT, PutRequest.newBuilder().setKey("k".repeat(65)).build())));
        assertEquals(0, server.store().size());
    }

    @Test
    void aValueOverItsBoundIsAnInvalidArgumentAndNotStored() {
        PutRequest tooLong = PutRequest.newBuilder().setKey("k")
                .setValue(ByteString.copyFrom(new byte[KvStore.MAX_VALUE_BYTES + 1])).build();
        assertEquals("value: 1025 bytes (expected: 0..1024)",
                refused(RpcStatus.INVALID_ARGUMENT, client.call(KvMethods.PUT, tooLong)));
        assertFalse(get("k").getFound());
    }

    @Test
    void aPayloadOverTheServersLimitIsRefusedBeforeItIsParsed() {
        PutRequest huge = PutRequest.newBuilder().setKey("k")
                .setValue(ByteString.copyFrom(new byte[KvServer.MAX_RPC_PAYLOAD])).build();
        RpcException refused = assertInstanceOf(RpcException.class, failure(client.call(KvMethods.PUT, huge)));
        assertEquals(RpcStatus.RESOURCE_EXHAUSTED, refused.status(), refused.getMessage());
    }

    @Test
    void aFullStoreRefusesNewKeysButStillReplaces() {
        put("a", "1");
        put("b", "2");
        put("c", "3");
        assertEquals("full: 3 keys stored (expected: a key already stored, or room for a new one)",
                refused(RpcStatus.RESOURCE_EXHAUSTED, client.call(KvMethods.PUT, request("d", "4"))));
        put("a", "10");
        assertEquals(found("10"), get("a"));
        assertFalse(get("d").getFound());
    }

    @Test
    void bothFrontEndsShareOneStore() {
        try (TextClient text = new TextClient(server.tcpAddress())) {
            assertEquals("ok", text.call("put from.text t"));
            assertEquals(found("t"), get("from.text"));
            put("from.rpc", "r");
            assertEquals("value r", text.call("get from.rpc"));
        }
    }

    private void put(String key, String value) {
        await(client.call(KvMethods.PUT, request(key, value)));
    }

    private GetReply get(String key) {
        return await(client.call(KvMethods.GET, GetRequest.newBuilder().setKey(key).build()));
    }

    private static PutRequest request(String key, String value) {
        return PutRequest.newBuilder().setKey(key).setValue(ByteString.copyFromUtf8(value)).build();
    }

    private static GetReply found(String value) {
        return GetReply.newBuilder().setFound(true).setValue(ByteString.copyFromUtf8(value)).build();
    }

    /** The detail of the failure {@code call} ended with, after checking its status. */
    private static String refused(RpcStatus status, CompletableFuture<?> call) {
        RpcException e = assertInstanceOf(RpcException.class, failure(call));
        assertEquals(status, e.status(), e.getMessage());
        return e.detail();
    }
}
