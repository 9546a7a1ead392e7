package io.ricochet.rpc;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.jmh.Wire;
import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The envelope codec per direction, against one copy of the payload as the baseline. Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} of {@code decode} minus {@code onePayloadCopy} is the
 * envelope's fixed cost, so a second copy would show as a further {@code size} bytes; {@code encode}
 * writes into a pooled buffer and allocates no payload-sized array at all.
 */
@State(Scope.Benchmark)
public class EnvelopeCodecBenchmark extends BenchmarkBase {
    @Param({"64", "4096", "65536"})
    public int size;

    private Envelope envelope;
    private int serializedSize;
    private ByteBuf encoded;

    @Setup(Level.Trial)
    public void setup() {
        envelope = Envelope.newBuilder().setId(123_456_789L).setKind(Kind.REQUEST).setMethod("bench.update")
                .setTimeoutMicros(10_000_000).setPayload(ByteString.copyFrom(Wire.body(size, SEED))).build();
        serializedSize = envelope.getSerializedSize();
        encoded = PooledByteBufAllocator.DEFAULT.directBuffer(serializedSize);
        EnvelopeCodec.writeTo(envelope, serializedSize, encoded);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        encoded.release();
    }

    @Benchmark
    public int encode() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(4 + serializedSize);
        buf.writerIndex(4).readerIndex(4);
        EnvelopeCodec.writeTo(envelope, envelope.getSerializedSize(), buf);
        int written = buf.readableBytes();
        buf.release();
        return written;
    }

    @Benchmark
    public Envelope decode() throws Exception {
        return EnvelopeCodec.decode(encoded.retainedDuplicate());
    }

    /** The floor: copying the payload once out of the direct buffer. */
    @Benchmark
    public ByteString onePayloadCopy() {
        return ByteString.copyFrom(encoded.nioBuffer(serializedSize - size, size));
    }
}
