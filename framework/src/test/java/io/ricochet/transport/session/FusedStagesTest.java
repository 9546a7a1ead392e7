package io.ricochet.transport.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.config.ServerConfig;
import io.ricochet.config.TransportKind;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.testing.Frames;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.testing.TestServers;
import io.ricochet.transport.PipelineCustomizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which stages a server's connections run: fused (decoder, encoder, and a session handler that keeps the idle clock
 * and backpressure itself) when the customizer declares it adds nothing between the stages, as the default does;
 * separate handlers under the published names otherwise. Said once per listener. The TCP contract and the hostile
 * peers run on both (TcpServerTest, TcpHostilePeerTest and their SeparateStages subclasses).
 */
class FusedStagesTest {
    private final List<String> notices = new ArrayList<>();

    /** A connection of {@code init}'s, on a clock that moves only when told. */
    private static EmbeddedChannel channel(TcpChannelInitializer init) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(init);
        return ch;
    }

    private TcpChannelInitializer initializer(PipelineCustomizer customizer, Duration idleTimeout) {
        ServerConfig config = TestServers.config(TransportKind.NIO).idleTimeout(idleTimeout).build();
        return new TcpChannelInitializer(config, ReverseEcho::new, TransportCounters.NONE, new ConnectionRegistry(10),
                customizer, null, null, null, notices::add);
    }

    private static List<String> ours(EmbeddedChannel ch) {
        return ch.pipeline().names().stream().filter(n -> n.startsWith("ricochet.")).toList();
    }

    @Test
    void theDefaultCustomizerFusesTheStagesAndSaysSoOnce() {
        TcpChannelInitializer init = initializer(PipelineCustomizer.NONE, Duration.ofSeconds(30));
        EmbeddedChannel first = channel(init);
        EmbeddedChannel second = channel(init);
        assertEquals(List.of(PipelineCustomizer.DECODER, PipelineCustomizer.ENCODER, PipelineCustomizer.SESSION),
                ours(first));
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("inside the session handler"), notices.get(0));
        first.writeInbound(first.alloc().buffer().writeBytes(Frames.encode(2, new byte[] {1, 2, 3})));
        ByteBuf reply = first.readOutbound();
        try {
            assertArrayEquals(Frames.encode(2, new byte[] {3, 2, 1}), ByteBufUtil.getBytes(reply));
        } finally {
            reply.release();
        }
        first.finishAndReleaseAll();
        second.finishAndReleaseAll();
    }

    @Test
    void aCustomizerThatDoesNotDeclareKeepsTheStagesApartUnderTheirNames() {
        TcpChannelInitializer init = initializer(TestServers.separateStages(), Duration.ofSeconds(30));
        EmbeddedChannel ch = channel(init);
        assertEquals(List.of(PipelineCustomizer.DECODER, PipelineCustomizer.ENCODER, PipelineCustomizer.IDLE_TIMEOUT,
                PipelineCustomizer.BACKPRESSURE, PipelineCustomizer.SESSION), ours(ch));
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("outsideTheStages"), notices.get(0));
        ch.finishAndReleaseAll();
    }

    @Test
    void theFusedSessionClosesAnIdleConnectionAndAFrameDefersIt() throws Exception {
        TcpChannelInitializer init = initializer(PipelineCustomizer.NONE, Duration.ofMillis(200));
        EmbeddedChannel ch = channel(init);
        // Half the timeout in, a frame: the clock starts again from it.
        ch.advanceTimeBy(100, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        ch.writeInbound(ch.alloc().buffer().writeBytes(Frames.encode(2, new byte[] {9})));
        ByteBuf reply = ch.readOutbound();
        reply.release();
        ch.advanceTimeBy(150, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertTrue(ch.isOpen(), "closed 150 ms after a frame, with a timeout of 200 ms");
        ch.advanceTimeBy(100, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertFalse(ch.isOpen(), "open 250 ms after its last frame, with a timeout of 200 ms");
        ch.finishAndReleaseAll();
    }

    @Test
    void theFusedSessionStopsReadingWhileUnwritableAndResumesOnceDrained() {
        TcpChannelInitializer init = initializer(PipelineCustomizer.NONE, Duration.ofSeconds(30));
        EmbeddedChannel ch = channel(init);
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
        // Replies written but not flushed out of the embedded channel's buffer push it over the high watermark.
        ch.pipeline().write(ch.alloc().buffer().writeZero(32));
        assertFalse(ch.isWritable());
        assertFalse(ch.config().isAutoRead(), "still reading a connection whose replies are not read");
        ch.flush();
        assertTrue(ch.isWritable());
        assertTrue(ch.config().isAutoRead(), "not reading again once its replies drained");
        ch.finishAndReleaseAll();
    }
}
