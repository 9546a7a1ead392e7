package io.ricochet.loadgen.scenario;

import io.ricochet.loadgen.stats.RunStats;
import io.ricochet.transport.IoTransport;
import java.time.Duration;

/** A running source of requests that {@link LoadRun} measures and reports. */
public interface Load extends AutoCloseable {
    void start();

    RunStats stats();

    IoTransport io();

    /** How often the load's timers tick, for config.json. */
    long tickNanos();

    boolean requestLimitReached();

    void stopSending();

    /** Waits up to {@code timeout} for outstanding replies, then fails what is left. */
    void drain(Duration timeout) throws InterruptedException;

    Throwable firstFailure();

    @Override
    void close();
}
