package io.ricochet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.unix.Errors;
import io.ricochet.metrics.MeterNames;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.testing.Meters;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A failing accept once spun at 120% CPU and wrote a 35.9 GB log in ten minutes. */
class AcceptErrorHandlerTest {

    @Test
    void aFailedAcceptPausesAcceptingCountsAndStopsThere() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TransportMeters meters = TransportMeters.register(registry, "test", "tcp", "server", "nio", () -> 0);
        EmbeddedChannel listener = new EmbeddedChannel();
        listener.freezeTime();
        listener.pipeline().addLast(new AcceptErrorHandler("tcp 127.0.0.1:7000", meters::acceptError));
        try {
            for (int i = 0; i < 1000; i++) {
                listener.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Too many open files"));
            }
            // Handled here: nothing reaches the tail of the pipeline, where Netty would log each one.
            listener.checkException();
            assertFalse(listener.config().isAutoRead(), "accepting paused");
            assertEquals(1000.0, Meters.count(registry, MeterNames.ACCEPT_ERRORS, MeterNames.TAG_PROTOCOL, "tcp"));
            listener.advanceTimeBy(AcceptErrorHandler.PAUSE_MILLIS, TimeUnit.MILLISECONDS);
            listener.runScheduledPendingTasks();
            assertTrue(listener.config().isAutoRead(), "accepting again after the pause");
        } finally {
            listener.finishAndReleaseAll();
        }
    }
}
