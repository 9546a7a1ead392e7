package io.ricochet.metrics;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The handler's own failure path; no socket input reaches exceptionCaught once bad requests are answered. */
@Timeout(10)
class MetricsHttpHandlerTest {

    static Stream<Throwable> failures() {
        return Stream.of(new IOException("Connection reset by peer"), new IllegalStateException("handler bug"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void anExceptionClosesTheConnection(Throwable failure) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EmbeddedChannel ch = new EmbeddedChannel(new MetricsHttpHandler(registry));
        try {
            assertTrue(ch.isOpen());
            ch.pipeline().fireExceptionCaught(failure);
            assertFalse(ch.isOpen());
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
