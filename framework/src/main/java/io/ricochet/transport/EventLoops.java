package io.ricochet.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.ricochet.config.Checks;
import io.ricochet.config.TransportKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A group of event loops of one I/O transport, to share between servers and clients: the echo server
 * runs its TCP, UDP and RPC listeners on one group sized to the cores, instead of a group each. The
 * creator owns it and closes it after everything that uses it has stopped.
 *
 * <pre>{@code
 * try (EventLoops loops = EventLoops.create(TransportKind.AUTO, 0, "app-io")) {
 *     RicochetServer a = RicochetServer.builder().eventLoops(loops, false)...build();
 * }
 * }</pre>
 */
public final class EventLoops implements AutoCloseable {
    private final IoTransport transport;
    private final MultiThreadIoEventLoopGroup group;

    private EventLoops(IoTransport transport, int threads, String name) {
        this.transport = transport;
        this.group = transport.newEventLoopGroup(threads, name);
    }

    /**
     * {@code threads} event loops (0: one per available processor) of {@code kind}, AUTO resolved, with
     * threads named {@code name-N}. Fails with {@link IllegalStateException} if a forced transport cannot load.
     */
    public static EventLoops create(TransportKind kind, int threads, String name) {
        Checks.inRange("threads", threads, 0, 1024);
        Checks.notNull("name", name);
        return new EventLoops(IoTransport.resolve(kind), threads == 0 ? Runtime.getRuntime().availableProcessors()
                : threads, name);
    }

    /** The I/O transport running the loops, AUTO resolved. */
    public TransportKind kind() {
        return transport.kind();
    }

    public IoTransport transport() {
        return transport;
    }

    public EventLoopGroup group() {
        return group;
    }

    /** Stops the loops at once (no quiet period); completes when they have ended. */
    public CompletableFuture<Void> shutdown() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).addListener(f -> done.complete(null));
        return done;
    }

    @Override
    public void close() {
        shutdown().join();
    }
}
