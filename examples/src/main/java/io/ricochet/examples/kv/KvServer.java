package io.ricochet.examples.kv;

import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcServer;
import io.ricochet.transport.EventLoops;
import io.ricochet.transport.RicochetServer;
import io.ricochet.transport.ServerStartException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * The example key-value service: one {@link KvStore} behind two front ends, the text protocol of {@link KvTextHandler}
 * on a TCP port and the RPC methods of {@link KvMethods} on an RPC port, both on one group of event loops. The TCP
 * port frames as docs/protocol.md says, with the 2-byte length field: a body of at most 4,094 bytes (a longer length
 * closes the connection after the replies owed), far above the longest valid request (1,093 bytes). The RPC port takes
 * payloads of at most {@value #MAX_RPC_PAYLOAD} bytes. From the command line ({@link #main}):
 *
 * <pre>
 * java -cp examples/target/ricochet-examples-0.1.0-SNAPSHOT.jar:load-generator/target/load-generator.jar \
 *     io.ricochet.examples.kv.KvServer [--host 127.0.0.1] [--tcp-port 7200] [--rpc-port 7300] [--max-keys 100000]
 * </pre>
 *
 * From code:
 *
 * <pre>{@code
 * try (KvServer server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 10_000))) {
 *     System.out.println("text on " + server.tcpAddress() + ", rpc on " + server.rpcAddress());
 *     server.terminationFuture().join();   // until server.stop()
 * }
 * }</pre>
 */
public final class KvServer implements AutoCloseable {
    /**
     * The RPC port's payload limit: the largest valid request (a 64-byte key and a 1,024-byte value, with their tags
     * and lengths) and more, so a frame that no valid call needs is refused by its length field before it is read.
     */
    static final int MAX_RPC_PAYLOAD = 4 * 1024;

    private final KvStore store;
    private final EventLoops loops;
    private final RicochetServer text;
    private final RpcServer rpc;

    private KvServer(KvStore store, EventLoops loops, RicochetServer text, RpcServer rpc) {
        this.store = store;
        this.loops = loops;
        this.text = text;
        this.rpc = rpc;
    }

    /**
     * Binds both ports and serves; throws {@link ServerStartException} (a port taken, an address wrong) having
     * released what it took.
     */
    public static KvServer start(KvServerConfig config) {
        KvStore store = new KvStore(config.maxKeys());
        EventLoops loops = EventLoops.create(TransportKind.AUTO, 0, "kv-io");
        RicochetServer text = RicochetServer.builder()
                .config(ServerConfig.builder().host(config.host()).tcpPort(config.tcpPort()).build())
                .handler(new KvTextHandler(store))
                .eventLoops(loops, false)
                .name("kv-text")
                .build();
        RpcDispatcher methods = new RpcDispatcher();
        new KvMethods(store).registerOn(methods);
        RpcServer rpc = RpcServer.builder()
                .config(ServerConfig.builder().host(config.host()).tcpPort(config.rpcPort()).build())
                .rpc(RpcConfig.builder().maxPayload(MAX_RPC_PAYLOAD).build())
                .dispatcher(methods)
                .eventLoops(loops, false)
                .name("kv-rpc")
                .build();
        KvServer server = new KvServer(store, loops, text, rpc);
        try {
            text.startAndAwait();
            rpc.startAndAwait();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The text protocol's bound address. */
    public InetSocketAddress tcpAddress() {
        return text.tcpAddress();
    }

    /** The RPC port's bound address. */
    public InetSocketAddress rpcAddress() {
        return rpc.address();
    }

    /** The store both front ends serve. */
    public KvStore store() {
        return store;
    }

    /** Completes once a {@link #stop()} has finished. */
    public CompletableFuture<Void> terminationFuture() {
        return text.terminationFuture().thenCombine(rpc.terminationFuture(), (a, b) -> null);
    }

    /**
     * Stops gracefully: both ports stop accepting, answer what they were sent and close each connection lingering
     * (within the framework's shutdown timeout); then the event loops stop. Idempotent.
     */
    public CompletableFuture<Void> stop() {
        return text.stop().thenCombine(rpc.stop(), (a, b) -> null).thenCompose(v -> loops.shutdown());
    }

    /** {@link #stop()}, waited for. Not from one of the server's event loops. */
    @Override
    public void close() {
        stop().join();
    }

    /**
     * {@code KvServer [--host 127.0.0.1] [--tcp-port 7200] [--rpc-port 7300] [--max-keys 100000]}: prints {@code
     * listening tcp HOST:PORT} and {@code listening rpc HOST:PORT} once bound, and serves until SIGTERM or SIGINT,
     * then stops gracefully and exits 0. A bad flag is one line on stderr and exit 2; a port that cannot be bound,
     * one line and exit 1.
     */
    public static void main(String[] args) {
        System.exit(KvServerCommand.run(args, SignalStop.install()));
    }
}
