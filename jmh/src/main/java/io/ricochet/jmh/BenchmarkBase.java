package io.ricochet.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Forks, iterations and units shared by every benchmark (the full profile). The quick profile overrides
 * them on the command line: see jmh/README.md. Leak detection is off: these measure the product, not the tests.
 */
@Fork(value = 2, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled", "-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class BenchmarkBase {
    /** The fixed seed of every generated body. */
    public static final long SEED = 42;
}
