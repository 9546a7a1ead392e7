package io.ricochet.transport.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.ricochet.config.LengthField;
import io.ricochet.config.ServerConfig;
import io.ricochet.handler.ConnectionRegistry;
import io.ricochet.metrics.TransportCounters;
import io.ricochet.testing.ReverseEcho;
import io.ricochet.transport.PipelineCustomizer;
import io.ricochet.transport.session.TcpChannelInitializer;
import java.io.ByteArrayOutputStream;

/**
 * Any byte stream, in any split into reads, through the exact server pipeline with the reverse echo: the
 * server answers exactly the well-formed frames before the first malformed one, each reversed, and
 * nothing else; it never throws and never leaks. A second implementation of the framing (below) is the oracle.
 */
class ServerPipelineFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void answersExactlyTheWellFormedPrefix(FuzzedDataProvider data) {
        LengthField field = data.consumeBoolean() ? LengthField.TWO : LengthField.FOUR;
        int maxFrame = data.consumeInt(1, 300);
        int chunk = data.consumeInt(1, 600);
        byte[] stream = data.consumeRemainingAsBytes();
        ServerConfig config = ServerConfig.builder().lengthField(field).maxFrame(maxFrame).build();
        EmbeddedChannel ch = new EmbeddedChannel(new TcpChannelInitializer(config, ReverseEcho::new, TransportCounters.NONE,
                new ConnectionRegistry(Integer.MAX_VALUE), PipelineCustomizer.NONE));
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        try {
            for (int at = 0; at < stream.length && ch.isOpen(); at += chunk) {
                // A copy: the echo reverses bodies in place, in the very buffer it read.
                ch.writeInbound(Unpooled.copiedBuffer(stream, at, Math.min(chunk, stream.length - at)));
                drain(ch, written);
            }
            ch.runPendingTasks();
            drain(ch, written);
        } finally {
            ch.finishAndReleaseAll();
        }
        assertArrayEquals(expectedReplies(stream, field.width(), maxFrame), written.toByteArray());
    }

    private static void drain(EmbeddedChannel ch, ByteArrayOutputStream written) {
        for (Object out; (out = ch.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) out;
            try {
                written.writeBytes(ByteBufUtil.getBytes(buf));
            } finally {
                buf.release();
            }
        }
    }

    /** The reference framing: frames in order until one is empty, too long, or cut off; each answered reversed. */
    static byte[] expectedReplies(byte[] stream, int width, int maxFrame) {
        ByteArrayOutputStream replies = new ByteArrayOutputStream();
        int at = 0;
        while (stream.length - at >= width) {
            long length = 0;
            for (int i = 0; i < width; i++) {
                length = length << 8 | (stream[at + i] & 0xff);
            }
            if (length == 0 || length > maxFrame || stream.length - at - width < length) {
                break;
            }
            replies.write(stream, at, width);
            for (int i = (int) length - 1; i >= 0; i--) {
                replies.write(stream[at + width + i]);
            }
            at += width + (int) length;
        }
        return replies.toByteArray();
    }
}
