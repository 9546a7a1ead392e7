package io.ricochet.noise;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.ricochet.config.Checks;
import io.ricochet.handler.SourceAddress;
import io.ricochet.metrics.HandshakeCounters;
import io.ricochet.metrics.HandshakeShedReason;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where one Noise listener's server handshakes run: each takes a place when its first message arrives, at most
 * {@link ServerNoiseConfig#maxHandshakes} in all and {@link ServerNoiseConfig#maxHandshakesPerAddress} from one
 * source, or it is shed before any key agreement; then its key agreement runs on threads of its own, so a flood of
 * first messages (which costs its sender nothing) takes at most those threads' CPU from the event loops and the
 * connections they serve. The answer goes back to the connection's event loop. A
 * {@link io.ricochet.transport.server.RicochetServer} makes one for each Noise listener and closes it when it stops.
 *
 * <pre>{@code
 * try (NoiseHandshakes handshakes = NoiseHandshakes.start(ServerNoiseConfig.of(key), HandshakeCounters.NONE, "noise")) {
 *     channel.pipeline().addFirst(NoiseHandler.server(handshakes, 2, stats));
 * }
 * }</pre>
 */
public final class NoiseHandshakes implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NoiseHandshakes.class);
    /** An idle handshake thread ends after this, so a server between floods holds none. */
    private static final long IDLE_THREAD_SECONDS = 30;

    private final ServerNoiseConfig config;
    private final HandshakeCounters counters;
    private final HandshakeSlots slots;
    private final Executor executor;
    private final ThreadPoolExecutor pool;

    private NoiseHandshakes(ServerNoiseConfig config, HandshakeCounters counters, Executor executor,
            ThreadPoolExecutor pool) {
        this.config = Checks.notNull("config", config);
        this.counters = Checks.notNull("counters", counters);
        this.slots = new HandshakeSlots(config.maxHandshakes(), config.maxHandshakesPerAddress());
        this.executor = executor;
        this.pool = pool;
    }

    /**
     * Handshakes on {@link ServerNoiseConfig#resolvedHandshakeThreads()} threads named {@code threadName-noise-N},
     * made as they are needed; the queue holds no more than the places there are.
     */
    public static NoiseHandshakes start(ServerNoiseConfig config, HandshakeCounters counters, String threadName) {
        int threads = config.resolvedHandshakeThreads();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, IDLE_THREAD_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(config.maxHandshakes()), new DefaultThreadFactory(threadName + "-noise", true));
        pool.allowCoreThreadTimeOut(true);
        return new NoiseHandshakes(config, counters, pool, pool);
    }

    /**
     * Handshakes computed on the event loop that receives them, within the same bounds: for an
     * {@code EmbeddedChannel}, where there is one thread, and for tests.
     */
    public static NoiseHandshakes inline(ServerNoiseConfig config, HandshakeCounters counters) {
        return new NoiseHandshakes(config, counters, Runnable::run, null);
    }

    /** Handshakes run by {@code executor}: for tests that choose when each runs. */
    static NoiseHandshakes on(ServerNoiseConfig config, HandshakeCounters counters, Executor executor) {
        return new NoiseHandshakes(config, counters, executor, null);
    }

    public ServerNoiseConfig config() {
        return config;
    }

    /** Handshakes holding a place: queued or computing. */
    public int inProgress() {
        return slots.held();
    }

    /**
     * Takes a place for {@code ch}'s handshake and queues it; false if it was shed (counted, and to be closed by the
     * caller). {@code done} then runs on {@code ch}'s event loop with the answer or the failure, unless the channel
     * closed first: a handshake whose channel is closed when its turn comes is dropped without key agreement.
     */
    boolean respond(Channel ch, byte[] firstMessage, BiConsumer<NoiseResponder.Answer, NoiseException> done) {
        Object source = SourceAddress.of(ch.remoteAddress());
        HandshakeShedReason shed = slots.acquire(source);
        if (shed != null) {
            counters.shed(shed);
            log.debug("shedding the noise handshake of {}: {}", ch.remoteAddress(), shed.tag());
            return false;
        }
        try {
            executor.execute(() -> run(ch, source, firstMessage, done));
        } catch (RejectedExecutionException e) {
            // Closed: the server is stopping.
            slots.release(source);
            return false;
        }
        return true;
    }

    private void run(Channel ch, Object source, byte[] firstMessage,
            BiConsumer<NoiseResponder.Answer, NoiseException> done) {
        NoiseResponder.Answer answer = null;
        NoiseException failure = null;
        try {
            if (!ch.isActive()) {
                // Its sender is gone (a flood that does not wait for answers): nothing to compute for.
                return;
            }
            try {
                answer = NoiseResponder.respond(config.keyPair(), firstMessage);
            } catch (NoiseException e) {
                failure = e;
            } catch (RuntimeException e) {
                failure = new NoiseException("noise handshake failed: " + e, e);
            }
        } finally {
            slots.release(source);
        }
        hand(ch.eventLoop(), answer, failure, done);
    }

    private static void hand(EventLoop loop, NoiseResponder.Answer answer, NoiseException failure,
            BiConsumer<NoiseResponder.Answer, NoiseException> done) {
        if (loop.inEventLoop()) {
            done.accept(answer, failure);
            return;
        }
        try {
            loop.execute(() -> done.accept(answer, failure));
        } catch (RejectedExecutionException e) {
            // The event loop has stopped, and the channel with it.
            if (answer != null) {
                answer.destroy();
            }
        }
    }

    /** Stops the handshake threads; handshakes still queued are dropped, their connections closed by the server's stop. */
    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
