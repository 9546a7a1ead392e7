package io.ricochet.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code GET /metrics} with a scrape (OpenMetrics when the Accept header asks for it) and
 * {@code GET /health} with 200 while the registry renders, 503 when it does not. Requests that failed to
 * decode get 431 or 400 and the connection ends. Stateless: one instance serves every channel.
 */
@Sharable
final class MetricsHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(MetricsHttpHandler.class);
    /** Keeps a 503 body short whatever the failing meter put in its message. */
    private static final int MAX_REASON_CHARS = 200;

    private final RegistryRenderer renderer;

    MetricsHttpHandler(PrometheusMeterRegistry registry) {
        this.renderer = new RegistryRenderer(registry);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            // The decoder discards the rest of the stream after a failure, so the connection cannot go on.
            log.debug("bad request from {}: {}", ctx.channel().remoteAddress(), decoded.cause().toString());
            HttpResponseStatus status = decoded.cause() instanceof TooLongHttpHeaderException
                    ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST;
            HttpResponder.respond(ctx, status, status.reasonPhrase() + "\n", false, false);
            return;
        }
        boolean head = HttpMethod.HEAD.equals(request.method());
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!HttpMethod.GET.equals(request.method()) && !head) {
            HttpResponder.respond(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "GET only\n", false, keepAlive);
            return;
        }
        String path;
        try {
            path = new QueryStringDecoder(request.uri()).path();
        } catch (IllegalArgumentException e) {
            log.debug("bad request URI from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
            HttpResponder.respond(ctx, HttpResponseStatus.BAD_REQUEST, "bad request URI\n", head, false);
            return;
        }
        switch (path) {
            case "/metrics" -> metrics(ctx, request, head, keepAlive);
            case "/health" -> health(ctx, head, keepAlive);
            default -> HttpResponder.respond(ctx, HttpResponseStatus.NOT_FOUND, "not found; try /metrics or /health\n",
                    head, keepAlive);
        }
    }

    private void metrics(ChannelHandlerContext ctx, FullHttpRequest request, boolean head, boolean keepAlive) {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
        String contentType = accept.contains("application/openmetrics-text")
                ? OpenMetricsTextFormatWriter.CONTENT_TYPE
                : PrometheusTextFormatWriter.CONTENT_TYPE;
        ByteBuf body;
        try {
            body = renderer.render(ctx.alloc(), contentType);
        } catch (IOException | RuntimeException e) {
            // A broken meter; /health reports it too. Closing drops whatever the client pipelined behind.
            log.warn("cannot render metrics for {}", ctx.channel().remoteAddress(), e);
            HttpResponder.respond(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "cannot render metrics\n", head,
                    false);
            return;
        }
        HttpResponder.respond(ctx, HttpResponseStatus.OK, contentType, body, head, keepAlive);
    }

    private void health(ChannelHandlerContext ctx, boolean head, boolean keepAlive) {
        try {
            renderer.check();
        } catch (IOException | RuntimeException e) {
            log.debug("health check: cannot render metrics", e);
            HttpResponder.respond(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE,
                    "unhealthy: cannot render metrics: " + reason(e) + "\n", head, keepAlive);
            return;
        }
        HttpResponder.respond(ctx, HttpResponseStatus.OK, "ok\n", head, keepAlive);
    }

    private static String reason(Exception e) {
        String reason = e.toString().replaceAll("\\s+", " ");
        return reason.length() <= MAX_REASON_CHARS ? reason : reason.substring(0, MAX_REASON_CHARS) + "...";
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Close rather than answer: the failure may come after this request's answer was written, and a
        // second answer would be taken as the reply to the next pipelined request.
        log.debug("closing metrics connection {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
