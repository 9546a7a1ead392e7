package io.ricochet.loadgen.engine;

import io.ricochet.loadgen.stats.RunStats;
import java.time.Duration;
import java.util.Map;

/**
 * A running source of load, whatever it sends: frames on held connections, a connection per request, datagrams or RPC
 * calls. The {@link LoadDriver} starts it, takes its counts and latencies interval by interval, stops it and drains it;
 * the load owns its connections and counters, the driver the clock and the hooks. Every command runs through that one
 * driver, so single runs, workers and every kind of load measure the same way.
 */
public interface Load extends AutoCloseable {

    /** What must be ready before the start signal (RPC clients connect and warm up here); nothing by default. */
    default void prepare() {
    }

    /** Starts sending. */
    void start();

    /**
     * When the load's stages began ({@link System#nanoTime}), so that its intervals are timed from the same instant
     * and each one's due rate is the schedule's over it; 0 for a load without stages.
     */
    default long stagesOriginNanos() {
        return 0;
    }

    /** What has ended since the start, cumulative ({@code sent} is what was sent). */
    RunStats.Counts counts();

    int openConnections();

    /** Moves what was recorded since the last call into {@code into}, adding to what it holds. */
    void drainLatencies(Latencies into);

    /** True when latency is corrected for coordinated omission (open loop), false when from the actual send. */
    boolean openLoop();

    /** Whether it times connects, so its intervals carry a connect histogram (and the report a connect.hlog). */
    default boolean timesConnects() {
        return false;
    }

    /** Whether it times TLS or Noise handshakes, so its intervals carry a handshake histogram and failure count. */
    default boolean timesHandshakes() {
        return false;
    }

    /** Handshakes that failed since the start. */
    default long handshakeFailures() {
        return 0;
    }

    /**
     * Whether a load given a fixed amount of work (a request, call or cycle count) has ended all of it. A load that
     * runs until stopped is never finished.
     */
    boolean finished();

    /**
     * Waits up to {@code nanos} for {@link #finished}; returns whether it is. One that ends by itself returns as soon as
     * it does, without waking the caller in between: on a saturated machine a thread woken every millisecond takes time
     * from the event loops it measures.
     */
    boolean awaitFinished(long nanos) throws InterruptedException;

    /**
     * Why going on cannot measure anything more (connects failing on and on, nothing ever answered), or null while it
     * can: the driver then ends the run early and says why, rather than running out its duration.
     */
    default String futile() {
        return null;
    }

    /** Starts nothing new. */
    void stopSending();

    /** Waits up to {@code timeout} for what is still owed, then fails what is left. */
    void drain(Duration timeout) throws InterruptedException;

    /** Adds the load's own settings to {@code config.json}: its latency kind, its I/O, its send tick. */
    void describe(Map<String, Object> config);

    /** What the load knows of its run beyond counts and latencies, for its summary; read after the drain. */
    LoadFacts facts();

    /** How its intervals read on the progress line. */
    Progress progress();

    @Override
    void close();
}
