package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.transport.client.FrameClient.FrameExchange;
import io.ricochet.transport.client.FrameClient;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** One connection to the text protocol: each request frame's reply as text (ISO-8859-1, so every byte shows). */
final class TextClient implements AutoCloseable {
    private final FrameClient client = FrameClient.builder().build();
    private final FrameExchange exchange;

    TextClient(InetSocketAddress server) {
        FrameExchange connected;
        try {
            connected = await(client.connect(server));
        } catch (RuntimeException | AssertionError e) {
            client.close();
            throw e;
        }
        this.exchange = connected;
    }

    /** Sends {@code body} as one frame; completes with the reply's body (the caller releases it). */
    CompletableFuture<ByteBuf> send(ByteBuf body) {
        return exchange.request(body);
    }

    CompletableFuture<String> send(byte[] body) {
        return send(Unpooled.wrappedBuffer(body)).thenApply(TextClient::text);
    }

    String call(String request) {
        return await(send(request.getBytes(StandardCharsets.ISO_8859_1)));
    }

    static String text(ByteBuf reply) {
        try {
            return reply.toString(StandardCharsets.ISO_8859_1);
        } finally {
            reply.release();
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
