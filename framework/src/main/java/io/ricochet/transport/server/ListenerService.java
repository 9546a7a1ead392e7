package io.ricochet.transport.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.Checks;
import io.ricochet.transport.session.FrameHandler;
import java.util.function.Supplier;

/**
 * What a {@link Listener} serves: started with its server, before the port is bound, and stopped after the server
 * has drained. A layer above the frames, such as RPC ({@code RpcService#listener}), registers its own meters here and
 * makes one {@link FrameHandler} per session.
 *
 * <pre>{@code
 * Listener.tcp(7200).service(new ListenerService() {
 *     public Supplier<FrameHandler> start(MeterRegistry registry, String name) {
 *         return () -> new MyHandler(registry);
 *     }
 * });
 * }</pre>
 */
public interface ListenerService {
    /**
     * Registers what it counts and returns the factory of its sessions' handlers. Throws
     * {@link IllegalStateException} when its meters are on {@code registry} already: the server's start then fails.
     *
     * @param registry the server's registry, or null when it counts nothing
     * @param name     the {@code name} tag of the listener's meters
     */
    Supplier<FrameHandler> start(MeterRegistry registry, String name);

    /** Removes what {@link #start} registered; called once the server has stopped, or its start failed. */
    default void stop() {
    }

    /** A service that only makes handlers. */
    static ListenerService of(Supplier<FrameHandler> handlers) {
        Checks.notNull("handlers", handlers);
        return (registry, name) -> handlers;
    }
}
