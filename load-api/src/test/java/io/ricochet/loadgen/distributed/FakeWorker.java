package io.ricochet.loadgen.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.ricochet.loadgen.distributed.proto.Done;
import io.ricochet.loadgen.distributed.proto.Hello;
import io.ricochet.loadgen.distributed.proto.IntervalReport;
import io.ricochet.loadgen.distributed.proto.Ready;
import io.ricochet.rpc.RpcClient;
import io.ricochet.rpc.RpcException;
import io.ricochet.rpc.RpcHandler;
import io.ricochet.rpc.RpcStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** One connection to a controller's coordination endpoint, saying whatever a test makes it say. */
final class FakeWorker implements AutoCloseable {
    private final RpcClient client;
    private final Duration timeout;
    private final CountDownLatch started = new CountDownLatch(1);

    FakeWorker(RpcClient client, Duration timeout) {
        this.client = client;
        this.timeout = timeout;
        client.handle(Coordination.START, RpcHandler.sync(payload -> {
            started.countDown();
            return ByteString.EMPTY;
        }));
        client.handle(Coordination.STOP, RpcHandler.sync(payload -> ByteString.EMPTY));
    }

    static IntervalReport.Builder report(int index, long interval) {
        return IntervalReport.newBuilder().setIndex(index).setInterval(interval).setElapsedS(interval + 1.0)
                .setStartMillis(1_000_000 + interval * 1000).setEndMillis(1_001_000 + interval * 1000);
    }

    static Done done(int index) {
        return Done.newBuilder().setIndex(index).setExitCode(0).setSummaryJson("{\"connections\": 1}").build();
    }

    CompletableFuture<ByteString> call(String method, MessageLite message) {
        return client.call(method, message.toByteString(), timeout);
    }

    /** Calls {@code method}; it must succeed. */
    ByteString accepted(String method, MessageLite message) throws Exception {
        return call(method, message).get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    }

    /** Calls {@code method}; it must be refused with {@code status}. */
    RpcException refused(String method, MessageLite message, RpcStatus status) throws Exception {
        return refused(call(method, message), status);
    }

    static RpcException refused(CompletableFuture<ByteString> call, RpcStatus status) throws Exception {
        try {
            call.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            RpcException r = assertInstanceOf(RpcException.class, e.getCause());
            assertEquals(status, r.status(), r.getMessage());
            return r;
        }
        return fail("accepted (expected: refused with " + status + ")");
    }

    void hello(int index) throws Exception {
        accepted(Coordination.HELLO, Hello.newBuilder().setIndex(index).setHost("test").setPid(1).build());
    }

    void ready(int index) throws Exception {
        accepted(Coordination.READY, Ready.newBuilder().setIndex(index).build());
    }

    /** Waits for the controller's {@code worker.start}. */
    void awaitStart() throws InterruptedException {
        assertTrue(started.await(30, TimeUnit.SECONDS), "worker.start never came");
    }

    @Override
    public void close() {
        client.close();
    }
}
