package io.ricochet.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * Writes one whole answer. After a keep-alive answer {@link OneRequestAtATimeHandler} reads the next request
 * once it is written; any other answer ends the connection through {@link LingeringCloseHandler}.
 * Each answer is flushed at once: with one request at a time there is nothing to batch it with.
 */
final class HttpResponder {
    static final String TEXT = "text/plain; charset=utf-8";

    private HttpResponder() {
    }

    /** Answers with {@code body}, taking ownership of it; a HEAD answer keeps the length and drops the body. */
    static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType, ByteBuf body,
            boolean head, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, body.readableBytes());
        if (head) {
            body.clear();
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        ChannelFuture written = ctx.writeAndFlush(response);
        if (!keepAlive) {
            written.addListener(LingeringCloseHandler.AFTER_WRITE);
        }
    }

    static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String text, boolean head,
            boolean keepAlive) {
        respond(ctx, status, TEXT, ByteBufUtil.writeUtf8(ctx.alloc(), text), head, keepAlive);
    }
}
