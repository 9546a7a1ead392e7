package io.ricochet.codec;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.config.LengthField;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.jmh.Wire;
import io.ricochet.metrics.ConnectionStats;
import io.ricochet.metrics.TransportMeters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Decoding frames: one whole frame per read, one frame split in two reads, or 100 frames coalesced in
 * one read. Time per operation (one read pattern, all its frames decoded and released).
 * With the 2-byte field, 65536 is clamped to 65535, the field's largest body.
 */
@State(Scope.Benchmark)
public class FrameDecoderBenchmark extends BenchmarkBase {
    @Param({"2", "4"})
    public int width;

    @Param({"whole", "split", "coalesced100"})
    public String shape;

    @Param({"1", "64", "1024", "4094", "65536"})
    public int size;

    private EmbeddedChannel channel;
    private ByteBuf wire;
    private int frames;

    @Setup(Level.Trial)
    public void setup() {
        int body = width == 2 ? Math.min(size, 65_535) : size;
        frames = shape.equals("coalesced100") ? 100 : 1;
        wire = Wire.frames(width, body, frames, SEED);
        LengthField field = LengthField.ofWidth(width);
        ConnectionStats stats = new ConnectionStats(
                TransportMeters.register(new CompositeMeterRegistry(), "bench", "tcp", "server", "nio", () -> 0));
        channel = new EmbeddedChannel(new FrameDecoder(field, field.largestMaxFrame(), stats));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        wire.release();
    }

    @Benchmark
    public int decode() {
        if (shape.equals("split")) {
            int half = wire.readableBytes() / 2;
            channel.writeInbound(wire.retainedSlice(0, half));
            channel.writeInbound(wire.retainedSlice(half, wire.readableBytes() - half));
        } else {
            channel.writeInbound(wire.retainedDuplicate());
        }
        int total = 0;
        for (int i = 0; i < frames; i++) {
            ByteBuf frame = channel.readInbound();
            total += frame.readableBytes();
            frame.release();
        }
        return total;
    }
}
