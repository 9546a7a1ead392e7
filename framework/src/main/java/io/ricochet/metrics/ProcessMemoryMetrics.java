package io.ricochet.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code process.memory.rss}: the resident set size from {@code /proc/self/status}, where that file exists. */
public final class ProcessMemoryMetrics implements MeterBinder {
    private static final Path STATUS = Path.of("/proc/self/status");

    @Override
    public void bindTo(MeterRegistry registry) {
        if (!Files.isReadable(STATUS)) {
            return;
        }
        Gauge.builder(MeterNames.PROCESS_MEMORY_RSS, ProcessMemoryMetrics::residentBytes)
                .description("Resident set size of this process")
                .baseUnit(BaseUnits.BYTES)
                .register(registry);
    }

    /** VmRSS in bytes, or NaN if it cannot be read. */
    public static double residentBytes() {
        try {
            List<String> lines = Files.readAllLines(STATUS);
            for (String line : lines) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}
