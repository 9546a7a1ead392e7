package io.ricochet.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.internal.OptionalLibrary;
import io.ricochet.noise.ClientNoiseConfig;
import io.ricochet.noise.NoiseKeyPair;
import io.ricochet.noise.ServerNoiseConfig;
import io.ricochet.rpc.RpcClientConfig;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.tls.ClientTlsConfig;
import io.ricochet.tls.ServerTlsConfig;
import io.ricochet.transport.Protocol;
import io.ricochet.transport.client.FrameClient;
import io.ricochet.transport.server.Listener;
import io.ricochet.transport.server.RicochetServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link WithoutOptionalLibrariesTest} in a JVM without noise-java and QUIC's codec: serves one frame over
 * plain TCP, then asks for Noise and QUIC at each entry point, printing one line per step.
 */
public final class WithoutOptionalLibrariesMain {
    private WithoutOptionalLibrariesMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("noise-java present: " + OptionalLibrary.NOISE.isPresent());
        System.out.println("quic present: " + OptionalLibrary.QUIC.isPresent());
        Listener tcp = Listener.tcp(0);
        try (RicochetServer server = RicochetServer.builder().handler(new ReverseEcho()).listen(tcp).build()
                .startAndAwait();
                FrameClient client = FrameClient.builder().build()) {
            FrameClient.FrameExchange exchange = client.connect(server.address(tcp)).get(10, TimeUnit.SECONDS);
            ByteBuf reply = exchange.request(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII))
                    .get(10, TimeUnit.SECONDS);
            try {
                System.out.println("tcp echo: " + reply.toString(StandardCharsets.US_ASCII));
            } finally {
                reply.release();
                exchange.close();
            }
        }
        NoiseKeyPair key = NoiseKeyPair.generate();
        attempt("Listener.noise", () -> Listener.tcp(0).noise(ServerNoiseConfig.of(key)));
        attempt("ServerBuilder.noise", () -> RicochetServer.builder().noise(ServerNoiseConfig.of(key)));
        attempt("FrameClient.Builder.noise",
                () -> FrameClient.builder().noise(ClientNoiseConfig.builder(key.publicKey()).build()));
        attempt("RpcClientConfig.Builder.noise",
                () -> RpcClientConfig.builder().noise(ClientNoiseConfig.builder(key.publicKey()).build()));
        attempt("ServerTlsConfig.buildQuic", () -> ServerTlsConfig.builder(Path.of("chain.pem"), Path.of("key.pem"))
                .build().buildQuic(Protocol.QUIC_ALPN));
        attempt("ClientTlsConfig.buildQuic",
                () -> ClientTlsConfig.builder().insecure().build().buildQuic(Protocol.QUIC_ALPN));
        attempt("Listener.quic", () -> Listener.quic(0, null));
        attempt("ServerBuilder.quic", () -> RicochetServer.builder().quic(null));
        attempt("FrameClient.Builder.quic", () -> FrameClient.builder().quic(null));
    }

    private static void attempt(String what, Runnable step) {
        try {
            step.run();
            System.out.println(what + ": no error");
        } catch (Throwable e) {
            System.out.println(what + ": " + e.getClass().getName() + ": " + e.getMessage());
        }
    }
}
