package io.ricochet.loadgen.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ServerWatchTest {

    @Test
    void anUnreachableScrapeIsReportedOnceAndLeavesTheFiguresMissing() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ServerWatch watch = new ServerWatch(URI.create("http://127.0.0.1:1/metrics"),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(ServerSample.NONE, watch.sample());
        assertEquals(ServerSample.NONE, watch.sample());
        String warnings = out.toString(StandardCharsets.UTF_8);
        assertTrue(warnings.startsWith("warning: --scrape http://127.0.0.1:1/metrics failed ("), warnings);
        assertEquals(1, warnings.lines().count(), warnings);
        assertTrue(Double.isNaN(watch.summary(ServerSample.NONE).cpuMax()));
    }
}
