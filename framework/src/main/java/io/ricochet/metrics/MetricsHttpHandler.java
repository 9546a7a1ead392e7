package io.ricochet.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.nio.charset.StandardCharsets;

/** Answers {@code GET /metrics} with a scrape (OpenMetrics when the Accept header asks for it) and {@code GET /health} with 200. */
@Sharable
final class MetricsHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final PrometheusMeterRegistry registry;

    MetricsHttpHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String path = new QueryStringDecoder(request.uri()).path();
        boolean head = HttpMethod.HEAD.equals(request.method());
        if (!HttpMethod.GET.equals(request.method()) && !head) {
            respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", "GET only\n", head);
            return;
        }
        switch (path) {
            case "/metrics" -> {
                String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
                String contentType = accept.contains("application/openmetrics-text")
                        ? OpenMetricsTextFormatWriter.CONTENT_TYPE
                        : PrometheusTextFormatWriter.CONTENT_TYPE;
                respond(ctx, request, HttpResponseStatus.OK, contentType, registry.scrape(contentType), head);
            }
            case "/health" -> respond(ctx, request, HttpResponseStatus.OK, "text/plain; charset=utf-8", "ok\n", head);
            default -> respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8",
                    "not found; try /metrics or /health\n", head);
        }
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
            String contentType, String body, boolean head) {
        ByteBuf content = ctx.alloc().buffer();
        content.writeCharSequence(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, content.readableBytes());
        if (head) {
            response.content().clear();
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        var future = ctx.writeAndFlush(response);
        if (!keepAlive) {
            future.addListener(ChannelFutureListener.CLOSE);
        }
    }
}
