import io.ricochet.config.ServerConfig;
import io.ricochet.rpc.RpcConfig;
import io.ricochet.rpc.RpcDispatcher;
import io.ricochet.rpc.RpcService;
import io.ricochet.transport.server.RicochetServer;
import java.util.concurrent.CompletableFuture;

/**
 * An RPC server that answers pings (and the version handshake) but meets every call with silence: the
 * reliability issue's fault 2 peer, for bench/hostile-peers-2.sh. Run with the echo server's jar on the class path:
 *
 * <pre>java -cp echo-server.jar bench/hostile/SilentRpcServer.java</pre>
 *
 * Prints {@code listening rpc HOST:PORT} and serves until killed.
 */
public final class SilentRpcServer {
    public static void main(String[] args) throws Exception {
        RpcDispatcher methods = new RpcDispatcher();
        methods.register("bench.update", request -> new CompletableFuture<>());
        RicochetServer server = RicochetServer.builder()
                .config(ServerConfig.builder().host("127.0.0.1").build())
                .listen(RpcService.builder().rpc(RpcConfig.builder().build()).dispatcher(methods).build().listener(0))
                .build().startAndAwait();
        System.out.println("listening rpc 127.0.0.1:" + server.tcpAddress().getPort());
        Thread.currentThread().join();
    }
}
