package io.ricochet.metrics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Serves a connection one request at a time. The channel does not read on its own (autoRead off) and the
 * {@code FlowControlHandler} in front hands out one request per read; this handler asks for a request, and
 * for the next one only once a keep-alive answer is fully written. A client that pipelines requests and
 * never reads therefore holds at most one answer in server memory. After a closing answer it asks for
 * nothing more. One instance per channel; event-loop confined.
 */
final class OneRequestAtATimeHandler extends ChannelDuplexHandler {
    /** A read was asked for and no request has come of it yet. */
    private boolean awaitingRequest;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        requestNext(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        awaitingRequest = false;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // The read ended with only part of a request: read on for the rest.
        if (awaitingRequest) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response && HttpUtil.isKeepAlive(response)) {
            promise = promise.unvoid();
            promise.addListener((ChannelFutureListener) written -> {
                Channel channel = written.channel();
                if (!written.isSuccess()) {
                    channel.close();
                } else if (channel.isActive()) {
                    // From a fresh task: an answer written at once would otherwise deliver the next pipelined
                    // request inside this call stack, one level deeper per request, and keep other
                    // connections waiting until the whole pipeline is served.
                    ctx.executor().execute(() -> requestNext(ctx));
                }
            });
        }
        ctx.write(msg, promise);
    }

    private void requestNext(ChannelHandlerContext ctx) {
        awaitingRequest = true;
        ctx.read();
    }
}
