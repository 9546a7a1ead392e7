package io.ricochet.transport.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.ricochet.config.Checks;
import io.ricochet.transport.session.FrameHandler;
import java.util.function.Supplier;

/**
 * What a {@link Listener} serves: started with its server, before the port is bound, and stopped after the server
 * has drained. A layer above the frames, such as RPC ({@code RpcService#listener}), registers its own meters here and
 * makes one {@link FrameHandler} per session. One service may serve several listeners, of one server or of several:
 * each listener starts it once, and stops what that start made.
 *
 * <pre>{@code
 * Listener.tcp(7200).service((registry, name) -> {
 *     MyMeters meters = MyMeters.register(registry, name);
 *     return ListenerService.started(() -> new MyHandler(meters), meters::close);
 * });
 * }</pre>
 */
@FunctionalInterface
public interface ListenerService {
    /**
     * Registers what this listener counts and returns what the start made. Throws {@link IllegalStateException} when
     * its meters are on {@code registry} already: the server's start then fails.
     *
     * @param registry the server's registry, or null when it counts nothing
     * @param name     the {@code name} tag of the listener's meters
     */
    Started start(MeterRegistry registry, String name);

    /** One start's handlers, and how to undo it. */
    @FunctionalInterface
    interface Started {
        /** A handler for a session that opens now: each call may return the same thread-safe one or a new one. */
        FrameHandler handler();

        /** Removes what the start registered; called once, after the server has stopped or its start failed. */
        default void stop() {
        }
    }

    /** A start that made {@code handlers} and undoes itself with {@code stop}. */
    static Started started(Supplier<FrameHandler> handlers, Runnable stop) {
        Checks.notNull("handlers", handlers);
        Checks.notNull("stop", stop);
        return new Started() {
            @Override
            public FrameHandler handler() {
                return handlers.get();
            }

            @Override
            public void stop() {
                stop.run();
            }
        };
    }

    /** A service that only makes handlers. */
    static ListenerService of(Supplier<FrameHandler> handlers) {
        Checks.notNull("handlers", handlers);
        return (registry, name) -> handlers::get;
    }
}
