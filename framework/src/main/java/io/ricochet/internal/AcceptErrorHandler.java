package io.ricochet.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a listening channel (a server's ports, the metrics port): when {@code accept} fails (EMFILE once descriptors run
 * out), stops accepting for {@link #PAUSE_MILLIS}, counts the failure, and logs at most one line per
 * {@link #LOG_INTERVAL_SECONDS}, with the count it stands for.
 * Netty's own acceptor pauses too, but then logs every failure at the tail of the pipeline; a failing
 * accept loop once wrote a 35.9 GB log in ten minutes. The failure stops here.
 */
public final class AcceptErrorHandler extends ChannelInboundHandlerAdapter {
    static final long PAUSE_MILLIS = 1_000;
    static final long LOG_INTERVAL_SECONDS = 10;
    private static final Logger log = LoggerFactory.getLogger(AcceptErrorHandler.class);

    private final String listener;
    private final Runnable count;
    private final RateLimitedLog warnings = new RateLimitedLog(log, TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS));

    /**
     * @param listener names the listener in the log, e.g. {@code tcp 0.0.0.0:7000}
     * @param count    counts one failed accept, on a meter
     */
    public AcceptErrorHandler(String listener, Runnable count) {
        this.listener = listener;
        this.count = count;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        count.run();
        if (ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> {
                ctx.channel().config().setAutoRead(true);
            }, PAUSE_MILLIS, TimeUnit.MILLISECONDS);
        }
        warnings.warn(ctx.executor().ticker().nanoTime(), listener + ": accept failed, pausing accepts for "
                + PAUSE_MILLIS + " ms", cause);
    }
}
