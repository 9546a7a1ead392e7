package io.ricochet.loadgen.engine;

import io.netty.buffer.ByteBuf;
import io.ricochet.codec.FrameHeader;
import io.ricochet.loadgen.workload.FrameConversation;

/** How every frame lane writes a request: a length field, then the body the workload writes after it. */
final class RequestFrames {
    private RequestFrames() {
    }

    /**
     * Frames one request at {@code buf}'s writer index and returns its body size. A body the workload left empty or
     * made larger than {@code largestBody} is an {@link IllegalStateException}, naming what one {@code carrier}
     * carries when it is given; the caller then drops what was written.
     */
    static int write(FrameConversation conversation, ConnectionContext request, ByteBuf buf, int width,
            int largestBody, String carrier) {
        int start = buf.writerIndex();
        buf.ensureWritable(width);
        buf.writerIndex(start + width);
        conversation.request(request, buf);
        int size = buf.writerIndex() - start - width;
        if (size < 1 || size > largestBody) {
            throw new IllegalStateException("a request body of " + size + " bytes (expected: 1.." + largestBody
                    + (carrier == null ? "" : ", what one " + carrier + " carries") + ")");
        }
        FrameHeader.setLength(buf, start, width, size);
        return size;
    }
}
