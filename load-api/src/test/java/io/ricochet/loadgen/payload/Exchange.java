package io.ricochet.loadgen.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.FrameConversation;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One request and its reply, as the engine makes them: the conversation writes the body, a fake server answers, and
 * the conversation checks the answer where it lies in a larger buffer (so a check that assumed index 0 would fail),
 * without moving its indices. Every buffer is released.
 */
final class Exchange {
    private Exchange() {
    }

    /**
     * What a fake server answers to {@code request}: {@code reverse} or {@code echo} the body, then optionally
     * {@code ,flip:N} to spoil byte N; {@code =TEXT} answers TEXT; {@code after:N} answers the body from byte N on.
     */
    static byte[] serve(String server, byte[] request) {
        String[] steps = server.startsWith("=") ? new String[] {server} : server.split(",");
        byte[] reply = request.clone();
        for (String step : steps) {
            if (step.equals("reverse")) {
                for (int i = 0; i < reply.length; i++) {
                    reply[i] = request[request.length - 1 - i];
                }
            } else if (step.startsWith("flip:")) {
                reply[Integer.parseInt(step.substring(5))] ^= 1;
            } else if (step.startsWith("after:")) {
                reply = Arrays.copyOfRange(request, Integer.parseInt(step.substring(6)), request.length);
            } else if (step.startsWith("=")) {
                reply = step.substring(1).getBytes(StandardCharsets.UTF_8);
            } else if (!step.equals("echo")) {
                throw new IllegalArgumentException("server: " + step);
            }
        }
        return reply;
    }

    /** The body {@code conversation} writes for {@code request}. */
    static byte[] request(FrameConversation conversation, FakeContext request) {
        ByteBuf body = Unpooled.buffer();
        try {
            conversation.request(request, body);
            return ByteBufUtil.getBytes(body);
        } finally {
            body.release();
        }
    }

    /** The check of {@code reply} to {@code request}. */
    static Check check(FrameConversation conversation, FakeContext request, byte[] reply) {
        ByteBuf frames = Unpooled.buffer().writeBytes("len".getBytes(StandardCharsets.US_ASCII)).writeBytes(reply)
                .writeBytes("next".getBytes(StandardCharsets.US_ASCII));
        ByteBuf buf = frames.slice(3, reply.length);
        try {
            Check check = conversation.check(request, buf);
            assertEquals(0, buf.readerIndex(), "reader index");
            assertEquals(reply.length, buf.writerIndex(), "writer index");
            return check;
        } finally {
            frames.release();
        }
    }

    /** A whole exchange: request, answer by {@code server}, check. */
    static Check exchange(FrameConversation conversation, FakeContext request, String server) {
        return check(conversation, request, serve(server, request(conversation, request)));
    }
}
