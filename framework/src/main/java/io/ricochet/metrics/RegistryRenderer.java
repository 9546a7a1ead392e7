package io.ricochet.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Renders a registry's scrape straight into a buffer, with no intermediate String, and checks that it can
 * render at all. A meter or collector that throws makes both fail the same way.
 */
final class RegistryRenderer {
    private final PrometheusMeterRegistry registry;

    RegistryRenderer(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    /** The scrape in {@code contentType}; the caller owns the buffer. Nothing is left allocated if it throws. */
    ByteBuf render(ByteBufAllocator alloc, String contentType) throws IOException {
        ByteBuf out = alloc.buffer();
        boolean rendered = false;
        try {
            registry.scrape(new ByteBufOutputStream(out), contentType);
            rendered = true;
            return out;
        } finally {
            if (!rendered) {
                out.release();
            }
        }
    }

    /** Renders the Prometheus text into nothing; throws what a scrape would throw. */
    void check() throws IOException {
        registry.scrape(OutputStream.nullOutputStream(), PrometheusTextFormatWriter.CONTENT_TYPE);
    }
}
