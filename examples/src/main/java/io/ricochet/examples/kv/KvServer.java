package io.ricochet.examples.kv;

import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcService;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.server.ServerStartException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * The example key-value service: one {@link KvStore} behind two front ends, the text protocol of {@link KvTextHandler}
 * on a TCP port and the RPC methods of {@link KvMethods} on an RPC port: two listeners of one server. The TCP
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
    private final RicochetServer server;
    private final Listener text;
    private final Listener rpc;

    private KvServer(KvStore store, RicochetServer server, Listener text, Listener rpc) {
        this.store = store;
        this.server = server;
        this.text = text;
        this.rpc = rpc;
    }

    /**
     * Binds both ports and serves; throws {@link ServerStartException} (a port taken, an address wrong) having
     * released what it took.
     */
    public static KvServer start(KvServerConfig config) {
        KvStore store = new KvStore(config.maxKeys());
        RpcDispatcher methods = new RpcDispatcher();
        new KvMethods(store).registerOn(methods);
        RpcService service = RpcService.builder().rpc(RpcConfig.builder().maxPayload(MAX_RPC_PAYLOAD).build())
                .dispatcher(methods).build();
        // One server, two front ends: each listener's meters under a name of its own.
        Listener text = Listener.tcp(config.tcpPort()).handler(new KvTextHandler(store)).name("kv-text");
        Listener rpc = service.listener(config.rpcPort()).name("kv-rpc");
        RicochetServer server = RicochetServer.builder()
                .config(ServerConfig.builder().host(config.host()).transport(TransportKind.AUTO).build())
                .listen(text)
                .listen(rpc)
                .build()
                .startAndAwait();
        return new KvServer(store, server, text, rpc);
    }

    /** The text protocol's bound address. */
    public InetSocketAddress tcpAddress() {
        return server.address(text);
    }

    /** The RPC port's bound address. */
    public InetSocketAddress rpcAddress() {
        return server.address(rpc);
    }

    /** The store both front ends serve. */
    public KvStore store() {
        return store;
    }

    /** Completes once a {@link #stop()} has finished. */
    public CompletableFuture<Void> terminationFuture() {
        return server.terminationFuture();
    }

    /**
     * Stops gracefully: both ports stop accepting, answer what they were sent and close each connection lingering
     * (within the framework's shutdown timeout); then the event loops stop. Idempotent.
     */
    public CompletableFuture<Void> stop() {
        return server.stop();
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
