package io.ricochet.loadgen.scrape;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read as UTF-8 text, up to a bound: a body that says (Content-Length) or turns out to be longer fails
 * with an {@link IOException} and is not read further, so a server cannot make a scrape hold more than the bound.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
    private final int max;
    private final long declared;
    private final CompletableFuture<String> result = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    private BoundedBody(int max, long declared) {
        this.max = max;
        this.declared = declared;
    }

    /** Bodies of at most {@code max} bytes. */
    static HttpResponse.BodyHandler<String> handler(int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("max: " + max + " (expected: > 0)");
        }
        return info -> new BoundedBody(max, info.headers().firstValueAsLong("content-length").orElse(-1));
    }

    @Override
    public CompletionStage<String> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (declared > max) {
            tooLong(declared);
            return;
        }
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if ((long) bytes.size() + buffer.remaining() > max) {
                tooLong((long) bytes.size() + buffer.remaining());
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toString(StandardCharsets.UTF_8));
    }

    private void tooLong(long length) {
        subscription.cancel();
        result.completeExceptionally(new IOException("body of " + length + " bytes or more (expected: <= " + max + ")"));
    }
}
