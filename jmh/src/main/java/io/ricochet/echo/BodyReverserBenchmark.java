package io.ricochet.echo;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.jmh.Wire;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** Reversing a body in place: the byte loop against the eight-bytes-at-a-time swap, heap and direct. */
@State(Scope.Benchmark)
public class BodyReverserBenchmark extends BenchmarkBase {
    @Param({"64", "1024", "4094", "65536"})
    public int size;

    @Param({"heap", "direct"})
    public String buffer;

    private ByteBuf buf;

    @Setup(Level.Trial)
    public void setup() {
        byte[] body = Wire.body(size, SEED);
        buf = buffer.equals("heap") ? PooledByteBufAllocator.DEFAULT.heapBuffer(size)
                : PooledByteBufAllocator.DEFAULT.directBuffer(size);
        buf.writeBytes(body);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        buf.release();
    }

    @Benchmark
    public ByteBuf bytewise() {
        BodyReverser.reverseBytewise(buf);
        return buf;
    }

    @Benchmark
    public ByteBuf wordwise() {
        BodyReverser.reverseInPlace(buf);
        return buf;
    }
}
