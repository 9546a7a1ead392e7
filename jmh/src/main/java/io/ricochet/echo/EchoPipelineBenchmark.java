package io.ricochet.echo;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.jmh.BenchmarkBase;
import io.ricochet.jmh.Wire;
import io.ricochet.metrics.TransportMeters;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.session.TcpChannelInitializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The server's whole TCP pipeline on an EmbeddedChannel: 16 pipelined frames per read, decoded,
 * reversed, framed and flushed once. Time per frame. {@code meters=prometheus} counts into a real
 * Prometheus registry, {@code meters=none} into meters that record nothing: the difference is what the
 * metrics cost on the hot path.
 */
@State(Scope.Benchmark)
public class EchoPipelineBenchmark extends BenchmarkBase {
    static final int FRAMES = 16;

    @Param({"64", "1024", "4094"})
    public int size;

    @Param({"prometheus", "none"})
    public String meters;

    private EmbeddedChannel channel;
    private ByteBuf wire;

    @Setup(Level.Trial)
    public void setup() {
        MeterRegistry registry = meters.equals("prometheus") ? new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)
                : new CompositeMeterRegistry();
        ServerConfig config = ServerConfig.builder().build();
        ReverseEchoHandler handler = new ReverseEchoHandler();
        channel = new EmbeddedChannel(new TcpChannelInitializer(config, () -> handler,
                TransportMeters.register(registry, "bench", "tcp", "server", "nio", () -> 0),
                new ConnectionRegistry(Integer.MAX_VALUE), PipelineCustomizer.NONE));
        wire = Wire.frames(2, size, FRAMES, SEED);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        wire.release();
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int echo() {
        channel.writeInbound(wire.retainedDuplicate());
        int bytes = 0;
        ByteBuf out;
        while ((out = channel.readOutbound()) != null) {
            bytes += out.readableBytes();
            out.release();
        }
        return bytes;
    }
}
